"""The ``grafo`` command line: one subcommand per tool, in the style of ``mlir-opt``.

``grafo opt FILE|- --pass-pipeline=canonicalize,cse,dce`` parses IR text, verifies it, runs the
pipeline and prints the result to stdout. Options follow ``mlir-opt``:

- ``--print-ir-after-all``: the IR after every pass, on stderr;
- ``--verify-each``: run the verifier after every pass;
- ``--timing``: a wall-time report per pass, on stderr (``--mlir-timing``);
- ``--split-input-file``: the input holds several cases separated by ``// -----`` lines; each
  is processed on its own, the outputs are separated the same way, and line numbers in errors
  refer to the whole file.

Faults in the input (malformed IR, invalid IR, unknown pass, unreadable file) print one line,
``file:line:col: error: ...`` where a position is known, on stderr and exit with status 1.

Each subcommand is a pair of functions: ``add_<name>(subparsers)`` declares its arguments and
``run_<name>(args) -> int`` does the work; ``SUBCOMMANDS`` lists the ``add_`` functions.
"""

from __future__ import annotations

import argparse
import re
import sys

SPLIT_MARKER = "// -----"


class CommandError(Exception):
    """A fault in a command's input, reported as one line and exit status 1."""


def _first_line(e: Exception) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def read_input(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-`` is stdin) and the name to use for it in messages."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise CommandError(f"error: cannot read '{path}': {reason}") from None


def split_input(text: str) -> list[str]:
    """Cases of ``text`` separated by ``// -----`` lines; each case is padded with empty lines
    so that line numbers stay those of the whole file."""
    chunks, current, start = [], [], 0
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if re.fullmatch(r"\s*// -----\s*", line):
            chunks.append("\n" * start + "".join(current))
            current, start = [], i + 1
        else:
            current.append(line)
    chunks.append("\n" * start + "".join(current))
    return chunks


# grafo opt -------------------------------------------------------------------------------------

def add_opt(subparsers) -> None:
    p = subparsers.add_parser(
        "opt", help="run a pass pipeline over IR text (like mlir-opt)",
        description="Parse IR in MLIR's generic syntax, verify it, run the passes of "
                    "--pass-pipeline and print the resulting IR.")
    p.add_argument("input", metavar="FILE", help="IR text file, or - for stdin")
    p.add_argument("--pass-pipeline", default="", metavar="PIPELINE",
                   help="comma-separated pass names, e.g. canonicalize,cse,dce "
                        "(default: none, the IR is only parsed, verified and printed)")
    p.add_argument("--print-ir-after-all", action="store_true",
                   help="print the IR after every pass to stderr")
    p.add_argument("--verify-each", action="store_true",
                   help="run the verifier after every pass")
    p.add_argument("--timing", action="store_true",
                   help="print the wall time of every pass to stderr")
    p.add_argument("--split-input-file", action="store_true",
                   help=f"process each '{SPLIT_MARKER}'-separated case of FILE on its own")
    p.set_defaults(run=run_opt)


def _opt_one(text: str, filename: str, pm) -> str:
    from .ir.parser import IRParseError, parse
    from .ir.printer import print_op
    from .ir.verifier import VerifyError, verify
    try:
        module = parse(text, filename)
        verify(module)
        pm.run(module)
    except IRParseError as e:
        raise CommandError(_first_line(e)) from None
    except VerifyError as e:
        if e.op.loc.line <= 0:
            raise CommandError(f"{filename}: error: '{e.op.name}' op {e.message}") from None
        raise CommandError(_first_line(e)) from None
    return print_op(module)


def run_opt(args) -> int:
    from .passes.manager import PassManager
    try:
        pm = PassManager.parse(args.pass_pipeline, verify_each=args.verify_each,
                               timing=args.timing,
                               print_ir_after=sys.stderr if args.print_ir_after_all else None)
    except ValueError as e:
        raise CommandError(f"error: {e}") from None
    text, filename = read_input(args.input)
    cases = split_input(text) if args.split_input_file else [text]
    outputs, failed = [], False
    for case in cases:
        try:
            outputs.append(_opt_one(case, filename, pm))
        except CommandError as e:
            print(e, file=sys.stderr)
            failed = True
    sys.stdout.write(f"{SPLIT_MARKER}\n".join(outputs))
    if args.timing:
        sys.stderr.write(pm.timing_report())
    return 1 if failed else 0


# entry point -----------------------------------------------------------------------------------

SUBCOMMANDS = [add_opt]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="grafo", description="grafo: compile NumPy-style Python functions to native code")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``grafo`` command line with ``argv`` (default ``sys.argv[1:]``); the exit
    status: 0 on success, 1 for faults in the input, 2 for usage errors (argparse)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CommandError as e:
        print(e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
