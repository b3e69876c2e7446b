"""A ``memoryview`` argument is taken as ``np.asarray`` of it, by a Function, a
ConcreteFunction and a loaded artifact alike: the same results as the Python function run
on that array (eager NumPy is the oracle), writes go into the memoryview's buffer, and the
argument checks of arrays apply."""

import array

import numpy as np
import pytest

import compiler
import runtime


def add_one(x):
    return x + 1.0


def total(x, s):
    return np.sum(x) * s


def fill(a, b):
    a[:] = b * 2
    return np.sum(b)


def row_sums(m):
    return np.sum(m, axis=1)


def count_true(m):
    return np.sum(m)


@pytest.fixture(scope="module")
def callables(tmp_path_factory):
    """{function: [Function, ConcreteFunction, loaded artifact]} for one signature each."""
    d = tmp_path_factory.mktemp("memoryview")
    out = {}
    for fn, signature in ((add_one, "f64[?]"), (total, "f32[?], f32"), (fill, "i32[?], i32[?]"),
                          (row_sums, "f64[?,?]"), (count_true, "bool[?]")):
        cf = compiler.compile(fn, signature)
        cf.save(d / f"{fn.__name__}.grafo")
        out[fn] = [compiler.function(fn), cf, runtime.load(d / f"{fn.__name__}.grafo")]
    return out


def eager(fn, *args):
    return fn(*[np.asarray(a) if isinstance(a, memoryview) else a for a in args])


def test_results_are_those_of_np_asarray(callables, same):
    base = np.arange(12.0)
    cases = [
        (add_one, [memoryview(base)]),
        (add_one, [memoryview(base[::3])]),                       # strided
        (add_one, [memoryview(array.array("d", [1.5, -2.0, 4.0]))]),
        (total, [memoryview(np.arange(5, dtype=np.float32)), np.float32(2)]),
        (total, [memoryview(np.arange(5, dtype=np.float32)),
                 memoryview(np.array(3, np.float32))]),          # 0-d for a scalar
        (row_sums, [memoryview(base.reshape(3, 4))]),
        (row_sums, [memoryview(bytes(base.tobytes())).cast("d", (4, 3))]),   # read-only
        (count_true, [memoryview(np.array([True, False, True]))]),
    ]
    for fn, args in cases:
        want = eager(fn, *args)
        for f in callables[fn]:
            same(f(*args), want)


def test_writes_go_into_the_buffer(callables):
    b = np.arange(5, dtype=np.int32)
    for f in callables[fill]:
        target = array.array("i", [0] * 5)
        view = np.zeros(5, np.int32)
        assert f(memoryview(target), memoryview(b)) == eager(fill, view, b)
        assert list(target) == list(view) == [0, 2, 4, 6, 8]
        strided = np.zeros(10, np.int32)
        f(memoryview(strided)[::2], b)
        assert list(strided) == [0, 0, 2, 0, 4, 0, 6, 0, 8, 0]


def test_keyword_memoryview_to_a_function(callables, same):
    x = np.arange(4.0)
    same(callables[add_one][0](x=memoryview(x)), add_one(x))


def test_wrong_dtype_or_rank_is_the_arrays_type_error(callables):
    bad = memoryview(np.arange(4, dtype=np.int64))
    for f in callables[add_one][1:]:
        with pytest.raises(TypeError, match=r"argument 'x': expected float64\[\?\], got "
                                             r"int64\[4\]"):
            f(bad)
    with pytest.raises(TypeError, match=r"expected float64\[\?, \?\], got float64\[3\]"):
        callables[row_sums][2](memoryview(np.ones(3)))


def test_aliased_memoryviews_are_seen_as_sharing_memory(callables):
    a = np.arange(5, dtype=np.int32)
    with pytest.raises(ValueError, match="share memory and 'a' is written"):
        callables[fill][2](memoryview(a), memoryview(a))
    with pytest.warns(RuntimeWarning, match="share memory"):
        callables[fill][1](memoryview(a), a)
    assert list(a) == [0, 2, 4, 6, 8]


def test_a_read_only_memoryview_is_not_written(callables):
    src = bytes(20)
    with pytest.raises(ValueError, match="read-only"):
        eager(fill, memoryview(src).cast("i"), np.ones(5, np.int32))
    for f in callables[fill]:
        with pytest.raises(ValueError, match="read-only"):
            f(memoryview(src).cast("i"), np.ones(5, np.int32))
    assert src == bytes(20)
