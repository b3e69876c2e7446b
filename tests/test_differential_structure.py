"""Return values with structure and state the compiled code must rebuild as eager Python
does: nested tuples (``runtime.results`` structure strings, through save/load and pickling),
variables that are None on some paths (``OptionalValue``), and module globals rebound with
``global`` statements (hidden arguments and results, ``frontend/globals.py``), and global
arrays read as constant data (one read-only ``grafo.constant`` buffer each)."""

import pickle
import time

import numpy as np
import pytest
from differential_harness import run_both

import compiler
import runtime
from runtime.results import count, packer, parse

# nested tuples ------------------------------------------------------------------------------


def nested_arrays_and_scalars(x, n):
    return x + 1, (x.sum(), (n, x * 2)), ((n,),)


def nested_with_none(x):
    return (x, None), None, (None,)


def py_int_division(a, b):
    return a // b, divmod(a, b), (divmod(-a, b), a % -b)


def empty_tuple(x):
    return ()


def lists(x):
    return [x[0], x[1]], ([1, 2] + [3], [x * 2]), []


STRUCTURES = [
    (nested_arrays_and_scalars, (np.arange(3.0), np.int64(4))),
    (nested_arrays_and_scalars, (np.arange(3.0), 4)),
    (nested_with_none, (np.arange(2),)),
    (py_int_division, (7, 2)),
    (py_int_division, (np.int64(-7), np.int64(2))),
    (empty_tuple, (np.arange(2),)),
    (lists, (np.arange(3.0),)),
]


@pytest.mark.parametrize("fn,args", STRUCTURES,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(STRUCTURES)])
def test_nested_results_match_eager(fn, args):
    run_both(fn, args)


def test_result_structure_strings():
    assert parse("(_,_,(_,_))") == ["_", "_", ["_", "_"]]
    assert parse("(None,?,())") == [None, "?", []]
    assert count(parse("(_,?,(None,_))")) == 4
    assert packer("(_,(?,None))")((1, True, 2)) == (1, (2, None))
    assert packer("(?,)")((False, 0)) == (None,)
    assert packer("((_,),)")(5) == ((5,),)
    assert packer("[_,(_,[])]")((1, 2)) == [1, (2, [])]
    with pytest.raises(ValueError):
        parse("(_,_")
    with pytest.raises(ValueError):
        parse("[_,_)")


def test_nested_results_survive_save_load_and_pickle(tmp_path):
    x = np.arange(3.0)
    cf = compiler.function(nested_arrays_and_scalars).get_concrete_function(x, np.int64(2))
    want = nested_arrays_and_scalars(x, np.int64(2))
    path = str(tmp_path / "nested.grafo")
    cf.save(path)
    for f in (runtime.load(path), pickle.loads(pickle.dumps(cf))):
        got = f(x, np.int64(2))
        assert got[1][1][0] == want[1][1][0] and isinstance(got[2], tuple)
        np.testing.assert_array_equal(got[1][1][1], want[1][1][1])
    cf = compiler.function(lists).get_concrete_function(x)
    cf.save(path)
    for f in (runtime.load(path), pickle.loads(pickle.dumps(cf))):
        got = f(x)
        assert type(got[0]) is list and type(got[1][0]) is list and got[2] == []


# values that may be None ----------------------------------------------------------------------


def last_positive(x):
    last = None
    for v in x:
        if v > 0:
            last = v
    return last, last is None, last is not None


def last_index(lo, hi):
    total = 0
    last = None
    for v in range(lo, hi):
        total += v
        last = v
    return total, last


def optional_from_branch(x):
    if x > 1.0:
        code = 10
    elif x < -1.0:
        code = 20
    else:
        code = None
    return code == 10, code != 20, code is None, code


def optional_truth(x, n):
    found = None
    k = 0
    while k < n:
        if x[k] < 0:
            found = k
            break
        k += 1
    hit = 1 if found else 0
    return hit, (found if found is not None else -1), not found


def optional_through_call(x, n):
    def first_big(limit):
        best = None
        for i in range(limit):
            if x[i] > 1.5:
                best = x[i]
                break
        return best
    b = first_big(n)
    return b, b is None


OPTIONALS = [
    (last_positive, (np.array([1.0, -2.0, 3.0]),)),
    (last_positive, (np.array([-1.0, -2.0]),)),
    (last_index, (np.int64(3), np.int64(6))),
    (last_index, (np.int64(3), np.int64(3))),
    (last_index, (np.uint64(2552764644), np.uint64(2552764647))),
    (optional_from_branch, (np.float64(2.0),)),
    (optional_from_branch, (np.float64(-2.0),)),
    (optional_from_branch, (np.float64(0.5),)),
    (optional_truth, (np.array([1.0, -1.0, 2.0]), np.int64(3))),
    (optional_truth, (np.array([-1.0, 1.0]), np.int64(2))),
    (optional_truth, (np.array([1.0, 2.0]), np.int64(2))),
    (optional_through_call, (np.array([1.0, 2.0]), np.int64(2))),
    (optional_through_call, (np.array([1.0, 2.0]), np.int64(1))),
]


@pytest.mark.parametrize("fn,args", OPTIONALS,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(OPTIONALS)])
def test_optional_values_match_eager(fn, args):
    run_both(fn, args)


def use_of_none(n):
    last = None
    for i in range(n):
        last = i
    return last + 1


def test_using_none_as_a_value_raises_type_error():
    f = compiler.function(use_of_none)
    assert f(np.int64(3)) == 3
    with pytest.raises(TypeError):
        f(np.int64(0))


# module globals -------------------------------------------------------------------------------

COUNT = 0
GAIN = 1.0
SCALE = np.float32(2.0)
TABLE = np.zeros(3)


def _bump():
    global COUNT
    COUNT += 1


def count_calls(x):
    before = COUNT
    _bump()
    _bump()
    return x * COUNT, before


def gain_until_positive(x, n):
    global GAIN
    for i in range(n):
        if x[i] > 0:
            GAIN = GAIN * 2.0
            return x * GAIN
    GAIN = 0.5
    return x


def rescale(x):
    global SCALE
    SCALE = SCALE * x.sum()
    return SCALE


def _reset():
    global COUNT, GAIN, SCALE
    COUNT, GAIN, SCALE = 0, 1.0, np.float32(2.0)


GLOBALS = [
    (count_calls, (np.array([1.0, 2.0]),)),
    (gain_until_positive, (np.array([-1.0, 2.0]), np.int64(2))),
    (gain_until_positive, (np.array([-1.0, 2.0]), np.int64(1))),
    (rescale, (np.array([1.0, 2.0], dtype=np.float32),)),
]


@pytest.mark.parametrize("fn,args", GLOBALS,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(GLOBALS)])
def test_global_rebinding_matches_eager_over_calls(fn, args):
    _reset()
    want = [fn(*args) for _ in range(3)]
    want_state = (COUNT, GAIN, SCALE)
    _reset()
    compiled = compiler.function(fn)
    got = [compiled(*args) for _ in range(3)]
    assert (COUNT, GAIN, SCALE) == want_state
    assert type(SCALE) is type(want_state[2])
    for g, w in zip(got, want, strict=True):
        if isinstance(w, tuple):
            np.testing.assert_array_equal(g[0], w[0])
            assert g[1] == w[1] and type(g[1]) is type(w[1])
        else:
            np.testing.assert_array_equal(g, w)
            assert type(g) is type(w)
    _reset()


def retype_global(x):
    global COUNT
    COUNT = 0.5
    return x


def rebind_array_global(x):
    global TABLE
    TABLE = x
    return x


@pytest.mark.parametrize("fn,text", [(retype_global, "keep the global's type"),
                                     (rebind_array_global, "Python or NumPy scalars")])
def test_unsupported_global_rebinding_is_a_compile_error(fn, text):
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(fn)(np.arange(2.0))
    assert text in str(info.value)


def test_global_rebinding_survives_save_load(tmp_path):
    _reset()
    x = np.array([1.0, 2.0])
    cf = compiler.function(count_calls).get_concrete_function(x)
    path = str(tmp_path / "globals.grafo")
    cf.save(path)
    f = runtime.load(path)
    got = f(x)
    assert COUNT == 2 and got[1] == 0
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(cf))(x)[0], x * 4)
    assert COUNT == 4
    _reset()


# global arrays: constant data ------------------------------------------------------------------

_rng = np.random.default_rng(3)
WEIGHTS = _rng.random(1000)
MASK = _rng.random(300) > 0.5
GRID = np.arange(600, dtype=np.int32).reshape(20, 30) - 300


def weigh(x):
    return x * WEIGHTS - WEIGHTS[::-1]


def mask_signs(x):
    return np.where(MASK, x, -x), MASK.sum()


def grid_rows(x):
    return (GRID * x).sum(axis=1), GRID.T


def weighted_sum_loop(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += WEIGHTS[i] * x[i]
    return s


def write_a_copy(x):
    t = np.array(WEIGHTS)
    t[:3] = x[:3]
    u = WEIGHTS.copy()
    u += 1
    return t, u, WEIGHTS


CONSTANT_DATA = [
    (weigh, (_rng.random(1000),)), (mask_signs, (_rng.random(300, np.float32),)),
    (grid_rows, (np.arange(30, dtype=np.int64),)), (weighted_sum_loop, (_rng.random(1000),)),
    (write_a_copy, (np.array([7.0, 8.0, 9.0]),)),
]


@pytest.mark.parametrize("fn,args", CONSTANT_DATA,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(CONSTANT_DATA)])
def test_global_arrays_match_eager(fn, args):
    run_both(fn, args)
    assert WEIGHTS[0] != 7.0 and WEIGHTS[4] < 1   # the compiled writes went to copies


def test_a_large_global_array_is_one_constant_and_compiles_fast():
    big = np.random.default_rng(4).random(1_000_000)

    def f(x):
        return x * big

    t0 = time.perf_counter()
    cf = compiler.compile(f, "f64[1000000]")
    seconds = time.perf_counter() - t0
    x = np.random.default_rng(5).random(1_000_000)
    np.testing.assert_array_equal(cf(x), x * big)
    loops = cf.ir_stages["loops"]
    assert loops.count('"grafo.constant"') == 1 and loops.count('"memref.store"') == 1
    assert seconds < 20, seconds   # element by element this took an hour
