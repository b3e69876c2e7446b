"""The ``grafo`` command line: one subcommand per tool, in the style of ``mlir-opt``.

- ``grafo opt FILE``: parse, verify, run passes, print (below);
- ``grafo translate FILE --to=llvm|asm|ptx``: IR text to LLVM IR or host assembly (tensor-level
  IR is optimized and lowered to loops first);
- ``grafo ir MODULE.py:FUNC --signature SIG [--stage S] [--target T]``: a Python function's IR
  at a stage, for a target (``--target cuda``: the CUDA backend's loop IR);
- ``grafo graph MODULE.py:FUNC --signature SIG [--stage S] [--target T] -o OUT``: its dataflow
  graph.

``translate``, ``ir`` and ``graph`` run the compile pipeline's own stages
(``compiler/pipeline``) with the target's backend, so they show what ``compile`` builds.
- ``grafo compile MODULE.py:FUNC --signature SIG -o OUT.grafo [--target T] [--timing]``:
  an ahead-of-time artifact (``--timing``: milliseconds per compilation stage, on stderr);
  ``grafo run OUT.grafo [--entry NAME] --input X.npy ... --output Y.npy ...``: call it with
  the runtime only.

``grafo opt FILE|- --pass-pipeline=canonicalize,cse,dce`` parses IR text, verifies it, runs the
pipeline and prints the result to stdout. Options follow ``mlir-opt``:

- ``--print-ir-after-all``: the IR after every pass, on stderr;
- ``--verify-each``: run the verifier after every pass;
- ``--timing``: a wall-time report per pass, on stderr (``--mlir-timing``);
- ``--split-input-file``: the input holds several cases separated by ``// -----`` lines; each
  is processed on its own, the outputs are separated the same way, and line numbers in errors
  refer to the whole file;
- ``-o FILE`` / ``--output FILE``: write the result to FILE instead of stdout (``-`` is stdout),
  as ``grafo translate`` does too.

Faults in the input (malformed IR, invalid IR, unknown pass, unreadable file, a file without
the function, a malformed signature) print one line, ``file:line:col: error: ...`` where a
position is known, on stderr and exit with status 1; a ``CompileError`` prints its message
with the source line. A failure of the compiler itself on input that verified (a grafo bug)
prints one line too, ``file: error: internal compiler error while <stage>: <exception>``, and
exits with status 1; no subcommand prints a Python traceback. Usage errors exit with status 2
(argparse).

Each subcommand is a pair of functions: ``add_<name>(subparsers)`` declares its arguments and
``run_<name>(args) -> int`` does the work; ``SUBCOMMANDS`` lists the ``add_`` functions.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys

SPLIT_MARKER = "// -----"


class CommandError(Exception):
    """A fault in a command's input, reported as one line and exit status 1."""


def _first_line(e: Exception) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def internal_error(where: str, doing: str, e: Exception) -> CommandError:
    """The one-line report of a compiler fault while ``doing`` something with ``where``
    (a file name, or ``error:`` alone)."""
    head = f"{where}: error:" if where else "error:"
    return CommandError(f"{head} internal compiler error while {doing}: {type(e).__name__}: "
                        f"{_first_line(e)}")


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


def add_output_argument(p) -> None:
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="write the result to FILE (default: -, stdout)")


def write_output(text: str, path: str) -> None:
    """Write ``text`` to ``path`` (``-`` is stdout); raises CommandError when it cannot."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CommandError(f"error: cannot write '{path}': {e.strerror or e}") from None


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
    add_output_argument(p)
    p.set_defaults(run=run_opt)


def _opt_one(text: str, filename: str, pm) -> str:
    from .ir.printer import print_op
    from .ir.verifier import VerifyError
    module = _parse_verified(text, filename)
    try:
        pm.run(module)
        return print_op(module)
    except VerifyError as e:   # --verify-each: the pass named in the message broke the IR
        raise CommandError(_verify_message(e, filename)) from None
    except Exception as e:  # noqa: BLE001 - a compiler fault is reported, not a traceback
        raise internal_error(filename, f"running pass '{pm.current}'", e) from None


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
    write_output(f"{SPLIT_MARKER}\n".join(outputs), args.output)
    if args.timing:
        sys.stderr.write(pm.timing_report())
    return 1 if failed else 0


# grafo translate -------------------------------------------------------------------------------

TARGETS = ("llvm", "asm", "ptx")


def add_translate(subparsers) -> None:
    p = subparsers.add_parser(
        "translate", help="translate IR text to LLVM IR or host assembly (like mlir-translate)",
        description="Parse and verify IR text; tensor-level IR (np ops, tensor types) is "
                    "first lowered to loops with fusion; then print the optimized LLVM IR "
                    "(--to=llvm) or the host assembly (--to=asm) of the CPU backend.")
    p.add_argument("input", metavar="FILE", help="IR text file, or - for stdin")
    p.add_argument("--to", required=True, choices=TARGETS,
                   help="output: llvm (LLVM IR after O3), asm (host assembly), ptx (NVIDIA)")
    p.add_argument("--mcpu", metavar="CPU",
                   help="optimize for this CPU model by LLVM's name instead of this machine "
                        "(as llc -mcpu): znver4, sapphirerapids, haswell, ...")
    add_output_argument(p)
    p.set_defaults(run=run_translate)


def _is_tensor_level(module) -> bool:
    from .ir.opdef import TensorLevel
    from .types import TensorType
    for op in module.walk():
        if op.has_trait(TensorLevel):
            return True
        if any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any(isinstance(a.type, TensorType) for a in block.args):
                    return True
    return False


def _parse_verified(text: str, filename: str):
    from .ir.parser import IRParseError, parse
    from .ir.verifier import VerifyError, verify
    try:
        module = parse(text, filename)
        verify(module)
    except IRParseError as e:
        raise CommandError(_first_line(e)) from None
    except VerifyError as e:
        raise CommandError(_verify_message(e, filename)) from None
    return module


def _verify_message(e, filename: str) -> str:
    if e.op.loc.line <= 0:
        return f"{filename}: {_first_line(e)}"
    return _first_line(e)


def run_translate(args) -> int:
    from .backend import for_target
    from .errors import CompileError
    from .pipeline import Run
    from .targets import cpu_model, resolve
    text, filename = read_input(args.input)
    module = _parse_verified(text, filename)
    from .dialects import builtin
    if not isinstance(module, builtin.ModuleOp):
        raise CommandError(f"{filename}: error: expected a 'builtin.module', got '{module.name}'")
    try:
        if args.to == "ptx":
            target = resolve("cuda")
        else:
            target = cpu_model(args.mcpu) if args.mcpu else resolve("cpu")
        # Tensor-level IR takes the stages from the pass pipeline on, as compile() runs them
        # on the frontend's output (with the CUDA target's rewrites and loop passes for ptx).
        first = "optimized" if _is_tensor_level(module) else "llvm"
        native = Run(for_target(target)).through(module, first)
        text = native.llvm_ir if args.to == "llvm" else native.asm   # a PTXModule's asm: PTX
    except CommandError:
        raise
    except CompileError as e:   # valid IR that grafo cannot compile
        raise CommandError(str(e)) from None
    except Exception as e:  # noqa: BLE001 - a compiler fault is reported, not a traceback
        raise internal_error(filename, f"translating to {args.to}", e) from None
    write_output(text, args.output)
    return 0


# grafo ir / grafo graph ------------------------------------------------------------------------

def _function_spec(text: str) -> tuple[str, str]:
    path, sep, name = text.rpartition(":")
    if not sep or not path or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected MODULE.py:FUNC, got '{text}'")
    return path, name


def _add_function_arguments(p) -> None:
    from .pipeline import IR_STAGES
    p.add_argument("function", metavar="MODULE.py:FUNC", type=_function_spec,
                   help="a Python file and the name of a function defined in it")
    p.add_argument("--signature", required=True, metavar="SIG",
                   help='argument types, e.g. "f32[?,4], i64" (see the README, "Signatures")')
    p.add_argument("--stage", default="optimized", choices=IR_STAGES,
                   help="the pipeline stage whose IR to use (default: optimized)")
    p.add_argument("--target", default="cpu",
                   help="the target whose stages to run: cpu (default), x86-64-v2 .. x86-64-v4, "
                        "a Linux triple, cuda or cuda:N (its loop IR after the CUDA backend's "
                        "rewrites and passes; no GPU needed)")


def add_ir(subparsers) -> None:
    p = subparsers.add_parser(
        "ir", help="print the IR of a Python function at one pipeline stage",
        description="Import MODULE.py by path, compile FUNC for --signature and print the IR "
                    "of --stage: frontend (tensor level, as converted from Python), optimized "
                    "(after canonicalize,cse,dce) or loops (after lowering and fusion).")
    _add_function_arguments(p)
    p.set_defaults(run=run_ir)


def add_graph(subparsers) -> None:
    from .graph import FORMATS
    p = subparsers.add_parser(
        "graph", help="draw the dataflow graph of a Python function (needs grafo[graph])",
        description="Compile FUNC of MODULE.py for --signature and draw the IR of --stage as "
                    "a dataflow graph: ops are nodes, values are edges labelled with their "
                    "types, regions are clusters. The output's extension picks the format; "
                    ".dot needs only the graphviz Python package, images also need Graphviz's "
                    "'dot' program.")
    _add_function_arguments(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help=f"output file: {', '.join('.' + f for f in FORMATS)}")
    p.set_defaults(run=run_graph)


def load_function(path: str, name: str):
    """The Python function ``name`` of the file ``path``, imported as a module by path (its
    directory is on ``sys.path`` while it is imported). A ``compiler.Function`` gives its
    Python function. Raises CommandError when the file cannot be imported or lacks ``name``."""
    import importlib.util
    import os
    if not os.path.isfile(path):
        raise CommandError(f"error: cannot read '{path}': No such file")
    module_name = "grafo_user_" + "".join(c if c.isalnum() else "_"
                                          for c in os.path.abspath(path))
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise CommandError(f"error: cannot import '{path}': not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - any fault of the user's file is one line
        sys.modules.pop(module_name, None)
        raise CommandError(f"error: cannot import '{path}': {type(e).__name__}: "
                           f"{_first_line(e)}") from None
    finally:
        sys.path.remove(directory)
    fn = getattr(module, name, None)
    fn = getattr(fn, "python_function", fn)
    if fn is None:
        raise CommandError(f"error: '{path}' defines no function '{name}'")
    if not inspect.isfunction(fn):
        raise CommandError(f"error: '{name}' in '{path}' is a {type(fn).__name__}, "
                           f"not a function")
    return fn


def _stage_module(args):
    from .backend import for_target
    from .errors import CompileError
    from .ir.verifier import VerifyError
    from .pipeline import stage_module
    from .signature import SignatureError, to_specs
    from .targets import resolve
    path, name = args.function
    try:
        target = resolve(args.target)
    except ValueError as e:
        raise CommandError(f"error: --target: {_first_line(e)}") from None
    fn = load_function(path, name)
    try:
        specs = to_specs(args.signature)
    except SignatureError as e:
        raise CommandError(f"error: --signature '{args.signature}': {_first_line(e)}") from None
    params = list(inspect.signature(fn).parameters)
    if len(specs) != len(params):
        raise CommandError(f"error: {name} takes {len(params)} argument(s), --signature gives "
                           f"{len(specs)}")
    try:
        return stage_module(fn, [s.to_type() for s in specs], args.stage,
                            backend=for_target(target))
    except CompileError as e:
        raise CommandError(str(e)) from None
    except VerifyError as e:
        raise CommandError(f"{_first_line(e)} (a grafo bug: the IR of stage "
                           f"'{args.stage}' is invalid)") from None
    except Exception as e:  # noqa: BLE001 - a compiler fault is reported, not a traceback
        raise internal_error("", f"compiling {name} for the '{args.stage}' stage", e) \
            from None


def run_ir(args) -> int:
    from .ir.printer import print_op
    sys.stdout.write(print_op(_stage_module(args)))
    return 0


def run_graph(args) -> int:
    from .graph import GraphError, write_graph
    module = _stage_module(args)
    try:
        write_graph(module, args.output)
    except GraphError as e:
        raise CommandError(f"error: {e}") from None
    except OSError as e:
        raise CommandError(f"error: cannot write '{args.output}': "
                           f"{e.strerror or e}") from None
    except Exception as e:  # noqa: BLE001 - a compiler fault is reported, not a traceback
        raise internal_error("", f"drawing the graph of {args.function[1]}", e) from None
    return 0


# grafo compile / grafo run --------------------------------------------------------------------

def add_compile(subparsers) -> None:
    p = subparsers.add_parser(
        "compile", help="compile a Python function to an ahead-of-time artifact",
        description="Import MODULE.py by path, compile FUNC for --signature and --target and "
                    "write one artifact (manifest, IR, shared library, C header) that "
                    "'grafo run', runtime.load or a C program can use without the compiler.")
    p.add_argument("function", metavar="MODULE.py:FUNC", type=_function_spec,
                   help="a Python file and the name of a function defined in it")
    p.add_argument("--signature", required=True, metavar="SIG",
                   help='argument types, e.g. "f32[?,4], i64" (see the README, "Signatures")')
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="artifact file to write")
    p.add_argument("--target", default="cpu",
                   help="cpu (this machine, default), x86-64-v2 .. x86-64-v4, or a Linux triple "
                        "such as aarch64-linux-gnu")
    p.add_argument("--timing", action="store_true",
                   help="print the wall time of each compilation stage (frontend, passes, "
                        "lowering, LLVM IR, LLVM optimization, machine code) on stderr")
    p.set_defaults(run=run_compile)


def run_compile(args) -> int:
    from .api import compile as compile_function
    from .errors import CompileError
    from .signature import SignatureError
    path, name = args.function
    fn = load_function(path, name)
    try:
        cf = compile_function(fn, args.signature, target=args.target)
    except CompileError as e:
        raise CommandError(str(e)) from None
    except (SignatureError, TypeError, ValueError) as e:
        raise CommandError(f"error: {_first_line(e)}") from None
    except Exception as e:  # noqa: BLE001 - a compiler fault is reported, not a traceback
        raise internal_error("", f"compiling {name}", e) from None
    if args.timing:
        from .pipeline import timing_report
        sys.stderr.write(timing_report(cf.timings))
    try:
        cf.save(args.output)
    except OSError as e:
        raise CommandError(f"error: cannot write '{args.output}': {e.strerror or e}") from None
    except (RuntimeError, ValueError) as e:   # linking; a target artifacts cannot hold
        raise CommandError(f"error: {_first_line(e)}") from None
    return 0


def add_run(subparsers) -> None:
    p = subparsers.add_parser(
        "run", help="run an entry point of an artifact on .npy inputs",
        description="Load an artifact with the runtime, call one entry point with the arrays "
                    "of the --input .npy files (0-d arrays for scalars), and write each result "
                    "to the matching --output .npy file, or print the results.")
    p.add_argument("artifact", metavar="ARTIFACT", help="a file written by 'grafo compile'")
    p.add_argument("--entry", metavar="NAME",
                   help="the entry point to call (required when the artifact has several)")
    p.add_argument("--input", nargs="+", action="extend", default=[], metavar="X.npy",
                   help="one .npy file per run-time argument, in parameter order")
    p.add_argument("--output", nargs="+", action="extend", default=[], metavar="Y.npy",
                   help="one .npy file per result (default: print the results)")
    p.set_defaults(run=run_run)


def run_run(args) -> int:
    import numpy as np

    import runtime
    try:
        loaded = runtime.load(args.artifact)
    except (runtime.ArtifactError, OSError) as e:
        raise CommandError(f"error: {_first_line(e)}") from None
    if isinstance(loaded, runtime.Library):
        if args.entry is None:
            raise CommandError(f"error: '{args.artifact}' has several entry points "
                               f"({', '.join(loaded)}): choose one with --entry")
        try:
            loaded = loaded[args.entry]
        except KeyError as e:
            raise CommandError(f"error: {e.args[0]}") from None
    elif args.entry not in (None, loaded.name):
        raise CommandError(f"error: '{args.artifact}' has no entry point '{args.entry}' "
                           f"(has: {loaded.name})")
    try:
        inputs = [np.load(path, allow_pickle=False) for path in args.input]
    except (OSError, ValueError) as e:
        raise CommandError(f"error: cannot read an --input file: {_first_line(e)}") from None
    try:
        results = loaded(*inputs)
    except Exception as e:  # noqa: BLE001 - the function's exception is the command's output
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    results = results if isinstance(results, tuple) else () if results is None else (results,)
    if not args.output:
        for r in results:
            print(r)
        return 0
    if len(args.output) != len(results):
        raise CommandError(f"error: {loaded.name} returns {len(results)} result(s), "
                           f"--output gives {len(args.output)} file(s)")
    for path, r in zip(args.output, results, strict=True):
        try:
            np.save(path, np.asarray(r))
        except OSError as e:
            raise CommandError(f"error: cannot write '{path}': {e.strerror or e}") from None
    return 0


# entry point -----------------------------------------------------------------------------------

SUBCOMMANDS = [add_opt, add_translate, add_ir, add_graph, add_compile, add_run]


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
