"""The pass manager: named passes, MLIR-style pipeline strings, verification, IR dumps, timing.

A pass is a small class with a ``name`` and a ``run(module)`` that rewrites the IR in place;
defining the class registers it by name. ``PassManager.parse("canonicalize,cse,dce")`` builds
a pipeline the way ``mlir-opt --pass-pipeline=...`` does (the MLIR wrapper
``builtin.module(...)`` is accepted too). Options mirror MLIR's:

- ``verify_each``: run the verifier after every pass (``mlir-opt --verify-each``);
- ``print_ir_after``: a callable ``(pass_name, module)`` called after every pass, or a text
  stream that gets MLIR's ``IR Dump After <pass>`` blocks (``--mlir-print-ir-after-all``);
- ``timing``: record the wall time of every pass (``--mlir-timing``), reported by
  ``timing_report()``.
"""

from __future__ import annotations

import time
from typing import Callable, TextIO

from ..ir.core import Operation
from ..ir.printer import print_op
from ..ir.verifier import VerifyError, verify

PASSES: dict[str, type["Pass"]] = {}

DEFAULT_PIPELINE = "canonicalize,cse,dce"
# Run after DEFAULT_PIPELINE (or a user's pipeline) on loop-level IR for the CPU; polls go
# last, as they depend on the loops that fusion leaves.
LOOP_PIPELINE = ("arith-emulate-unsupported-floats,version-bounds-checks,parallelize-loops,"
                 "fuse-loops,task-groups,interrupt-polls")


class Pass:
    """Base of passes: subclasses set ``name`` (the pipeline name) and implement ``run``."""

    name: str = ""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "name" in cls.__dict__:
            if cls.name in PASSES:
                raise ValueError(f"pass {cls.name} is defined twice")
            PASSES[cls.name] = cls

    def run(self, module: Operation) -> None:
        """Rewrite ``module`` (and everything nested in it) in place."""
        raise NotImplementedError


def known_passes() -> list[str]:
    """The names of all registered passes, sorted."""
    from . import canonicalize, cse, dce, emulate_floats, fold, fuse_loops, interrupt_polls  # noqa: F401
    return sorted(PASSES)


def parse_pipeline(text: str) -> list[Pass]:
    """Pass instances for a comma-separated pipeline string such as ``"canonicalize,cse"``.

    Raises ValueError naming an unknown pass and listing the known ones, or for an empty
    entry (``"cse,,dce"``)."""
    text = text.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        text = text[len("builtin.module("):-1]
    known = known_passes()
    passes = []
    if not text:
        return passes
    for entry in text.split(","):
        name = entry.strip()
        if not name:
            raise ValueError(f"empty pass name in pipeline '{text}'")
        if name not in PASSES:
            raise ValueError(f"unknown pass '{name}' in pipeline '{text}'; known passes: "
                             + ", ".join(known))
        passes.append(PASSES[name]())
    return passes


def ir_dump_to(stream: TextIO) -> Callable[[str, Operation], None]:
    """A ``print_ir_after`` callback writing MLIR's ``IR Dump After <pass>`` blocks."""
    def dump(name: str, module: Operation) -> None:
        stream.write(f"// -----// IR Dump After {name} //----- //\n{print_op(module)}\n")
    return dump


class PassManager:
    """Runs a list of passes over a module, in order.

    ``timings`` holds ``(pass_name, seconds)`` for every pass run so far when ``timing`` is
    set; ``current`` is the name of the pass that runs (or ran last), None before the first.
    A verifier failure under ``verify_each`` raises ``VerifyError`` naming the pass."""

    def __init__(self, passes: list[Pass], verify_each: bool = False,
                 print_ir_after: Callable[[str, Operation], None] | TextIO | None = None,
                 timing: bool = False):
        self.passes = list(passes)
        self.verify_each = verify_each
        if hasattr(print_ir_after, "write"):
            print_ir_after = ir_dump_to(print_ir_after)
        self.print_ir_after = print_ir_after
        self.timing = timing
        self.timings: list[tuple[str, float]] = []
        self.current: str | None = None

    @classmethod
    def parse(cls, pipeline: str = DEFAULT_PIPELINE, **options) -> "PassManager":
        """A pass manager for a pipeline string; ``options`` as for the constructor."""
        return cls(parse_pipeline(pipeline), **options)

    @property
    def pipeline(self) -> str:
        return ",".join(p.name for p in self.passes)

    def run(self, module: Operation) -> Operation:
        """Run every pass on ``module`` in place; returns ``module``."""
        for p in self.passes:
            self.current = p.name
            start = time.perf_counter()
            p.run(module)
            if self.timing:
                self.timings.append((p.name, time.perf_counter() - start))
            if self.verify_each:
                try:
                    verify(module)
                except VerifyError as e:
                    raise VerifyError(e.op, f"{e.message} (IR invalid after pass "
                                            f"'{p.name}')") from None
            if self.print_ir_after is not None:
                self.print_ir_after(p.name, module)
        return module

    def timing_report(self) -> str:
        """MLIR's ``--mlir-timing`` report: wall time per pass run and the total."""
        total = sum(t for _, t in self.timings)
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "Execution time report".center(79).rstrip(), rule,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for name, t in self.timings + [("Total", total)]:
            share = 100.0 * t / total if total > 0 else 100.0
            lines.append(f"  {t:8.4f} ({share:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"
