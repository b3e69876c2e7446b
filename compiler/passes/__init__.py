"""IR-to-IR passes and the pass manager (see ``manager.py``).

Passes: ``fold`` (constant folding), ``canonicalize`` (folding + rewrite patterns to a fixed
point), ``cse`` (common subexpression elimination), ``dce`` (dead code elimination),
``arith-emulate-unsupported-floats`` (``f16`` arithmetic computed in ``f32``), ``fuse-loops``
(sibling parallel loop fusion on loop-level IR), ``version-bounds-checks`` (a loop versioned
on one check before it that every index stays in range), ``parallelize-loops`` (explicit
loops with independent iterations marked parallel), ``interrupt-polls`` (where long loops
poll for a Ctrl-C), ``drop-bounds-checks`` (``boundscheck=False``: no IndexError checks of
integer indexing; unsafe), ``task-groups`` (independent regions of a function body run as
parallel tasks).
``PassManager.parse(DEFAULT_PIPELINE).run(module)`` is the optimization pipeline the compiler
runs on the frontend's output and on the lowered module; ``LOOP_PIPELINE`` follows on the
lowered module for the CPU.
"""

from . import (  # noqa: F401  (registers the passes)
    canonicalize,
    cse,
    dce,
    drop_checks,
    emulate_floats,
    fold,
    fuse_loops,
    interrupt_polls,
    parallelize,
    task_groups,
    version_loops,
)
from .manager import (
    DEFAULT_PIPELINE,
    LOOP_PIPELINE,
    PASSES,
    Pass,
    PassManager,
    known_passes,
    parse_pipeline,
)

__all__ = ["DEFAULT_PIPELINE", "LOOP_PIPELINE", "PASSES", "Pass", "PassManager", "known_passes",
           "parse_pipeline"]
