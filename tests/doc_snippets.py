"""The code blocks of README.md and docs/*.md, and a script per document that runs them.

Every fenced block names its language: ``python``, ``c`` and ``sh`` blocks are run, ``text``
blocks are not code. An HTML comment on the line before a block changes that:

- ``<!-- snippet: not run (REASON) -->``: a python, c or sh block the tests cannot run
  (installs packages, a schematic);
- ``<!-- snippet: needs NAME, ... -->``: run only where each NAME is an importable Python
  module or a program on PATH;
- ``<!-- snippet: output -->``: a text block that is the exact stdout of the sh block before it.

A document's blocks run in order in one directory, from one generated Python script: python
blocks are its code (so they share names, and the frontend reads their source from the
script), a c block is written to the file its first line names (``/* main.c: ... */``) for a
later sh block to build, an sh block runs in bash and fails the script when it exits non-zero.
"""

from __future__ import annotations

import dataclasses
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANGUAGES = ("python", "c", "sh", "text")
RUN = ("python", "c", "sh")
_FENCE = re.compile(r"^(\s*)```(.*)$")
_MARKER = re.compile(r"^<!--\s*snippet:\s*(.*?)\s*-->$")
_C_FILE = re.compile(r"^/\*\s*([\w.-]+\.c)\b")


@dataclasses.dataclass
class Block:
    doc: str        # path relative to ROOT
    line: int       # 1-based line of the opening fence
    lang: str
    code: str
    marker: str     # the snippet comment's text before the block, "" if none

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def not_run(self) -> str | None:
        m = re.fullmatch(r"not run\s*\((.*)\)", self.marker)
        return m.group(1).strip() if m else None

    @property
    def needs(self) -> list[str]:
        m = re.fullmatch(r"needs\s+(.+)", self.marker)
        return [n.strip() for n in m.group(1).split(",")] if m else []

    @property
    def runs(self) -> bool:
        return self.lang in RUN and self.not_run is None

    @property
    def c_file(self) -> str | None:
        m = _C_FILE.match(self.code)
        return m.group(1) if m else None


def documents() -> list[str]:
    """README.md and docs/*.md, relative to ROOT."""
    docs = ["README.md"] + sorted(glob.glob("docs/*.md", root_dir=ROOT))
    return [d for d in docs if os.path.isfile(os.path.join(ROOT, d))]


def blocks(doc: str) -> list[Block]:
    """The fenced code blocks of ``doc`` (relative to ROOT), in order. Raises ValueError for a
    fence that is never closed."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, info, start = len(m.group(1)), m.group(2).strip(), i
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:])
            i += 1
        if i == len(lines):
            raise ValueError(f"{doc}:{start + 1}: code block is never closed")
        prev = next((lines[k].strip() for k in range(start - 1, -1, -1) if lines[k].strip()),
                    "")
        marker = _MARKER.match(prev)
        out.append(Block(doc, start + 1, info, "\n".join(body) + "\n",
                         marker.group(1) if marker else ""))
        i += 1
    return out


def problems(doc_blocks: list[Block]) -> list[str]:
    """What keeps the blocks of one document from being checked: blocks without a language
    or a runnable one without code or a reason, misplaced markers, c blocks no sh block
    builds."""
    found = []
    for k, b in enumerate(doc_blocks):
        if b.lang not in LANGUAGES:
            found.append(f"{b.where}: block language {b.lang!r}: use one of {LANGUAGES}")
            continue
        if b.marker and b.not_run is None and not b.needs and b.marker != "output":
            found.append(f"{b.where}: unknown snippet marker {b.marker!r}")
        if b.not_run is not None and (b.lang not in RUN or not b.not_run):
            found.append(f"{b.where}: 'not run' needs a reason and a python, c or sh block")
        if b.marker == "output":
            before = [p for p in doc_blocks[:k] if p.runs]
            if b.lang != "text" or not before or before[-1].lang != "sh":
                found.append(f"{b.where}: an output block is a text block after a run sh block")
        if b.runs and b.lang == "c":
            later = [p.code for p in doc_blocks[k + 1:] if p.runs and p.lang == "sh"]
            if b.c_file is None:
                found.append(f"{b.where}: a c block starts with /* NAME.c ... */")
            elif not any(re.search(rf"\bcc\b.*\b{re.escape(b.c_file)}\b", c) for c in later):
                found.append(f"{b.where}: no later sh block compiles {b.c_file} with cc")
    return found


def available(name: str) -> bool:
    """Whether ``name`` is a program on PATH or an importable Python module."""
    import importlib.util
    if shutil.which(name):
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def script(doc_blocks: list[Block]) -> tuple[str, dict[int, str]]:
    """The Python script running the runnable ``doc_blocks`` in order, and for each of its
    lines that comes from a python block the block's line in the document."""
    lines = ["from doc_snippets import expect_output, run_shell, write_file", ""]
    origin: dict[int, str] = {}
    for b in doc_blocks:
        if b.runs:
            lines.append(f"# {b.where} ({b.lang})")
            if b.lang == "python":
                for j, text in enumerate(b.code.splitlines(), 1):
                    origin[len(lines) + 1] = f"{b.doc}:{b.line + j}"
                    lines.append(text)
            elif b.lang == "c":
                lines.append(f"write_file({b.c_file!r}, {b.code!r})")
            else:
                lines.append(f"_stdout = run_shell({b.code!r}, {b.where!r})")
        elif b.marker == "output":
            lines.append(f"expect_output(_stdout, {b.code!r}, {b.where!r})")
        lines.append("")
    return "\n".join(lines), origin


def write_file(name: str, text: str) -> None:
    with open(name, "w", encoding="utf-8") as f:
        f.write(text)


def run_shell(code: str, where: str) -> str:
    """Run an sh block with bash (``-e``, ``pipefail``), echo its output and return its
    stdout. Raises RuntimeError naming ``where`` when it exits non-zero."""
    proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], capture_output=True,
                          text=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError(f"{where}: sh block exited with status {proc.returncode}:\n{code}"
                           f"--- stderr:\n{proc.stderr}")
    return proc.stdout


def expect_output(got: str, want: str, where: str) -> None:
    """Raises AssertionError with a diff when ``got`` is not the output block ``want``."""
    if got.rstrip("\n") != want.rstrip("\n"):
        diff = "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                              "documented", "printed", lineterm=""))
        raise AssertionError(f"{where}: the output differs from the document:\n{diff}")
