"""Loops versioned on their bounds checks (``passes/version_loops.py``) and
``boundscheck=False`` (``passes/drop_checks.py``): NumPy and Python run the same functions
eagerly and are the reference for results, the arrays a loop writes, and the IndexError (its
message and the elements written before it)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler

SIG = "f64[?], f64[?], f64[?], f64, i64"


def triad(out, a, b, s, n):
    for i in range(n):
        out[i] = a[i] + s * b[i]


def triad_from(out, a, b, s, lo):
    for i in range(lo, out.shape[0]):
        out[i] = a[i] + s * b[i]


def shifted(out, a, b, s, n):
    for i in range(n):
        out[i] = a[i + 1] - a[i] + s * b[i - 1]


def readme_triad(a, b, c, s):
    for i in range(a.shape[0]):
        a[i] = b[i] + s * c[i]


def _eager(fn, args):
    args = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
    try:
        fn(*args)
    except IndexError as e:
        return args, str(e)
    return args, None


def _compiled(cf, args):
    args = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
    try:
        cf(*args)
    except IndexError as e:
        return args, str(e).splitlines()[0]
    return args, None


def _same(fn, cf, args):
    (want, want_err), (got, got_err) = _eager(fn, args), _compiled(cf, args)
    assert got_err == want_err
    for g, w in zip(got, want, strict=True):
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)


_CF = {}


def _cf(fn, boundscheck=True):
    key = (fn, boundscheck)
    if key not in _CF:
        _CF[key] = compiler.compile(fn, SIG, boundscheck=boundscheck)
    return _CF[key]


def _arrays(sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(k) for k in sizes]


@settings(max_examples=40, deadline=None)
@given(sizes=st.tuples(*[st.integers(0, 40)] * 3), n=st.integers(-3, 45),
       special=st.sampled_from([0.0, np.nan, np.inf, -0.0]))
def test_versioned_triad_matches_eager_in_and_out_of_range(sizes, n, special):
    out, a, b = _arrays(sizes)
    if a.size:
        a[0] = special
    _same(triad, _cf(triad), [out, a, b, np.float64(2.5), np.int64(n)])


@settings(max_examples=40, deadline=None)
@given(sizes=st.tuples(*[st.integers(0, 30)] * 3), lo=st.integers(-35, 35))
def test_negative_start_wraps_on_the_checked_version(sizes, lo):
    out, a, b = _arrays(sizes)
    _same(triad_from, _cf(triad_from), [out, a, b, np.float64(-1.5), np.int64(lo)])


@settings(max_examples=40, deadline=None)
@given(sizes=st.tuples(*[st.integers(0, 30)] * 3), n=st.integers(0, 32))
def test_offset_indices_are_checked_at_their_first_failing_index(sizes, n):
    out, a, b = _arrays(sizes)
    _same(shifted, _cf(shifted), [out, a, b, np.float64(0.5), np.int64(n)])


def test_out_of_range_raises_at_the_first_failing_index():
    out, a, b = np.zeros(100_000), np.ones(100_000), np.ones(99_999)
    got, err = _compiled(_cf(triad), [out, a, b, np.float64(1.0), np.int64(100_000)])
    assert err == "index 99999 is out of bounds for axis 0 with size 99999"
    np.testing.assert_array_equal(got[0][:99_999], 2.0)   # written before the error
    assert got[0][99_999] == 0.0


def test_non_contiguous_views_on_both_versions():
    base = np.arange(60.0)
    out, a, b = np.zeros(40)[::2], base[::3], base[::-3]
    for n in (20, 21):
        _same(triad, _cf(triad), [out, a, b, np.float64(3.0), np.int64(n)])


def test_large_in_range_loop_runs_on_the_threads_like_eager():
    out, a, b = _arrays((300_000, 300_000, 300_000), seed=1)
    _same(triad, _cf(triad), [out, a, b, np.float64(0.25), np.int64(300_000)])


def test_readme_triad_for_dynamic_sizes_is_parallel():
    cf = compiler.compile(readme_triad, "f64[?], f64[?], f64[?], f64")
    loops = cf.ir_stages["loops"]
    assert loops.count('"scf.for"') == 2 and loops.count("grafo.parallel") == 1
    assert loops.count('"grafo.check"') == 3   # all in the fallback version
    assert "grafo.rt.threads" in cf.llvm_ir
    a, b, c = np.zeros(70_000), np.arange(70_000.0), np.ones(70_000)
    cf(a, b, c, np.float64(3.0))
    np.testing.assert_array_equal(a, np.arange(70_000.0) + 3.0)


def test_a_loop_with_another_check_keeps_one_version():
    def checked_div(out, a, n):
        for i in range(n):
            assert a[i] > 0.0
            out[i] = 1.0 / a[i]
    cf = compiler.compile(checked_div, "f64[?], f64[?], i64")
    assert '"scf.if"' not in cf.ir_stages["loops"]


@settings(max_examples=25, deadline=None)
@given(size=st.integers(0, 40), data=st.data())
def test_boundscheck_false_gives_the_checked_results_on_valid_input(size, data):
    n = data.draw(st.integers(0, size))
    out, a, b = _arrays((size, size, size))
    _same(triad, _cf(triad, False), [out, a, b, np.float64(1.25), np.int64(n)])
    lo = data.draw(st.integers(-size, size)) if size else 0   # negative: counts from the end
    _same(triad_from, _cf(triad_from, False), [out, a, b, np.float64(1.25), np.int64(lo)])


def test_boundscheck_false_drops_the_index_checks():
    loops = _cf(triad, False).ir_stages["loops"]
    assert '"grafo.check"' not in loops and "grafo.parallel" in loops
    assert '"grafo.check"' in _cf(triad).ir_stages["loops"]


def test_boundscheck_environment_variable(monkeypatch):
    monkeypatch.setenv("GRAFO_BOUNDSCHECK", "0")
    f = compiler.function(triad)
    out, a, b = _arrays((10, 10, 10))
    f(out, a, b, np.float64(2.0), np.int64(10))
    np.testing.assert_array_equal(out, a + 2.0 * b)
    assert '"grafo.check"' not in f.get_concrete_function(
        out, a, b, np.float64(2.0), np.int64(10)).ir_stages["loops"]
    assert '"grafo.check"' in compiler.compile(triad, SIG, boundscheck=True).ir_stages["loops"]


def test_boundscheck_must_be_a_bool():
    with pytest.raises(TypeError, match="boundscheck must be True or False"):
        compiler.compile(triad, SIG, boundscheck="no")
    with pytest.raises(TypeError, match="boundscheck must be True or False"):
        compiler.function(triad, boundscheck=0)
