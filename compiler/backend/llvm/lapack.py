"""LAPACK in compiled code: resolving NumPy's LAPACK routines and calling them.

``resolve`` loads the library of NumPy's wheel (``runtime/lapack.py``) into the process once
(``llvmlite.binding.load_library_permanently``, as Numba loads SciPy's ``cython_lapack``) and
checks that every routine a module calls is there, when the module is compiled, so that the
JIT links the calls by name. An artifact records the library and symbols in its manifest
(``compiler/aot``) and its loader opens the library the same way first.

Calls (``call``) follow gfortran's convention: every argument is the address of a value (a
stack slot for scalars, the first element of a buffer for arrays), integers are ``int64``,
each character argument is a pointer to one byte plus, after all other arguments, its hidden
length (a ``size_t`` 1). ``info`` is read back from its slot.
"""

from __future__ import annotations

import functools
import os

import llvmlite.binding as llvm
from llvmlite import ir

from runtime.lapack import LIBRARY_PATTERN, library_path, symbol

from ...dialects import lapack
from ...errors import unsupported
from .types import I8, I64

F64 = ir.DoubleType()


@functools.cache
def _loaded(path: str) -> None:
    llvm.load_library_permanently(path)


def resolve(routines, loc=None, symbols=()) -> None:
    """Load NumPy's LAPACK into the process and check it defines each of ``routines`` and
    ``symbols`` (CBLAS's, ``blas.py``). Raises a CompileError (NotImplementedError) naming
    what is missing."""
    path = library_path()
    if path is None:
        raise unsupported("np.linalg and BLAS calls need the OpenBLAS library of NumPy's wheel "
                          f"(numpy.libs/{LIBRARY_PATTERN}), which this NumPy does not have",
                          loc, "install NumPy from a wheel (pip install numpy)")
    _loaded(path)
    for s in [symbol(r) for r in routines] + list(symbols):
        if not llvm.address_of_symbol(s):
            raise unsupported(f"{os.path.basename(path)} does not define {s}", loc)


def call(fe, op: lapack.RoutineOp) -> ir.Value:
    """Emit the call of ``op``'s routine; returns ``info`` (an ``i64``)."""
    resolve([op.routine], op.loc)
    b = fe.b
    args = []
    for c in lapack.CHARACTERS.get(op.routine, ()):
        slot = fe.entry_alloca(I8)
        b.store(ir.Constant(I8, ord(op.attr(c))), slot)
        args.append(slot)
    for p, v in zip(lapack.PARAMETERS[op.routine], fe.operands(op), strict=True):
        kind = lapack.kind_of(p)
        if kind in ("A", "I"):
            args.append(v.address(b, [ir.Constant(I64, 0)]))
            continue
        slot = fe.entry_alloca(F64 if kind == "d" else I64)
        b.store(v, slot)
        args.append(slot)
    info = fe.entry_alloca(I64)
    args.append(info)
    args += [ir.Constant(I64, 1)] * len(lapack.CHARACTERS.get(op.routine, ()))
    fn = fe.mod.external(symbol(op.routine), ir.VoidType(), [a.type for a in args])
    b.call(fn, args)
    return b.load(info, typ=I64)


def routines_of(module) -> list[str]:
    """The routines the loop-level ``module`` calls, in order of first call."""
    out: list[str] = []
    for op in module.walk():
        if isinstance(op, lapack.RoutineOp) and op.routine not in out:
            out.append(op.routine)
    return out
