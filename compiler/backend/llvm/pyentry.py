"""CPython entry points: a ``METH_FASTCALL | METH_KEYWORDS`` function per compiled function.

``emit_py_entry`` builds ``ptr @"<name>.py"(ptr self, ptr args, i64 nargs, ptr kwnames)``, in
its own LLVM module (JIT only: it embeds this process's addresses, ``runtime.fastcall.LAYOUT``,
and calls the C entry by address, so saved artifacts never contain it). It

1. checks each argument on its object struct: an array must be exactly ``numpy.ndarray`` with
   the canonical descriptor of the expected dtype (native byte order), the rank, the static
   dims, the ALIGNED flag (and C_CONTIGUOUS where the code assumes row-major layout, WRITEABLE
   where it writes the array: the same flag test, so read-only parameters cost nothing); a scalar
   must be a ``float``/``int``/``bool`` (a ``complex`` for complex128) or the NumPy scalar of
   the expected dtype whose value fits; a complex one is passed as a pointer to the object's
   (re, im) pair. Anything else, and keyword arguments, go to ``self`` (the ``runtime.abi``
   ``NativeFunction`` of the same entry), which converts, copies (and copies back) or raises
   the TypeError or NumPy's read-only ValueError; so does a call made while the interrupt
   flag is set (``runtime.interrupt``: a SIGINT that Python handled outside compiled code
   left it set, and the reference path clears it);
2. builds the memref descriptors on the stack and calls the C entry without the GIL;
3. on a non-zero status calls ``runtime.abi.raise_status(self, code, *params)``, which raises;
4. wraps results: a result buffer becomes a NumPy array (``PyArray_NewFromDescr`` on the
   buffer) whose base is a capsule that returns it to the buffer pool (or ``free``s it); a
   buffer returned twice is one array; scalars become NumPy scalars (``PyArray_Scalar``) or
   Python ``float``/``int``/``bool``. If creating an object fails, every object and buffer
   of the call is released and the Python exception (MemoryError) propagates.
"""

from __future__ import annotations

import llvmlite.binding as llvm
from llvmlite import ir

from runtime.abi import ArraySpec, ScalarSpec
from runtime.fastcall import ALIGNED, C_CONTIGUOUS, WRITEABLE, Layout

from ... import types as T
from . import pool
from .target import host_target_machine, new_host_target_machine, triple
from .types import I1, I8, I32, I64, PTR, STATUS, STATUS_PARAMS, abi_param, descriptor, storage

F32, F64 = ir.FloatType(), ir.DoubleType()
VOID = ir.VoidType()
_SIGNATURES = {
    "PyEval_SaveThread": (PTR, []), "PyEval_RestoreThread": (VOID, [PTR]),
    "PyObject_Vectorcall": (PTR, [PTR, PTR, I64, PTR]),
    "PyLong_AsLongLongAndOverflow": (I64, [PTR, PTR]), "PyLong_FromLongLong": (PTR, [I64]),
    "PyLong_FromUnsignedLongLong": (PTR, [I64]), "PyFloat_FromDouble": (PTR, [F64]),
    "PyBool_FromLong": (PTR, [I64]), "PyComplex_FromDoubles": (PTR, [F64, F64]),
    "PyTuple_New": (PTR, [I64]),
    "PyTuple_SetItem": (I32, [PTR, I64, PTR]), "Py_IncRef": (VOID, [PTR]),
    "Py_DecRef": (VOID, [PTR]), "PyCapsule_New": (PTR, [PTR, PTR, PTR]),
    "PyCapsule_GetPointer": (PTR, [PTR, PTR]), "free": (VOID, [PTR]),
    "PyArray_Scalar": (PTR, [PTR, PTR, PTR]),
    "PyArray_NewFromDescr": (PTR, [PTR, PTR, I32, PTR, PTR, PTR, I32, PTR]),
    "PyArray_SetBaseObject": (I32, [PTR, PTR]),
}
_PREFIX = "grafo.py."


_registered: set = set()


def _register(layout: Layout) -> None:
    """Make the JIT resolve ``grafo.py.<name>`` to this process's C functions (once)."""
    if not _registered:
        for name in _SIGNATURES:
            llvm.add_symbol(_PREFIX + name, layout.functions[name])
        _registered.add(True)


def _const_ptr(address: int) -> ir.Constant:
    return ir.Constant(I64, address).inttoptr(PTR)


def _null() -> ir.Constant:
    return ir.Constant(PTR, None)


def _call(b: ir.IRBuilder, name: str, args: list):
    """Call the C function ``name`` of ``_SIGNATURES`` (declared on first use)."""
    ret, params = _SIGNATURES[name]
    full = _PREFIX + name
    m = b.module
    fn = m.globals.get(full) or ir.Function(m, ir.FunctionType(ret, params), full)
    return b.call(fn, args)


def _new_module(name: str) -> ir.Module:
    m = ir.Module(name=name)
    m.triple = triple()
    m.data_layout = str(host_target_machine().target_data)
    return m


class _PyEntry:
    def __init__(self, m: ir.Module, layout: Layout, name: str):
        self.m, self.layout = m, layout
        self.fn = ir.Function(m, ir.FunctionType(PTR, [PTR, PTR, I64, PTR]), name)
        self.self_, self.args, self.nargs, self.kwnames = self.fn.args
        self.entry = ir.IRBuilder(self.fn.append_basic_block("entry"))
        self.fallback = self.fn.append_basic_block("fallback")
        self.start = self.fn.append_basic_block("start")
        self.b = ir.IRBuilder(self.start)
        b = ir.IRBuilder(self.fallback)
        b.ret(self.call("PyObject_Vectorcall", [self.self_, self.args, self.nargs, self.kwnames],
                        b))

    def call(self, name: str, args: list, b=None):
        return _call(b or self.b, name, args)

    def alloca(self, ty: ir.Type) -> ir.Value:
        slot = self.entry.alloca(ty)
        slot.type = PTR
        return slot

    def require(self, ok: ir.Value) -> None:
        """Continue when ``ok`` holds, else hand the call to the reference path."""
        cont = self.fn.append_basic_block("ok")
        self.b.cbranch(ok, cont, self.fallback)
        self.b.position_at_end(cont)

    def load(self, obj, offset: int, ty: ir.Type):
        p = self.b.gep(obj, [ir.Constant(I64, offset)], inbounds=True, source_etype=I8)
        return self.b.load(p, typ=ty)

    def is_(self, v, address: int):
        return self.b.icmp_unsigned("==", v, _const_ptr(address))

    def choose(self, cases: list, ty: ir.Type):
        """The value of the first ``(condition, make value)`` case that holds; none: fallback."""
        merge = self.fn.append_basic_block("merge")
        incoming = []
        for cond, make in cases:
            yes, no = (self.fn.append_basic_block(n) for n in ("case", "next"))
            self.b.cbranch(cond(), yes, no)
            self.b.position_at_end(yes)
            incoming.append((make(), self.b.block))
            self.b.branch(merge)
            self.b.position_at_end(no)
        self.b.branch(self.fallback)
        self.b.position_at_end(merge)
        phi = self.b.phi(ty)
        for v, bb in incoming:
            phi.add_incoming(v, bb)
        return phi

    # -- arguments ------------------------------------------------------------------------
    def array_argument(self, obj, spec: ArraySpec, rank: int, written: bool):
        L, b = self.layout, self.b
        self.require(self.is_(self.load(obj, 8, PTR), L.array_type))
        self.require(self.is_(self.load(obj, L.array_descr, PTR), L.descrs[spec.dtype]))
        self.require(b.icmp_unsigned("==", self.load(obj, L.array_nd, I32),
                                     ir.Constant(I32, rank)))
        need = (ALIGNED | (C_CONTIGUOUS if spec.contiguous else 0)
                | (WRITEABLE if written else 0))
        flags = b.and_(self.load(obj, L.array_flags, I32), ir.Constant(I32, need))
        self.require(b.icmp_unsigned("==", flags, ir.Constant(I32, need)))
        data = self.load(obj, L.array_data, PTR)
        dims = self.load(obj, L.array_dimensions, PTR)
        strides = self.load(obj, L.array_strides, PTR)
        desc_t = descriptor(rank)
        desc = self.alloca(desc_t)
        shift = ir.Constant(I64, spec.dtype.itemsize.bit_length() - 1)
        for k, d in enumerate(spec.shape):
            size = b.load(b.gep(dims, [ir.Constant(I64, k)], source_etype=I64), typ=I64)
            if d is not None:
                self.require(b.icmp_unsigned("==", size, ir.Constant(I64, d)))
            stride = b.load(b.gep(strides, [ir.Constant(I64, k)], source_etype=I64), typ=I64)
            b.store(size, self.field(desc, desc_t, 3, k))
            b.store(b.ashr(stride, shift), self.field(desc, desc_t, 4, k))
        b.store(data, self.field(desc, desc_t, 0))
        b.store(data, self.field(desc, desc_t, 1))
        b.store(ir.Constant(I64, 0), self.field(desc, desc_t, 2))
        return desc

    def field(self, ptr, ty, *idx):
        return self.b.gep(ptr, [ir.Constant(I32, i) for i in (0, *idx)], inbounds=True,
                          source_etype=ty)

    def scalar_argument(self, obj, spec: ScalarSpec, ty: ir.Type):
        L = self.layout
        kind, value_at = spec.dtype.kind, L.scalar_value
        tp = self.load(obj, 8, PTR)
        if kind == "c":
            value = (lambda: self.b.gep(obj, [ir.Constant(I64, value_at)], inbounds=True,
                                        source_etype=I8))
            cases = [(lambda: self.is_(tp, L.scalar_types[spec.dtype]), value)]
            if spec.dtype.itemsize == 16:
                cases.append((lambda: self.is_(tp, L.complex_type), value))
            return self.choose(cases, PTR)
        exact = (lambda: self.is_(tp, L.scalar_types[spec.dtype]),
                 lambda: self.load(obj, value_at, ty))
        if kind == "f" and spec.dtype.itemsize == 2:   # float16 bits: others take ctypes
            return self.choose([exact], ty)
        if kind == "f":
            from_float = (lambda: self.is_(tp, L.float_type),
                          lambda: self.load(obj, value_at, F64) if ty == F64 else
                          self.narrowed(self.load(obj, value_at, F64)))
            return self.choose([exact, from_float], ty)
        if kind == "b":
            return self.choose([(lambda: self.is_(obj, L.true), lambda: ir.Constant(I8, 1)),
                                (lambda: self.is_(obj, L.false), lambda: ir.Constant(I8, 0)),
                                exact], ty)
        return self.choose([exact, (lambda: self.is_(tp, L.int_type),
                                    lambda: self.python_int(obj, spec, ty))], ty)

    def narrowed(self, d):
        """``float(d)`` as f32; values that overflow go to the reference path (NumPy warns)."""
        b = self.b
        f = b.fptrunc(d, F32)

        def infinite(v):
            return b.or_(b.fcmp_ordered("==", v, ir.Constant(v.type, float("inf"))),
                         b.fcmp_ordered("==", v, ir.Constant(v.type, float("-inf"))))

        self.require(b.or_(b.not_(infinite(f)), infinite(d)))
        return f

    def python_int(self, obj, spec: ScalarSpec, ty: ir.IntType):
        """An exact ``int`` that fits the dtype (others: fallback, which raises)."""
        b = self.b
        overflow = self.alloca(I32)
        v = self.call("PyLong_AsLongLongAndOverflow", [obj, overflow])
        fits = b.icmp_unsigned("==", b.load(overflow, typ=I32), ir.Constant(I32, 0))
        bits = ty.width
        if spec.dtype.kind == "u":
            fits = b.and_(fits, b.icmp_signed(">=", v, ir.Constant(I64, 0)))
            if bits < 64:
                fits = b.and_(fits, b.icmp_signed("<", v, ir.Constant(I64, 1 << bits)))
        elif bits < 64:
            lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
            fits = b.and_(fits, b.and_(b.icmp_signed(">=", v, ir.Constant(I64, lo)),
                                       b.icmp_signed("<", v, ir.Constant(I64, hi))))
        self.require(fits)
        return v if bits == 64 else b.trunc(v, ty)


def emit_py_entry(name: str, address: int, ftype: T.FunctionType, ins: list, outs: list,
                  layout: Layout, written=()) -> ir.Module:
    """The LLVM module defining ``ptr @"<name>.py"(self, args, nargs, kwnames)`` for the C
    entry at ``address`` of a loop-level function of type ``ftype`` whose parameters and
    results are described by the ``runtime.abi`` specs ``ins``/``outs``; ``written``: the
    positions of the array parameters the function writes."""
    _register(layout)
    m = _new_module(f"{name}.py")
    e = _PyEntry(m, layout, f"{name}.py")
    b = e.b
    flag = b.load_atomic(_const_ptr(layout.interrupt_flag), "monotonic", 4, typ=I32)
    e.require(b.icmp_unsigned("==", flag, ir.Constant(I32, 0)))
    args = e.fn.append_basic_block("args")
    b.cbranch(b.and_(b.icmp_unsigned("==", e.kwnames, _null()),
                     b.icmp_unsigned("==", e.nargs, ir.Constant(I64, len(ins)))),
              args, e.fallback)
    b.position_at_end(args)
    cargs = []
    for i, (t, spec) in enumerate(zip(ftype.inputs, ins, strict=True)):
        obj = b.load(b.gep(e.args, [ir.Constant(I64, i)], source_etype=PTR), typ=PTR)
        if isinstance(spec, ArraySpec):
            cargs.append(e.array_argument(obj, spec, t.rank, i in written))
        else:
            cargs.append(e.scalar_argument(obj, spec, abi_param(t)))
    slots = [e.alloca(descriptor(t.rank) if isinstance(t, T.MemRefType) else storage(t))
             for t in ftype.results]
    status = e.alloca(STATUS)
    params = [abi_param(t) for t in ftype.inputs] + [PTR] * (len(slots) + 1)
    target = b.inttoptr(ir.Constant(I64, address), ir.FunctionType(I32, params).as_pointer())
    thread = e.call("PyEval_SaveThread", [])
    rc = b.call(target, [*cargs, *slots, status])
    e.call("PyEval_RestoreThread", [thread])
    failed, ok = e.fn.append_basic_block("failed"), e.fn.append_basic_block("wrap")
    b.cbranch(b.icmp_unsigned("!=", rc, ir.Constant(I32, 0)), failed, ok)
    b.position_at_end(failed)
    _raise_status(e, rc, status)
    b.position_at_end(ok)
    _Results(e, ftype.results, outs, slots).emit()
    e.entry.branch(e.start)
    return m


_support: list = []   # the engine of _capsule_destructor, kept for the process's lifetime


def _capsule_destructor(layout: Layout) -> int:
    """Address of ``void grafo.py.free_capsule(PyObject *capsule)``, which gives the buffer a
    result array's base capsule holds to the buffer pool (``pool.py``; it frees what it does
    not keep). It lives in an engine that is never freed: arrays can outlive the module that
    made them."""
    if not _support:
        _register(layout)
        m = _new_module("grafo.py.support")
        fn = ir.Function(m, ir.FunctionType(VOID, [PTR]), "grafo.py.free_capsule")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        give = b.inttoptr(ir.Constant(I64, pool.support().give),
                          ir.FunctionType(VOID, [PTR]).as_pointer())
        b.call(give, [_call(b, "PyCapsule_GetPointer", [fn.args[0], _null()])])
        b.ret_void()
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(str(m)),
                                            new_host_target_machine())
        engine.finalize_object()
        _support.append(engine)
    return _support[0].get_function_address("grafo.py.free_capsule")


def _raise_status(e: _PyEntry, rc, status) -> None:
    """Call ``raise_status(self, code, *params)``; return its result (NULL: it raised)."""
    b = e.b
    words = [b.sext(rc, I64)] + [
        b.load(b.gep(status, [ir.Constant(I32, 0), ir.Constant(I32, 2), ir.Constant(I32, i)],
                     inbounds=True, source_etype=STATUS), typ=I64)
        for i in range(STATUS_PARAMS)]
    ints = [e.call("PyLong_FromLongLong", [w]) for w in words]
    argv = e.alloca(ir.ArrayType(PTR, 1 + len(ints)))
    made = ir.Constant(I1, 1)
    for k, v in enumerate([e.self_, *ints]):
        b.store(v, b.gep(argv, [ir.Constant(I64, 0), ir.Constant(I64, k)],
                         source_etype=ir.ArrayType(PTR, 1 + len(ints))))
        made = b.and_(made, b.icmp_unsigned("!=", v, _null()))
    result = e.alloca(PTR)
    b.store(_null(), result)
    with b.if_then(made):
        b.store(e.call("PyObject_Vectorcall", [_const_ptr(e.layout.functions["raise_status"]),
                                               argv, ir.Constant(I64, 1 + len(ints)), _null()]),
                result)
    for v in ints:
        e.call("Py_DecRef", [v])
    b.ret(b.load(result, typ=PTR))


class _Results:
    """Wraps the result slots into Python objects, releasing everything on failure."""

    def __init__(self, e: _PyEntry, types, specs, slots):
        self.e, self.types, self.specs, self.slots = e, list(types), list(specs), slots
        self.objects = [e.alloca(PTR) for _ in slots]
        self.capsules = [e.alloca(PTR) for _ in slots]
        self.buffers = [e.alloca(PTR) for _ in slots]
        self.cleanup = e.fn.append_basic_block("cleanup")
        self.destructor = _const_ptr(_capsule_destructor(e.layout))

    def emit(self) -> None:
        e, b = self.e, self.e.b
        allocated = {}
        for k, t in enumerate(self.types):
            b.store(_null(), self.objects[k])
            b.store(_null(), self.capsules[k])
            b.store(_null(), self.buffers[k])
            if isinstance(t, T.MemRefType):
                allocated[k] = b.load(self.slots[k], typ=PTR)
                dup = ir.Constant(I1, 0)
                for i in allocated:
                    if i < k:
                        dup = b.or_(dup, b.icmp_unsigned("==", allocated[k], allocated[i]))
                b.store(b.select(dup, _null(), allocated[k]), self.buffers[k])
        for k, (t, spec) in enumerate(zip(self.types, self.specs, strict=True)):
            if isinstance(t, T.MemRefType):
                self._array(k, t, spec, allocated)
            else:
                self._scalar(k, t, spec)
        self._return()
        b.position_at_end(self.cleanup)
        for slots in (self.objects, self.capsules):
            for s in slots:
                e.call("Py_DecRef", [b.load(s, typ=PTR)])
        for s in self.buffers:
            e.call("free", [b.load(s, typ=PTR)])
        b.ret(_null())

    def fail_if_null(self, v) -> None:
        e = self.e
        cont = e.fn.append_basic_block("made")
        e.b.cbranch(e.b.icmp_unsigned("==", v, _null()), self.cleanup, cont)
        e.b.position_at_end(cont)

    def _array(self, k: int, t, spec: ArraySpec, allocated: dict) -> None:
        e, b, L = self.e, self.e.b, self.e.layout
        done, make = e.fn.append_basic_block("array.done"), e.fn.append_basic_block("array.new")
        for i in [i for i in allocated if i < k]:   # the same buffer: the same array
            same, other = e.fn.append_basic_block("array.same"), e.fn.append_basic_block("next")
            b.cbranch(b.icmp_unsigned("==", allocated[k], allocated[i]), same, other)
            b.position_at_end(same)
            obj = b.load(self.objects[i], typ=PTR)
            e.call("Py_IncRef", [obj])
            b.store(obj, self.objects[k])
            b.branch(done)
            b.position_at_end(other)
        b.branch(make)
        b.position_at_end(make)
        desc_t = descriptor(t.rank)
        slot, itemsize = self.slots[k], spec.dtype.itemsize
        capsule = e.call("PyCapsule_New", [allocated[k], _null(), self.destructor])
        self.fail_if_null(capsule)
        b.store(capsule, self.capsules[k])
        b.store(_null(), self.buffers[k])
        aligned = b.load(e.field(slot, desc_t, 1), typ=PTR)
        offset = b.load(e.field(slot, desc_t, 2), typ=I64)
        data = b.gep(aligned, [b.mul(offset, ir.Constant(I64, itemsize))], source_etype=I8)
        strides = e.alloca(ir.ArrayType(I64, max(t.rank, 1)))
        for j in range(t.rank):
            s = b.load(e.field(slot, desc_t, 4, j), typ=I64)
            b.store(b.mul(s, ir.Constant(I64, itemsize)),
                    b.gep(strides, [ir.Constant(I64, 0), ir.Constant(I64, j)],
                          source_etype=ir.ArrayType(I64, max(t.rank, 1))))
        descr = _const_ptr(L.descrs[spec.dtype])
        e.call("Py_IncRef", [descr])   # PyArray_NewFromDescr steals it
        arr = e.call("PyArray_NewFromDescr", [
            _const_ptr(L.array_type), descr, ir.Constant(I32, t.rank), e.field(slot, desc_t, 3),
            strides, data, ir.Constant(I32, WRITEABLE), _null()])
        self.fail_if_null(arr)
        b.store(arr, self.objects[k])
        rc = e.call("PyArray_SetBaseObject", [arr, capsule])
        b.store(_null(), self.capsules[k])   # stolen, also on failure
        cont = e.fn.append_basic_block("based")
        b.cbranch(b.icmp_signed("<", rc, ir.Constant(I32, 0)), self.cleanup, cont)
        b.position_at_end(cont)
        b.branch(done)
        b.position_at_end(done)

    def _scalar(self, k: int, t, spec: ScalarSpec) -> None:
        e, b = self.e, self.e.b
        v = b.load(self.slots[k], typ=storage(t))
        kind = spec.dtype.kind
        if spec.python == "complex":
            obj = e.call("PyComplex_FromDoubles", [b.extract_value(v, 0), b.extract_value(v, 1)])
        elif spec.python == "float":
            obj = e.call("PyFloat_FromDouble", [v if v.type == F64 else b.fpext(v, F64)])
        elif spec.python == "bool":
            obj = e.call("PyBool_FromLong", [b.zext(v, I64)])
        elif spec.python == "int":
            wide = v if v.type == I64 else (b.zext(v, I64) if kind in "ub" else b.sext(v, I64))
            obj = e.call("PyLong_FromUnsignedLongLong" if kind == "u" else
                         "PyLong_FromLongLong", [wide])
        else:
            obj = e.call("PyArray_Scalar", [self.slots[k], _const_ptr(e.layout.descrs[spec.dtype]),
                                            _null()])
        self.fail_if_null(obj)
        b.store(obj, self.objects[k])

    def _return(self) -> None:
        e, b = self.e, self.e.b
        if not self.objects:
            none = _const_ptr(e.layout.none)
            e.call("Py_IncRef", [none])
            b.ret(none)
            return
        if len(self.objects) == 1:
            b.ret(b.load(self.objects[0], typ=PTR))
            return
        tup = e.call("PyTuple_New", [ir.Constant(I64, len(self.objects))])
        self.fail_if_null(tup)
        for k, s in enumerate(self.objects):
            e.call("PyTuple_SetItem", [tup, ir.Constant(I64, k), b.load(s, typ=PTR)])
        b.ret(tup)
