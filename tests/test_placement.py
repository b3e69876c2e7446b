"""Placement of code and data: ``compiler.device``, ``compiler.device_put``,
``runtime.cuda.to_device`` and compiled functions taking device arrays, on the simulated
driver (two GPUs) and without a driver. NumPy is the oracle: data that goes to a device and
back is the data put there, and a function run on device arrays returns what NumPy returns."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler
import runtime.cuda as rc
from runtime.cuda import driver


def axpy(a, b):
    return a * 2.0 + b


@pytest.fixture
def no_driver():
    """The environment without a CUDA driver: NVIDIA's bindings with no driver library (or no
    bindings). Skipped where a GPU is present."""
    driver.select("cuda")
    try:
        if rc.available():
            pytest.skip("a GPU is present")
        yield
    finally:
        driver.select(None)


DTYPES = st.sampled_from([np.float32, np.float64, np.int8, np.int64, np.uint16, np.bool_])


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # one machine for all
@given(data=st.data())
def test_round_trip_keeps_dtype_shape_values(two_gpus, data):
    """NaN, inf, -0.0, empty and zero-size dims, negative ints, non-contiguous views."""
    dtype = data.draw(DTYPES)
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))
    x = data.draw(hnp.arrays(dtype, shape))
    if x.ndim and data.draw(st.booleans()):
        x = x[..., ::-1] if data.draw(st.booleans()) else x.T
    dev = compiler.device_put(x, data.draw(st.sampled_from(["cuda", "cuda:0", "cuda:1"])))
    assert hasattr(dev, "__cuda_array_interface__")
    back = compiler.device_put(dev, "cpu")
    assert type(back) is np.ndarray and back.dtype == x.dtype and back.shape == x.shape
    np.testing.assert_array_equal(back, x)
    assert np.array_equal(np.signbit(back), np.signbit(x)) if x.dtype.kind == "f" else True


def test_device_arrays_name_their_device(two_gpus):
    x = np.arange(6.0).reshape(2, 3)
    a = compiler.device_put(x, "cuda:1")
    assert a.device == "cuda:1" and rc.device_of(a) == 1 and "cuda:1" in repr(a)
    assert rc.to_device(x).device == "cuda:0" and rc.to_device(x, "cuda").device == "cuda:0"
    assert compiler.device_put(a, "cuda:1") is a
    b = compiler.device_put(a, "cuda:0")
    assert b.device == "cuda:0" and b.ptr != a.ptr
    np.testing.assert_array_equal(compiler.device_put(b, "cpu"), x)
    with compiler.device("cuda:1"):
        assert compiler.device_put(x).device == "cuda:1"
    assert type(compiler.device_put(x)) is np.ndarray
    assert compiler.device_put(x, "cpu") is x
    assert compiler.device_put([1, 2], compiler.device("cpu")).tolist() == [1, 2]


def test_strided_device_view_reads_back(two_gpus):
    """A view exposing the interface with negative and gapped strides, read to the host."""
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    whole = rc.to_device(x)
    view = rc.DeviceArray(whole.rt, whole.ptr + 5 * 4, (4, 3), np.float32, (6, -2), base=whole)
    np.testing.assert_array_equal(compiler.device_put(view, "cpu"), x[:, 5::-2])


@pytest.mark.parametrize("name", ["gpu", "cuda:x", "cuda:", "cuda:-1", "CUDA:0", "cpu:0", "tpu"])
def test_unknown_device_names(name):
    with pytest.raises(ValueError, match=f"unknown device '{name}'.*'cpu', 'cuda' or 'cuda:N'"):
        compiler.device(name)
    with pytest.raises(ValueError, match="unknown device"):
        compiler.device_put(np.ones(2), name)


def test_device_index_out_of_range_names_the_devices(two_gpus):
    for call in (lambda: compiler.device("cuda:2"), lambda: compiler.device_put(np.ones(2),
                 "cuda:5"), lambda: rc.to_device(np.ones(2), 2), lambda: rc.get(2),
                 lambda: compiler.compile(axpy, "f32[?], f32[?]", target="cuda:2")):
        with pytest.raises(ValueError, match=r"'cuda:\d' does not exist.*has 2 "
                                             r"\(cuda:0, cuda:1\)"):
            call()


def test_bad_device_values_and_dtypes(two_gpus):
    with pytest.raises(TypeError, match="a device is a name"):
        compiler.device_put(np.ones(2), 0.5)
    with pytest.raises(TypeError, match="cannot hold dtype object"):
        compiler.device_put(np.array([None]), "cuda:0")
    with pytest.raises(TypeError, match="cannot hold dtype <U1"):
        rc.to_device(np.array(["a"]))


def test_no_driver_is_a_clear_error(no_driver):
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        compiler.device_put(np.ones(3), "cuda:0")
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        rc.get(0)
    with compiler.device("cuda:3"):          # compiling needs no driver, nor that device
        cf = compiler.compile(axpy, "f32[?], f32[?]")
    assert cf.target == "cuda:3" and ".entry" in cf.ptx
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        cf(np.ones(3, np.float32), np.ones(3, np.float32))


def test_target_keeps_the_device_index(two_gpus):
    with compiler.device("cuda:1") as d:
        assert d.name == compiler.current_device() == "cuda:1"
        assert compiler.compile(axpy, "f32[?], f32[?]").target == "cuda:1"
    with compiler.device("cuda"):
        assert compiler.compile(axpy, "f32[?], f32[?]").target == "cuda:0"
    assert compiler.compile(axpy, "f32[?], f32[?]", target="cuda:1").target == "cuda:1"


def test_compiled_for_a_device_takes_host_and_device_arrays(two_gpus):
    rng = np.random.default_rng(3)
    a, b = rng.random(50, np.float32), rng.random(50, np.float32)
    cf = compiler.compile(axpy, "f32[?], f32[?]", target="cuda:1")
    host = cf(a, b)
    assert type(host) is np.ndarray and host.dtype == axpy(a, b).dtype
    np.testing.assert_allclose(host, axpy(a, b), rtol=1e-6)
    dev = cf(compiler.device_put(a, "cuda:1"), compiler.device_put(b, "cuda:1"))
    assert dev.device == "cuda:1"
    np.testing.assert_allclose(compiler.device_put(dev, "cpu"), axpy(a, b), rtol=1e-6)
    with pytest.raises(ValueError, match=r"argument 'a' is on cuda:0.*compiled for cuda:1.*"
                                         r"device_put\(a, 'cuda:1'\)"):
        cf(compiler.device_put(a, "cuda:0"), b)


def test_function_follows_its_device_arrays(two_gpus):
    """A Function without a target compiles for the device its device arrays are on."""
    f = compiler.function(axpy)
    a = np.linspace(-1, 1, 9)
    for name in ("cuda:1", "cuda:0"):
        got = f(compiler.device_put(a, name), compiler.device_put(a, name))
        assert got.device == name
        np.testing.assert_array_equal(compiler.device_put(got, "cpu"), axpy(a, a))
    assert type(f(a, a)) is np.ndarray
    assert {cf.target for cf in f.concrete_functions()} == {"cpu", "cuda:0", "cuda:1"}
    with pytest.raises(ValueError, match="several devices"):
        f(compiler.device_put(a, "cuda:0"), compiler.device_put(a, "cuda:1"))


def test_cpu_code_refuses_device_arrays(two_gpus):
    a = np.ones(4)
    d = compiler.device_put(a, "cuda:0")
    with pytest.raises(TypeError, match=r"argument 'a' is a device array on cuda:0.*compiled "
                                        r"for 'cpu'.*device_put\(a, 'cpu'\)"):
        compiler.function(axpy, target="cpu")(d, a)
    cf = compiler.compile(axpy, "f64[?], f64[?]")
    with pytest.raises(TypeError, match=r"argument 'a': expected float64\[\?\], got a device "
                                        r"array float64\[4\].*device_put\(x, 'cpu'\)"):
        cf(d, a)
