"""What generated CPython entry points need from this process, and how to make them callable.

A compiler may generate, next to a function's C entry, a ``METH_FASTCALL | METH_KEYWORDS``
function ``PyObject *f(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
PyObject *kwnames)`` that reads NumPy arrays and scalars straight from their object structs,
calls the C entry without the GIL and wraps the results with NumPy's C API. It needs the
struct offsets, type object and dtype addresses, and C function addresses of this process:
``LAYOUT`` (a ``Layout``, or None when they could not be verified, e.g. another NumPy struct
layout; then only the ctypes path of ``runtime.abi`` is used).

``LAYOUT`` is measured at import from known objects (arrays of two shapes, one scalar of each
dtype, a float) against the documented layouts (NumPy's ``PyArrayObject_fields``, NumPy array
scalars, ``PyFloatObject``), so a mismatch disables the fast path instead of misreading memory.
NumPy's C API functions come from its ``_ARRAY_API`` capsule (stable indices of NumPy's ABI).

``make_function(address, reference, name)`` wraps such an entry in a builtin function object
whose ``__self__`` is ``reference`` (the ``runtime.abi.NativeFunction`` of the same entry): the
generated code calls ``reference`` itself for every argument it does not handle, so both paths
accept the same arguments and raise the same errors. ``rebind(function, fallback)`` runs the
same entry with another object in that role (a polymorphic function's dispatcher).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from .abi import _CTYPE

METH_FASTCALL_KEYWORDS = 0x80 | 0x02
# NumPy array flags (ndarraytypes.h)
C_CONTIGUOUS, ALIGNED, WRITEABLE = 0x1, 0x100, 0x400
# Indices in NumPy's C API table (__multiarray_api.h; fixed by NumPy's ABI)
_API_INDEX = {"PyArray_Type": 2, "PyArrayDescr_Type": 3, "PyArray_Scalar": 60,
              "PyArray_NewFromDescr": 94, "PyArray_SetBaseObject": 282}
PYTHON_FUNCTIONS = ("PyEval_SaveThread", "PyEval_RestoreThread", "PyObject_Vectorcall",
                    "PyLong_AsLongLongAndOverflow", "PyLong_FromLongLong",
                    "PyLong_FromUnsignedLongLong", "PyFloat_FromDouble",
                    "PyComplex_FromDoubles", "PyBool_FromLong", "PyTuple_New",
                    "PyTuple_SetItem", "Py_IncRef", "Py_DecRef", "PyCapsule_New",
                    "PyCapsule_GetPointer")


@dataclass(frozen=True)
class Layout:
    """Offsets (bytes) and addresses generated entry points use in this process.

    ``array_*``: fields of NumPy's ``PyArrayObject_fields``; ``scalar_value``: the value in a
    NumPy array scalar and in a ``float``; ``array_type``: ``&PyArray_Type``; ``descrs``:
    {dtype: address of NumPy's canonical descriptor}; ``scalar_types``: {dtype: address of its
    array scalar type}; ``float_type``/``int_type``/``complex_type``: ``&PyFloat_Type``/
    ``&PyLong_Type``/``&PyComplex_Type`` (a ``complex`` holds its (re, im) at ``scalar_value``);
    ``true``/``false``/``none``: the singletons; ``functions``: {C name: address} for
    ``PYTHON_FUNCTIONS``, NumPy's ``PyArray_Scalar``/``PyArray_NewFromDescr``/
    ``PyArray_SetBaseObject``, ``free`` and ``raise_status`` (see ``runtime.abi``);
    ``interrupt_flag``: the address of the interrupt flag (``runtime.interrupt``), which the
    entry tests first: when set, the call goes to the reference path, which clears it."""

    array_data: int
    array_nd: int
    array_dimensions: int
    array_strides: int
    array_descr: int
    array_flags: int
    scalar_value: int
    array_type: int
    descrs: dict
    scalar_types: dict
    float_type: int
    int_type: int
    complex_type: int
    true: int
    false: int
    none: int
    functions: dict
    interrupt_flag: int


def _words(obj, n: int) -> list:
    return list((ctypes.c_int64 * n).from_address(id(obj)))


def _array_offsets() -> dict:
    """PyArrayObject_fields offsets, checked on two arrays of different ranks."""
    off = {"array_data": 16, "array_nd": 24, "array_dimensions": 32, "array_strides": 40,
           "array_descr": 56, "array_flags": 64}
    for a in (np.zeros((3, 7), np.int16)[:, ::2], np.ones(5, np.float32)):
        w = _words(a, 9)
        nd = ctypes.c_int32.from_address(id(a) + off["array_nd"]).value
        flags = ctypes.c_int32.from_address(id(a) + off["array_flags"]).value
        dims = list((ctypes.c_int64 * a.ndim).from_address(w[off["array_dimensions"] // 8]))
        strides = list((ctypes.c_int64 * a.ndim).from_address(w[off["array_strides"] // 8]))
        if (w[off["array_data"] // 8] != a.ctypes.data or nd != a.ndim
                or dims != list(a.shape) or strides != list(a.strides)
                or w[off["array_descr"] // 8] != id(a.dtype) or flags != a.flags.num):
            raise LookupError("unexpected PyArrayObject layout")
    if (np.zeros(4).flags.num & (C_CONTIGUOUS | ALIGNED | WRITEABLE)
            != C_CONTIGUOUS | ALIGNED | WRITEABLE):
        raise LookupError("unexpected NumPy array flags")
    return off


def _scalar_offset() -> int:
    """Offset of the value in NumPy array scalars and in ``float`` (after PyObject_HEAD)."""
    offset = 16
    for dtype in _CTYPE:
        for probe in (True, False) if dtype.kind == "b" else (1, 113):
            v = dtype.type(probe)   # compared by its bytes: a float16 is held as its bits
            if ctypes.string_at(id(v) + offset, dtype.itemsize) != np.array(v).tobytes():
                raise LookupError(f"unexpected {dtype} scalar layout")
    if ctypes.c_double.from_address(id(2.5) + offset).value != 2.5:
        raise LookupError("unexpected float layout")
    if list((ctypes.c_double * 2).from_address(id(2.5 - 1j) + offset)) != [2.5, -1.0]:
        raise LookupError("unexpected complex layout")
    return offset


def _numpy_api() -> dict:
    try:
        from numpy._core import _multiarray_umath as mu
    except ImportError:   # NumPy 1.x
        from numpy.core import _multiarray_umath as mu
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    table = (ctypes.c_void_p * 300).from_address(get(mu._ARRAY_API, None))
    api = {name: table[i] for name, i in _API_INDEX.items()}
    if api.pop("PyArray_Type") != id(np.ndarray) or api.pop("PyArrayDescr_Type") != id(np.dtype):
        raise LookupError("unexpected NumPy C API table")
    return api


def _address(fn) -> int:
    return ctypes.cast(fn, ctypes.c_void_p).value


def _measure() -> Layout | None:
    from . import abi, interrupt
    try:
        offsets = _array_offsets()
        scalar = _scalar_offset()
        functions = _numpy_api()
    except (LookupError, ImportError, AttributeError, ValueError):
        return None
    functions.update({n: _address(getattr(ctypes.pythonapi, n)) for n in PYTHON_FUNCTIONS})
    functions["free"] = _address(abi._free)
    functions["raise_status"] = id(abi.raise_status)
    return Layout(**offsets, scalar_value=scalar, array_type=id(np.ndarray),
                  descrs={d: id(d) for d in _CTYPE}, scalar_types={d: id(d.type) for d in _CTYPE},
                  float_type=id(float), int_type=id(int), complex_type=id(complex),
                  true=id(True), false=id(False),
                  none=id(None), functions=functions,
                  interrupt_flag=interrupt.STATE_ADDRESS)


LAYOUT = _measure()


class _MethodDef(ctypes.Structure):
    _fields_ = [("ml_name", ctypes.c_char_p), ("ml_meth", ctypes.c_void_p),
                ("ml_flags", ctypes.c_int), ("ml_doc", ctypes.c_char_p)]


_new_function = ctypes.pythonapi.PyCFunction_NewEx
_new_function.restype = ctypes.py_object
_new_function.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]


def make_function(address: int, reference, name: str):
    """A builtin function calling the generated fast entry at ``address`` with ``reference``
    as ``self`` (kept alive by the function, and keeping the method definition alive)."""
    definition = _MethodDef(name.encode(), address, METH_FASTCALL_KEYWORDS, None)
    reference._method_def = definition
    return _new_function(ctypes.addressof(definition), reference, None)


def rebind(function, fallback):
    """A builtin running the generated entry of ``function`` (a ``make_function`` result)
    with ``fallback`` as ``self``: the object the entry calls for arguments it does not take
    and passes to ``runtime.abi.raise_status`` (so it needs the reference's ``_raise``).
    ``fallback`` keeps the method definition alive. Raises AttributeError when ``function``
    is not a generated entry."""
    d = function.__self__._method_def
    definition = _MethodDef(d.ml_name, d.ml_meth, d.ml_flags, None)
    fallback._method_def = definition
    return _new_function(ctypes.addressof(definition), fallback, None)
