"""Dialects: each module declares one namespace of ops and registers them on import.

- ``builtin``: the module.
- ``func``: functions, returns (upstream MLIR semantics).
- ``np``: tensor- and scalar-level ops with NumPy semantics (broadcasting, dtypes); the
  frontend's output (``np_data``: concatenate, scans, sort, gather, mask selection).
- ``scf``: structured control flow (upstream MLIR: if, for, while, yield, condition).
- ``arith``, ``math``, ``memref``: scalar and buffer ops of the loop level (upstream names).
- ``complex``: complex scalars of the loop level (upstream names, NumPy's semantics).
- ``grafo``: run-time effects of the loop level (raising errors).
- ``linalg``: NumPy's ``np.linalg`` gufuncs at tensor level (``np.linalg.solve``, ...).
- ``lapack``: calls of LAPACK routines on column-major buffers at loop level.
- ``blas``: calls of CBLAS's matrix products (gemm, gemv) on row-major views at loop level.

Registration: the last statement of each module, ``register_ops(namespace, classes)``, makes
its op classes known by name to the parser and the verifier (``ir.opdef.OPS``). Importing
this package registers every dialect; ``import compiler`` (which any ``compiler.*`` import
runs first) imports it, so parsed IR text always finds its ops.
"""

from . import (  # noqa: F401
    arith,
    blas,
    builtin,
    complex,
    func,
    grafo,
    lapack,
    linalg,
    math,
    memref,
    np,
    np_data,
    scf,
)
