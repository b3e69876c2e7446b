"""The calling ABI of compiled functions: NumPy arrays and scalars <-> the native entry point.

The entry point (docs/architecture.md, "Calling convention") is
``int32_t name(inputs..., results..., grafo_status *status)``. An array crosses as a pointer to
MLIR's memref descriptor ``{allocated, aligned, offset, sizes[r], strides[r]}`` (strides in
elements, so negative and non-contiguous strides pass without a copy), a scalar by value
(bool as ``int8_t``). Result arrays come back in buffers from ``aligned_alloc``; the returned
NumPy arrays own them and ``free`` them when the last view dies. A non-zero return value k
raises the exception of the k-th entry of the error table with its message formatted from
``status->params``, followed by the user's source location, from a traceback frame at that
location (``runtime.frames``); negative codes are the runtime's own (``OUT_OF_MEMORY``,
``ARRAY_TOO_BIG``, ``INTERRUPTED``: see ``interrupt.py``).

An array parameter the function writes (``written``) must be writable, as NumPy requires of
an assignment's destination: a read-only array (``setflags(write=False)``, ``np.broadcast_to``,
``np.frombuffer`` of bytes, a read-only memory map) raises NumPy's ``ValueError`` before the
call. An array that is not aligned to its itemsize is copied for the call (the generated loads
and stores assume natural alignment) and, when written, copied back after it, also when the
call fails, so the caller sees the writes done before the error, as with an aligned array.

This module needs only NumPy and ctypes (no compiler, llvmlite or lark), so saved artifacts run
with it alone. ctypes releases the GIL during the native call.
"""

from __future__ import annotations

import builtins
import ctypes
import ctypes.util
import functools
import linecache
from dataclasses import dataclass

import numpy as np

from . import interrupt
from .frames import raise_at
from .interrupt import INTERRUPTED

_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None
_interrupt_flag = interrupt.flag

OUT_OF_MEMORY = -1
ARRAY_TOO_BIG = -2
STATUS_PARAMS = 4
READ_ONLY = "assignment destination is read-only"   # NumPy's message for ``x[i] = v``

_CTYPE = {np.dtype(t): c for t, c in (
    (np.bool_, ctypes.c_int8), (np.int8, ctypes.c_int8), (np.int16, ctypes.c_int16),
    (np.int32, ctypes.c_int32), (np.int64, ctypes.c_int64), (np.uint8, ctypes.c_uint8),
    (np.uint16, ctypes.c_uint16), (np.uint32, ctypes.c_uint32), (np.uint64, ctypes.c_uint64),
    (np.float16, ctypes.c_uint16), (np.float32, ctypes.c_float),
    (np.float64, ctypes.c_double),
    # (re, im) as NumPy stores them; an array type, so a complex argument decays to a pointer
    (np.complex64, ctypes.c_float * 2), (np.complex128, ctypes.c_double * 2))}
_HALF = np.dtype(np.float16)   # crosses the C ABI as its bits (``uint16_t``)


@dataclass(frozen=True)
class ArraySpec:
    """An array parameter or result: exact ``dtype``, ``shape`` with None for dynamic dims.
    ``contiguous``: the code assumes row-major layout (inputs that are not get copied)."""

    dtype: np.dtype
    shape: tuple
    contiguous: bool = False

    def __str__(self) -> str:
        return f"{self.dtype}[{', '.join('?' if d is None else str(d) for d in self.shape)}]"


@dataclass(frozen=True)
class ScalarSpec:
    """A scalar parameter or result of ``dtype``. ``python`` ("int", "float", "complex",
    "bool" or None)
    makes a result a Python scalar instead of a NumPy scalar (NEP 50 weak results)."""

    dtype: np.dtype
    python: str | None = None

    def __str__(self) -> str:
        return f"{self.python or self.dtype} scalar"


@functools.cache
def descriptor_type(rank: int) -> type:
    """The ctypes type of a rank-``rank`` memref descriptor: ``3 + 2 * rank`` int64 words
    ``[allocated, aligned, offset, sizes..., strides...]``, the layout of MLIR's struct."""
    return ctypes.c_int64 * (3 + 2 * rank)


_Byte = ctypes.c_char
_STATUS = ctypes.c_int64 * (1 + STATUS_PARAMS)   # {int32 code, int32 reserved}, params[4]


class _Buffer:
    """Owner of one result buffer: NumPy reads ``__array_interface__``, ``__del__`` frees."""

    __slots__ = ("__array_interface__", "_allocated")

    def __init__(self, interface: dict, allocated: int):
        self.__array_interface__ = interface
        self._allocated = allocated

    def __del__(self, _free=_free):   # bound now: module globals may be gone at exit
        _free(self._allocated)


class NativeFunction:
    """A compiled entry point called with NumPy arrays and scalars.

    ``inputs``/``results``: one ``ArraySpec`` or ``ScalarSpec`` each; ``errors``: for status
    code k, ``errors[k - 1] = (exception name, str.format message, (file, line, col,
    function))``, ``function`` the Python function whose line it is ("": ``name``);
    ``arg_names``: the parameter names of ``inputs`` (default ``arg0``, ``arg1`` ...);
    ``written``: positions of the array parameters whose buffers the code writes.
    Calling checks every argument (TypeError naming the parameter, the expected and the
    received type, see ``argument_error``; OverflowError for a scalar out of its dtype's
    range; NumPy's ``ValueError("assignment destination is read-only")`` for a read-only
    array passed for a written parameter), runs the native code and returns the result (a
    tuple when there are several results, None when none). A failed run-time check raises
    its exception (IndexError ...) from a traceback frame at the check's source line;
    MemoryError when a buffer cannot be allocated. A Ctrl-C during the call raises
    KeyboardInterrupt (or what Python's SIGINT handler raises) once the native code has
    stopped (``interrupt.py``).
    """

    def __init__(self, address: int, inputs: list, results: list, errors: list,
                 name: str = "<compiled>", keepalive=None, arg_names=None, written=()):
        self.address = address
        self.name = name
        self.inputs = tuple(inputs)
        self.arg_names = (tuple(arg_names) if arg_names is not None
                          else tuple(f"arg{i}" for i in range(len(self.inputs))))
        self.results = tuple(results)
        self.errors = list(errors)
        self._keepalive = keepalive
        # No argtypes: every argument is already a ctypes object of the parameter's exact C
        # type (arrays decay to pointers), which saves ctypes' per-argument from_param calls.
        self._cfunc = ctypes.CFUNCTYPE(ctypes.c_int32)(address)
        self.written = tuple(sorted(written))
        self._convert = [_input_converter(s, name, n, k in self.written)
                         for k, (s, n) in enumerate(zip(self.inputs, self.arg_names,
                                                        strict=True))]
        self._makers = [_result_maker(s) for s in self.results]
        self._nin = len(self.inputs)

    def __repr__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.results))
        return f"<NativeFunction {self.name}({ins}) -> ({outs})>"

    def __call__(self, *args):
        if len(args) != self._nin:
            raise TypeError(f"{self.name}() takes {self._nin} arguments "
                            f"({len(args)} given)")
        if _interrupt_flag.value:
            interrupt.clear_stale()
        cargs = [conv(a) for conv, a in zip(self._convert, args, strict=False)]
        slots = [make() for make in self._makers]
        status = _STATUS()
        rc = self._cfunc(*cargs, *[s[0] for s in slots], status)
        for k in self.written:   # before raising: writes done before an error are kept
            d = cargs[k]
            if d._caller is not None:
                np.copyto(d._caller, d._array)
        if rc:
            self._raise(rc, status[1:])
        seen: dict = {}
        out = tuple(s[1](s[0], seen) for s in slots)
        if len(out) == 1:
            return out[0]
        return out if out else None

    def _raise(self, rc: int, params: list):
        """Raise the exception of status code ``rc`` with message parameters ``params``, from
        a frame at the failed check's source line when the code is a check's."""
        if rc == OUT_OF_MEMORY:
            raise MemoryError(f"{self.name}: cannot allocate a buffer of {params[0]} bytes")
        if rc == INTERRUPTED:
            raise interrupt.interrupted()
        if rc == ARRAY_TOO_BIG:
            raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger "
                             "than the maximum possible size.")
        if not 0 < rc <= len(self.errors):
            raise RuntimeError(f"{self.name}: native code returned unknown status {rc}")
        kind, message, loc = self.errors[rc - 1]
        file, line, _, function = loc
        raise_at(check_error(kind, message, params, loc), file, line, function or self.name)


def check_error(kind: str, message: str, params, loc) -> Exception:
    """The exception of a failed run-time check: builtin class ``kind`` (RuntimeError when
    it names none; "LinAlgError" is NumPy's ``np.linalg.LinAlgError``), ``message`` formatted
    with ``params``, then ``loc``'s source (``_where``)."""
    cls = np.linalg.LinAlgError if kind == "LinAlgError" else getattr(builtins, kind, None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = RuntimeError
    return cls(message.format(*params) + _where(loc))


def raise_status(function: NativeFunction, code: int, *params: int):
    """Raise the exception ``function`` raises for status ``code`` and ``params`` (for entry
    points generated outside this module: ``runtime.fastcall``)."""
    function._raise(code, list(params))


def argument_error(function: str, name: str, expected: str, got: str) -> TypeError:
    """The TypeError of an argument of type ``got`` (``value_text``) for parameter ``name``
    of ``function``, expected of type ``expected`` (an ``ArraySpec``'s text, or
    ``scalar_text``), as every compiled callable phrases it:
    ``f() argument 'x': expected float32[?], got float64[3]``."""
    return TypeError(f"{function}() argument {name!r}: expected {expected}, got {got}")


def scalar_text(dtype: np.dtype) -> str:
    """``an int64 scalar``, ``a float32 scalar``: a scalar parameter's type in errors."""
    return f"{'an' if dtype.name[0] == 'i' else 'a'} {dtype} scalar"


def value_text(value) -> str:
    """An argument's type as errors show it: ``float64[3]`` for an array (dtype and shape),
    ``a device array float32[3]`` and what to do for one exposing
    ``__cuda_array_interface__`` (compiled CPU code reads host memory only), else its type's
    name."""
    if isinstance(value, np.ndarray):
        return f"{value.dtype}[{', '.join(map(str, value.shape))}]"
    cai = getattr(value, "__cuda_array_interface__", None)
    if isinstance(cai, dict):
        return (f"a device array {np.dtype(cai['typestr'])}[{', '.join(map(str, cai['shape']))}]"
                f" (CPU code takes host arrays: copy it with compiler.device_put(x, 'cpu') or "
                f"x.copy_to_host())")
    return type(value).__name__


def subclass_error(a) -> TypeError:
    """The TypeError for an ndarray subclass argument (masked arrays, matrices): compiled code
    would drop what the subclass adds (a mask, matrix semantics)."""
    t = type(a)
    return TypeError(f"{t.__module__}.{t.__qualname__} (an ndarray subclass) is not supported: "
                     f"compiled code sees only its data; pass np.asarray(x) to compute on "
                     f"that, or call the Python function")


def _where(loc) -> str:
    """``File "k.py", line 4, column 9`` and the source line with a caret, if known; ``loc``
    is ``(file, line, col, ...)``."""
    if not loc or loc[1] <= 0:
        return ""
    file, line, col = loc[:3]
    text = f'\n  File "{file}", line {line}, column {col}'
    src = linecache.getline(file, line).rstrip()
    if src:
        stripped = src.lstrip()
        caret = max(col - 1 - (len(src) - len(stripped)), 0)
        text += f"\n    {stripped}\n    {' ' * caret}^"
    return text


def _input_converter(spec, fname: str, pname: str, written: bool = False):
    """A closure: argument -> ctypes value (checked and converted once per call); errors
    name parameter ``pname`` of ``fname``. For a ``written`` array the descriptor's
    ``_caller`` is the argument when the call runs on a copy of it (to copy back), else
    None."""
    if isinstance(spec, ScalarSpec):
        return _scalar_converter(spec, fname, pname)
    dtype, shape, rank = spec.dtype, spec.shape, len(spec.shape)
    static = [(k, d) for k, d in enumerate(shape) if d is not None]
    itemsize = dtype.itemsize
    desc_t = descriptor_type(rank)

    def mismatch(a):
        return argument_error(fname, pname, str(spec), value_text(a))

    def convert(a):
        if type(a) is memoryview:   # NumPy's view of the buffer: the same checks, writes go in
            a = np.asarray(a)
        if not isinstance(a, np.ndarray) or a.dtype != dtype or a.ndim != rank:
            raise mismatch(a)
        if type(a) is not np.ndarray:
            raise TypeError(f"{fname}() argument {pname!r}: {subclass_error(a)}")
        dims = a.shape
        for k, d in static:
            if dims[k] != d:
                raise mismatch(a)
        caller = a
        if written and not a.flags.writeable:
            raise ValueError(READ_ONLY)
        if spec.contiguous and not a.flags.c_contiguous:
            a = np.ascontiguousarray(a)
        elif not a.flags.aligned:   # a stride or the address is not a multiple of itemsize
            a = a.copy()
        try:   # fast path for writable C-contiguous arrays (one buffer export)
            ptr = ctypes.addressof(_Byte.from_buffer(a))
        except (TypeError, ValueError, BufferError):
            ptr = a.ctypes.data
        d = desc_t()
        d[:] = (ptr, ptr, 0, *dims, *[s // itemsize for s in a.strides])
        d._array = a   # keeps a copy alive through the call
        if written:
            d._caller = None if a is caller else caller
        return d

    return convert


def _scalar_converter(spec: ScalarSpec, fname: str, pname: str):
    dtype = spec.dtype
    kind = dtype.kind
    accepted = {"b": (bool, np.bool_),
                "i": (int, np.integer, np.bool_), "u": (int, np.integer, np.bool_),
                "f": (int, float, np.integer, np.floating, np.bool_),
                "c": (int, float, complex, np.number, np.bool_)}[kind]
    make = dtype.type
    ctype = _CTYPE[dtype]

    def convert(v):
        if type(v) is memoryview:
            v = np.asarray(v)
        if isinstance(v, np.ndarray) and v.ndim == 0:
            v = v[()]
        if not isinstance(v, accepted):
            raise argument_error(fname, pname, scalar_text(dtype), value_text(v))
        try:
            if kind == "c":   # passed by pointer to its (re, im) pair
                z = make(v)
                return ctype(z.real, z.imag)
            if dtype == _HALF:
                return ctype(int(np.array(make(v)).view(np.uint16)))
            return ctype(int(bool(v)) if kind == "b" else make(v))
        except OverflowError as e:   # NumPy's message names the value and dtype only
            raise OverflowError(f"{fname}() argument {pname!r}: {e}") from None

    return convert


def _half_of_bits(bits: int) -> np.float16:
    return np.array(bits, np.uint16).view(np.float16)[()]


def _result_maker(spec):
    """A closure making the per-call result slot and a function slot -> Python value."""
    if isinstance(spec, ScalarSpec):
        slot_t = _CTYPE[spec.dtype] * 1   # an array: passed as a pointer
        to_py = {"int": int, "float": float, "complex": complex, "bool": bool,
                 None: spec.dtype.type}[spec.python]
        if spec.dtype.kind == "b" and spec.python is None:
            to_py = np.bool_
        if spec.dtype == _HALF:
            to_py = _half_of_bits

        def scalar_value(slot, seen):
            return to_py(slot[0])

        def complex_value(slot, seen):
            return to_py(complex(slot[0][0], slot[0][1]))

        if spec.dtype.kind == "c":
            return lambda: (slot_t(), complex_value)

        return lambda: (slot_t(), scalar_value)
    dtype, rank = spec.dtype, len(spec.shape)
    desc_t = descriptor_type(rank)
    itemsize = dtype.itemsize
    typestr = dtype.str

    def array_value(d, seen):
        allocated = d[0]
        if allocated in seen:   # the same buffer returned twice: the same array, as in Python
            return seen[allocated]
        sizes = tuple(d[3:3 + rank])
        strides = tuple(s * itemsize for s in d[3 + rank:3 + 2 * rank])
        owner = _Buffer({"data": (d[1], False), "shape": sizes, "strides": strides,
                         "typestr": typestr, "version": 3}, allocated)
        arr = seen[allocated] = np.asarray(owner)
        return arr

    return lambda: (desc_t(), array_value)


def written_alias(args, pairs) -> tuple | None:
    """The first ``(written, other)`` of ``pairs`` (argument positions) whose arrays in
    ``args`` may share memory, or None: compiled code may read ``other`` after writing
    ``written``, so such a call cannot run natively."""
    for w, k in pairs:
        if len(args) > max(w, k) and np.may_share_memory(args[w], args[k]):
            return w, k
    return None


def read_only_argument(args, written) -> int | None:
    """The first position of ``written`` whose argument in ``args`` is a read-only ndarray
    (NumPy raises ValueError on writing into it), or None."""
    for w in written:
        if len(args) > w and type(args[w]) is np.ndarray and not args[w].flags.writeable:
            return w
    return None
