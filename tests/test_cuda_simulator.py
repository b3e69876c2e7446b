"""The CUDA host path on the simulated driver (``runtime/cuda/simulator.py``): results of
the standard kernels against NumPy, launch shapes, copies, device-array inputs, driver
errors. Kernels compute through their loop-level IR (``compiler/backend/ptx/simulate.py``)."""

import threading

import numpy as np
import pytest
from test_ptx import ew, mm, softmax, total

import compiler
import runtime.cuda as rc
from compiler.backend.ptx import matmul as MM
from runtime.cuda import driver

rng = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def sim():
    driver.select("simulator")
    yield driver.simulator()
    driver.select(None)


def bcast(x, y):
    return x * y[None, :] - x[:, :1]


def largest(a):
    return np.max(a)


def branch(a):
    if np.sum(a) > 0.0:
        b = a * 2.0
    else:
        b = a - 1.0
    return b


def steps(u, n):
    for _ in range(n):
        u = u * 0.5 + np.sum(u) / 100.0
    return u


def scale_tail(a, k):
    a[1:] = a[1:] * k
    return np.max(a)


CASES = [(bcast, "f64[?,?], f64[?]", lambda: (rng.random((9, 13)), rng.random(13))),
         (largest, "f32[?]", lambda: (-1.0 - rng.random(5000, np.float32),)),
         (total, "f32[?]", lambda: (rng.random(3001, np.float32),)),
         (softmax, "f32[?,?]", lambda: (rng.random((4, 1500), np.float32),)),
         (branch, "f64[?]", lambda: (rng.random(500) - 0.2,)),
         (branch, "f64[?]", lambda: (rng.random(500) - 0.8,)),
         (steps, "f64[?], i64", lambda: (rng.random(100), 5))]


@pytest.mark.parametrize("fn,sig,make", CASES, ids=[f"{c[0].__name__}-{i}"
                                                     for i, c in enumerate(CASES)])
def test_results_match_numpy(fn, sig, make, same):
    args = make()
    same(compiler.compile(fn, sig, target="cuda")(*args), fn(*args), rtol=1e-5)


def column_sums(x):
    return x.sum(0), x.T.sum(0)


def test_column_sums_read_strides_on_the_host(same):
    """The order of a float column sum comes from the arguments' strides (grafo.stride,
    evaluated by the host program on device arrays)."""
    x = rng.random((300, 40), np.float32)
    cf = compiler.compile(column_sums, "f32[?,?]", target="cuda")
    for a in (x, np.asfortranarray(x), x[::2, ::-1]):
        same(cf(a), column_sums(a), rtol=1e-5)


def test_grid_stride_launch_is_clamped_and_covers_everything(sim):
    """2 simulated multiprocessors: at most 64 blocks of 256 threads for 20,000 elements."""
    a, b = rng.random(20_000, np.float32), rng.random(20_000, np.float32)
    np.testing.assert_allclose(compiler.compile(ew, "f32[?], f32[?]", target="cuda")(a, b),
                               ew(a, b), rtol=1e-6)
    (launch,) = sim.launches("ew_")
    assert launch[1:3] == ((64, 1, 1), (256, 1, 1))


def test_reduction_launch_writes_one_partial_per_block(sim):
    a = rng.random(3000, np.float32)
    compiler.compile(total, "f32[?]", target="cuda")(a)
    (launch,) = sim.launches("total_")
    assert launch[1:3] == ((12, 1, 1), (256, 1, 1))


def test_matmul_grid_one_block_short_is_caught(monkeypatch):
    a, b = rng.random((20, 7), np.float32), rng.random((7, 33), np.float32)
    cf = compiler.compile(mm, "f32[?,?], f32[?,?]", target="cuda")
    np.testing.assert_allclose(cf(a, b), a @ b, rtol=1e-5)
    grid = MM.grid

    def short(shape):
        (bx, by, bz), threads = grid(shape)
        return (bx - 1, by, bz), threads
    monkeypatch.setattr(MM, "grid", short)
    got = cf(a, b)
    assert np.isnan(got[:, 32]).all()   # never written: the allocation's garbage
    np.testing.assert_allclose(got[:, :32], (a @ b)[:, :32], rtol=1e-5)


def test_device_arrays_are_used_in_place(sim):
    rt = rc.get(0)
    a, b = (rc.to_device(rng.random(700, np.float32), rt) for _ in range(2))
    sim.events.clear()
    out = compiler.compile(ew, "f32[?], f32[?]", target="cuda")(a, b)
    assert sim.copies("HtoD") == []
    assert isinstance(out, rc.DeviceArray)
    (launch,) = sim.launches("ew_")
    assert {a.ptr, b.ptr} <= set(launch[3])   # the kernel got the arrays' own memory
    np.testing.assert_allclose(out.read(), ew(a.read(), b.read()), rtol=1e-6)


def test_numpy_arguments_copy_back_only_when_written(sim):
    a = np.arange(6, dtype=np.float32)
    cf = compiler.compile(scale_tail, "f32[?], f32", target="cuda")
    assert cf(a, np.float32(3.0)) == 15.0
    np.testing.assert_array_equal(a, [0, 3, 6, 9, 12, 15])
    x = np.ones(4, np.float32)
    x.flags.writeable = False   # read only: must not be written back
    compiler.compile(ew, "f32[?], f32[?]", target="cuda")(x, x)


def both_scaled(a, b, k):
    a[:] = a * k
    b[:] = b * k


def test_read_only_written_arguments_raise_before_anything_runs(sim):
    """NumPy's error, with nothing launched or copied back; the ConcreteFunction gets it from
    the Python function (writing ``a`` once before it fails on ``b``, as NumPy does)."""
    cf = compiler.compile(both_scaled, "f32[?], f32[?], f32", target="cuda")
    a, b = np.ones(4, np.float32), np.ones(4, np.float32)
    b.flags.writeable = False
    sim.events.clear()
    with pytest.raises(ValueError, match="^assignment destination is read-only$"):
        cf.compiled.callable(a, b, np.float32(2.0))
    assert sim.launches("") == [] and sim.copies("HtoD") == []
    with pytest.raises(ValueError, match="^assignment destination is read-only$"):
        cf(a, b, np.float32(2.0))
    np.testing.assert_array_equal(a, 2.0)
    np.testing.assert_array_equal(b, 1.0)


def test_arguments_are_checked_like_the_cpu_path():
    cf = compiler.compile(ew, "f32[?], f32[?]", target="cuda")
    a = np.linspace(0.0, 1.0, 10)
    with pytest.raises(TypeError, match=r"ew\(\) argument 'a': expected float32\[\?\], got "
                                        r"float64\[10\]"):
        cf(a, a)
    d = rc.to_device(np.ones((2, 5), np.float32))
    with pytest.raises(TypeError, match=r"got float32\[2, 5\]"):
        cf(d, d)


def test_results_can_be_read_from_another_thread():
    """The context is made current in each calling thread."""
    out = compiler.compile(ew, "f32[?], f32[?]", target="cuda")(
        *(rc.to_device(np.ones(5, np.float32)) for _ in range(2)))
    seen = []
    t = threading.Thread(target=lambda: seen.append(out.read()))
    t.start()
    t.join()
    np.testing.assert_allclose(seen[0], ew(np.ones(5, np.float32), np.ones(5, np.float32)))


def test_driver_errors_name_the_call_and_code():
    rt = rc.get(0)
    with pytest.raises(RuntimeError, match="cuMemcpyHtoDAsync failed.*INVALID_VALUE"):
        rt.copy_in(0x10, np.ones(4))
    d = rc.to_device(np.ones(4), rt)
    with pytest.raises(RuntimeError, match="cuMemcpyDtoHAsync failed.*INVALID_VALUE"):
        rt.copy_out(np.ones(8), d.ptr)
    fn = compiler.compile(ew, "f32[?], f32[?]", target="cuda").compiled.native.functions(rt)
    with pytest.raises(RuntimeError, match="cuLaunchKernel failed.*INVALID_VALUE"):
        rt.launch(fn["ew_k1"], 1, 2048, [], rt.zeros(40))


class Foreign:
    """A device array whose pointer is not device memory."""

    __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "version": 3,
                                "data": (0x1234, False), "strides": None}


def test_kernel_fault_is_sticky_and_described():
    cf = compiler.compile(ew, "f32[?], f32[?]", target="cuda")
    with pytest.raises(RuntimeError, match="ILLEGAL_ADDRESS.*ew_k1.*not inside a live alloc"):
        cf(Foreign(), Foreign())
    with pytest.raises(RuntimeError, match="ILLEGAL_ADDRESS"):
        rc.get(0).malloc(16)


def test_environment_selects_the_simulator(monkeypatch):
    monkeypatch.setenv("GRAFO_CUDA_SIMULATOR", "1")
    driver.select(None)
    assert driver.simulator() is not None and rc.available()
    assert rc.device_arch() == "sm_80"
