"""Every python, c and sh block of README.md and docs/*.md runs as written (or says why not),
in a fresh directory holding a copy of examples/, with ``grafo`` and ``python3`` the
checkout's (tests/doc_snippets.py has the rules)."""

import os
import re
import shutil
import subprocess
import sys

import doc_snippets as S
import pytest

DOCS = S.documents()
RUNNABLE = [d for d in DOCS if any(b.runs for b in S.blocks(d))]


def test_the_docs_are_found():
    assert "README.md" in DOCS and "docs/architecture.md" in DOCS


@pytest.mark.parametrize("doc", DOCS)
def test_every_block_runs_or_says_why_not(doc):
    assert S.problems(S.blocks(doc)) == []


def test_the_readme_runs_python_c_and_sh():
    langs = {b.lang for b in S.blocks("README.md") if b.runs}
    assert langs == {"python", "c", "sh"}


def test_problems_are_found(tmp_path, monkeypatch):
    (tmp_path / "x.md").write_text(
        "```\nbare\n```\n"
        "<!-- snippet: not run () -->\n```sh\nls\n```\n"
        "```c\nint main(void) { return 0; }\n```\n"
        "```c\n/* m.c: built by nothing */\nint main(void) { return 0; }\n```\n"
        "<!-- snippet: output -->\n```text\nhi\n```\n"
        "<!-- snippet: run twice -->\n```sh\necho hi\n```\n")
    monkeypatch.setattr(S, "ROOT", str(tmp_path))
    found = S.problems(S.blocks("x.md"))
    assert [p.split(":")[1] for p in found] == ["1", "5", "8", "11", "16", "20"], found


def _shims(bin_dir) -> None:
    """``python3``/``python`` run this interpreter, ``grafo`` the checkout's command line."""
    os.makedirs(bin_dir)
    for name, args in [("python3", ""), ("python", ""), ("grafo", " -m compiler.cli")]:
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\nexec "{sys.executable}"{args} "$@"\n')
        os.chmod(path, 0o755)


@pytest.mark.parametrize("doc", RUNNABLE)
def test_document_runs(doc, tmp_path):
    doc_blocks = S.blocks(doc)
    if any(b.runs and b.lang == "c" for b in doc_blocks) and shutil.which("cc") is None:
        pytest.skip(f"needs a C compiler (cc) to build {doc}'s C example")
    missing = {b.where: [n for n in b.needs if not S.available(n)] for b in doc_blocks}
    missing = {w: names for w, names in missing.items() if names}
    code, origin = S.script([b for b in doc_blocks if b.where not in missing])
    path = tmp_path / "snippets.py"
    path.write_text(code)
    shutil.copytree(os.path.join(S.ROOT, "examples"), tmp_path / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    _shims(str(tmp_path / "bin"))
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([S.ROOT, os.path.join(S.ROOT, "tests")]),
           "GRAFO_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, str(path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        err = re.sub(r'File "[^"]*snippets\.py", line (\d+)',
                     lambda m: f"{m.group(0)} ({origin.get(int(m.group(1)), 'generated')})",
                     proc.stderr)
        pytest.fail(f"{doc}: a block failed (exit status {proc.returncode}):\n{err[-6000:]}")
    if missing:
        pytest.skip(f"ran {doc} but for blocks that need what is not installed: {missing}")
