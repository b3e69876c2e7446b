"""IR-to-IR passes and the pass manager (see ``manager.py``).

Passes: ``fold`` (constant folding), ``canonicalize`` (folding + rewrite patterns to a fixed
point), ``cse`` (common subexpression elimination), ``dce`` (dead code elimination).
``PassManager.parse(DEFAULT_PIPELINE).run(module)`` is the optimization pipeline the compiler
runs on the frontend's output.
"""

from . import canonicalize, cse, dce, fold  # noqa: F401  (registers the passes)
from .manager import DEFAULT_PIPELINE, PASSES, Pass, PassManager, known_passes, parse_pipeline

__all__ = ["DEFAULT_PIPELINE", "PASSES", "Pass", "PassManager", "known_passes",
           "parse_pipeline"]
