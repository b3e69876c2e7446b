"""CPU backend + runtime ABI: run-time errors from grafo.check, buffer ownership and lifetime,
memory stability over many calls, calls between functions, vector code, rule coverage."""

import gc
import os
import re
import threading

import numpy as np
import pytest
from loop_ir import Fn, contiguous, elementwise, strided

from compiler import types as T
from compiler.backend.llvm import compile_module, error_table
from compiler.dialects import arith, func, grafo, memref
from compiler.ir.attributes import SymbolRefAttr
from compiler.ir.core import Location
from compiler.ir.opdef import OPS

INDEX_CAST = OPS["arith.index_cast"]


def gather_module(path):
    """out[i] = x[idx[i]], each index checked: IndexError 'index {0} is out of bounds ...'."""
    loc = Location(str(path), 3, 12)
    f = Fn("gather", [strided((None,), T.f64), strided((None,), T.i64)],
           [contiguous((None,), T.f64)])
    x, idx = f.args
    n, size = f.dim(idx, 0), f.dim(x, 0)
    out = f.alloc(contiguous((None,), T.f64), n)
    tmp = f.alloc(contiguous((None,), T.f64), n)   # a temporary, freed at return
    size_i64 = f.v(INDEX_CAST, size, type=T.i64)
    with f.loop(0, n) as lp:
        i = f.load(idx, lp.induction_var)
        ok = f.v(arith.CmpIOp, i, size_i64, attrs={"predicate": arith.CMPI["ult"]})
        with f.b.at_loc(loc):
            f.op_(grafo.CheckOp, [ok, i, size_i64],
                  {"kind": "IndexError",
                   "message": "index {0} is out of bounds for axis 0 with size {1}"})
        v = f.load(x, f.v(INDEX_CAST, i, type=T.index))
        f.store(v, tmp, lp.induction_var)
        f.store(v, out, lp.induction_var)
        f.yield_()
    return f.ret(out)


@pytest.fixture(scope="module")
def gather(tmp_path_factory):
    src = tmp_path_factory.mktemp("src") / "k.py"
    src.write_text("def f(x, idx):\n    # gather\n    return x[idx]\n")
    return compile_module(gather_module(src)).entry("gather"), src


def test_failing_check_raises_with_message_and_location(gather):
    f, src = gather
    x = np.arange(5.0)
    np.testing.assert_array_equal(f(x, np.array([4, 0, 2])), x[[4, 0, 2]])
    with pytest.raises(IndexError) as info:
        f(x, np.array([1, 7, 2]))
    msg = str(info.value)
    assert msg.startswith("index 7 is out of bounds for axis 0 with size 5")
    assert f'File "{src}", line 3, column 12' in msg
    assert "return x[idx]" in msg
    assert msg.splitlines()[-1] == " " * 4 + " " * 7 + "^"
    with pytest.raises(IndexError, match="index -1 is out"):
        f(x, np.array([-1]))


def test_error_table_lists_checks_in_walk_order(tmp_path):
    m = gather_module(tmp_path / "k.py")
    table = error_table(m)
    assert [(k, msg[:9], loc.line) for k, msg, loc in table] == [("IndexError", "index {0}", 3)]


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_memory_does_not_grow_over_10000_calls(gather):
    f, _ = gather
    x = np.arange(1000.0)
    idx = np.arange(1000)[::-1].copy()
    bad = np.array([0, 5000])
    for _ in range(200):   # warm up allocator and caches
        f(x, idx)
    gc.collect()
    before = rss_bytes()
    for k in range(10_000):
        f(x, idx)
        if k % 10 == 0:
            with pytest.raises(IndexError):
                f(x, bad)
    gc.collect()
    grown = rss_bytes() - before
    # 10,000 leaked calls would hold >= 160 MB (two 8 KB buffers each)
    assert grown < 8 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB"


def test_results_own_their_memory():
    f = compile_module(elementwise("add", T.f64, T.f64, arith.AddFOp)).entry("add")
    a = np.arange(100.0)
    r = f(a, a)
    assert r.base is not None and r.flags.owndata is False and r.flags.writeable
    assert r.ctypes.data % 64 == 0
    view = r[10:20:2]
    del r
    gc.collect()
    junk = [f(a, a) for _ in range(50)]   # reuse freed memory if the buffer had been freed
    np.testing.assert_array_equal(view, 2 * a[10:20:2])
    del junk
    r = f(a, a)
    r[:] = -1
    np.testing.assert_array_equal(r, -np.ones(100))


def two_results_module():
    """(x + y, x + y) returned twice from one buffer, and the sum as a scalar."""
    f = Fn("both", [strided((None,), T.f32)] * 2,
           [contiguous((None,), T.f32), contiguous((None,), T.f32), T.f32])
    x, y = f.args
    n = f.dim(x, 0)
    out = f.alloc(contiguous((None,), T.f32), n)
    with f.loop(0, n, inits=[f.const(0.0, T.f32)]) as lp:
        s = f.v(arith.AddFOp, f.load(x, lp.induction_var), f.load(y, lp.induction_var))
        f.store(s, out, lp.induction_var)
        f.yield_(f.v(arith.AddFOp, lp.body.args[1], s))
    return f.ret(out, out, lp.results[0])


def test_same_buffer_returned_twice_is_one_array():
    f = compile_module(two_results_module()).entry("both")
    a = np.ones(8, np.float32)
    r1, r2, total = f(a, a)
    assert r1 is r2 and type(total) is np.float32 and total == 16.0
    del r1, r2
    gc.collect()


def caller_module():
    """``outer`` calls ``inner`` (which checks n > 0 and allocates its result), twice."""
    inner = Fn("inner", [strided((None,), T.i32)], [contiguous((None,), T.i32), T.i64])
    x, = inner.args
    n = inner.dim(x, 0)
    n64 = inner.v(INDEX_CAST, n, type=T.i64)
    positive = inner.v(arith.CmpIOp, n64, inner.const(0, T.i64),
                       attrs={"predicate": arith.CMPI["sgt"]})
    inner.op_(grafo.CheckOp, [positive, n64], {"kind": "ValueError",
                                               "message": "empty input ({0} elements)"})
    out = inner.alloc(contiguous((None,), T.i32), n)
    with inner.loop(0, n) as lp:
        v = inner.load(x, lp.induction_var)
        inner.store(inner.v(arith.MulIOp, v, v), out, lp.induction_var)
        inner.yield_()
    mod = inner.ret(out, n64)
    outer = Fn("outer", [strided((None,), T.i32)], [contiguous((None,), T.i32)], module=mod)
    x, = outer.args
    sq = outer.op_(func.CallOp, [x], {"callee": SymbolRefAttr("inner")},
                   [contiguous((None,), T.i32), T.i64])
    sq2 = outer.op_(func.CallOp, [sq.results[0]], {"callee": SymbolRefAttr("inner")},
                    [contiguous((None,), T.i32), T.i64])
    outer.op_(memref.DeallocOp, [sq.results[0]])
    return outer.ret(sq2.results[0])


def test_func_call_results_and_error_propagation():
    cm = compile_module(caller_module())
    outer, inner = cm.entry("outer"), cm.entry("inner")
    x = np.arange(-3, 4, dtype=np.int32)
    np.testing.assert_array_equal(outer(x), x ** 4)
    r, n = inner(x[::2])
    np.testing.assert_array_equal(r, x[::2] ** 2)
    assert n == 4
    with pytest.raises(ValueError, match=r"^empty input \(0 elements\)"):
        outer(np.zeros(0, np.int32))
    before = rss_bytes()
    big = np.ones(100_000, np.int32)
    for _ in range(300):
        outer(big)
    assert rss_bytes() - before < 16 * 2**20


def test_entry_symbol_that_shadows_a_libm_function():
    from compiler.dialects import math as m
    mod = elementwise("sinh", T.f64, T.f64, m.SinhOp, n_in=1)
    cm = compile_module(mod)
    assert cm.symbols["sinh"] != "sinh"
    x = np.linspace(-2, 2, 9)
    np.testing.assert_allclose(cm.entry("sinh")(x), np.sinh(x), rtol=1e-15)


def test_contiguous_f32_add_is_vectorized():
    cm = compile_module(elementwise("vadd", T.f32, T.f32, arith.AddFOp))
    assert re.search(r"<(4|8|16) x float>", cm.llvm_ir), "no vector code in the add loop"
    assert re.search(r"\b[xyz]mm\d+\b", cm.asm)


def test_concurrent_calls_are_independent_and_release_the_gil():
    import ctypes
    f = compile_module(elementwise("add", T.f64, T.f64, arith.AddFOp)).entry("add")
    assert not f.__self__._cfunc._flags_ & ctypes._FUNCFLAG_PYTHONAPI   # ctypes drops the GIL
    a = np.arange(2_000_000.0)
    results = {}

    def work(k):
        results[k] = f(a, a * k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        np.testing.assert_array_equal(results[k], a + a * k)


def test_every_loop_level_op_has_a_rule():
    from compiler.backend.llvm import rules
    from compiler.ir.opdef import Op, register_ops

    class Fake(Op):
        name = "arith.fake_op_without_rule"

    register_ops("arith", (Fake,))
    try:
        with pytest.raises(ImportError, match="arith.fake_op_without_rule"):
            rules._check_coverage()
    finally:
        del OPS[Fake.name]
    rules._check_coverage()


def test_rule_tables_are_keyed_by_registered_op_classes():
    from compiler.backend.llvm.rules import RULES
    from compiler.backend.ptx.kernels import OVERRIDES

    for table in (RULES, OVERRIDES):
        assert table and all(OPS[cls.name] is cls for cls in table)


def test_tensor_level_op_is_rejected_with_its_name():
    mod = elementwise("neg", T.f64, T.f64, arith.NegFOp, n_in=1)
    f = mod.functions()[0]
    x = f.body.args[0]
    f.body.insert(0, OPS["np.add"]([x, x], [x.type], {}, 0, Location("k.py", 2, 5)))
    with pytest.raises(NotImplementedError, match="cannot lower 'np.add'"):
        compile_module(mod)
