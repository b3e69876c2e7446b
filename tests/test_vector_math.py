"""Inline vectorized exp, expm1, log and tanh (``backend/llvm/vecmath.py``): accuracy in ULP
against correctly rounded references and NumPy, NumPy's special values, and vectorization."""

import numpy as np
import pytest
from codegen_targets import targets, vector_type, widest_vector
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler
from compiler.backend.llvm.vecmath import ULP_BOUND

TARGETS = targets()


def _exp(x):
    return np.exp(x)


def _expm1(x):
    return np.expm1(x)


def _log(x):
    return np.log(x)


def _tanh(x):
    return np.tanh(x)


FUNCS = {"exp": (_exp, np.exp), "expm1": (_expm1, np.expm1), "log": (_log, np.log),
         "tanh": (_tanh, np.tanh)}
DTYPES = {"f32": np.float32, "f64": np.float64}
RANGES = {"exp": {"f32": (-110, 100), "f64": (-760, 720)}, "expm1": (-50, 100),
          "log": (0, 1e30), "tanh": (-25, 25)}
NUMPY_SLACK = 3  # NumPy's own float32 exp/log/expm1 are up to ~2.6-3.4 ULP off


@pytest.fixture(scope="module")
def compiled():
    return {(n, s): compiler.compile(f, f"{s}[?]") for n, (f, _) in FUNCS.items()
            for s in DTYPES}


def ulps(got, ref, dt):
    """|got - ref| in units of the last place of ``dt`` at ``ref`` (equal values, same-sign
    zeros and NaN pairs count 0)."""
    with np.errstate(all="ignore"):
        ref_r = ref.astype(dt)
        same = (got == ref_r) | (np.isnan(got) & np.isnan(ref_r))
        unit = np.maximum(np.spacing(np.abs(ref_r)).astype(np.longdouble),
                          np.longdouble(np.finfo(dt).smallest_subnormal))
        err = np.abs(got.astype(np.longdouble) - ref.astype(np.longdouble)) / unit
    err[same] = 0
    return err


def grid(name, s):
    dt = DTYPES[s]
    r = RANGES[name]
    lo, hi = r[s] if isinstance(r, dict) else r
    parts = [np.linspace(lo, hi, 200_001), np.linspace(-1, 1, 20_001),
             np.geomspace(1e-30, 1, 10_001), -np.geomspace(1e-30, 1, 10_001)]
    return np.concatenate(parts).astype(dt)


def reference(name, x):
    """Correctly rounded for the test's purposes: float64 NumPy for float32 inputs,
    x87 extended precision (``np.longdouble``) for float64 inputs."""
    fn = FUNCS[name][1]
    wide = np.float64 if x.dtype == np.float32 else np.longdouble
    with np.errstate(all="ignore"):
        return fn(x.astype(wide))


@pytest.mark.parametrize("s", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_ulp_bound_on_dense_grid(compiled, name, s):
    x = grid(name, s)
    with np.errstate(all="ignore"):
        got = compiled[name, s](x)
        numpy = FUNCS[name][1](x)
    assert got.dtype == x.dtype
    err = ulps(got, reference(name, x), DTYPES[s])
    assert err.max() <= ULP_BOUND[name, s], (name, s, x[err.argmax()], err.max())
    assert ulps(got, numpy, DTYPES[s]).max() <= ULP_BOUND[name, s] + NUMPY_SLACK


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=1,
                max_size=64), st.sampled_from(sorted(FUNCS)))
def test_ulp_bound_hypothesis_f32(compiled, xs, name):
    x = np.array(xs, dtype=np.float32)
    with np.errstate(all="ignore"):
        got = compiled[name, "f32"](x)
    assert ulps(got, reference(name, x), np.float32).max() <= ULP_BOUND[name, "f32"]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=64),
       st.sampled_from(sorted(FUNCS)))
def test_ulp_bound_hypothesis_f64(compiled, xs, name):
    x = np.array(xs, dtype=np.float64)
    with np.errstate(all="ignore"):
        got = compiled[name, "f64"](x)
    assert ulps(got, reference(name, x), np.float64).max() <= ULP_BOUND[name, "f64"]


SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 710.0, -710.0, 89.0, -89.0, 1e-45, -1e-45,
           5e-324, -5e-324, 1e-310, 88.7229, -103.9, -104.0, -745.1, 709.79, 30.0, -30.0,
           2.0 ** -1022, 1e300, -1e300, -1.0]


@pytest.mark.parametrize("s", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_special_values_match_numpy(compiled, name, s):
    with np.errstate(all="ignore"):
        x = np.array(SPECIAL, dtype=DTYPES[s])
        got, want = compiled[name, s](x), FUNCS[name][1](x)
    inf_zero_nan = np.isinf(want) | (want == 0) | np.isnan(want) | (np.abs(want) == 1)
    np.testing.assert_array_equal(got[inf_zero_nan], want[inf_zero_nan])
    assert (np.signbit(got) == np.signbit(want))[~np.isnan(want)].all()


def test_documented_special_cases(compiled):
    for s, dt in DTYPES.items():
        with np.errstate(all="ignore"):
            assert compiled["exp", s](np.array([710.0], dt))[0] == np.inf
            assert compiled["exp", s](np.array([-np.inf], dt))[0] == 0.0
            assert compiled["log", s](np.array([0.0], dt))[0] == -np.inf
            assert np.isnan(compiled["log", s](np.array([-1.0], dt))[0])
            np.testing.assert_array_equal(compiled["tanh", s](np.array([1e4, -1e4], dt)),
                                          [1.0, -1.0])
            t = compiled["tanh", s](np.array([-0.0], dt))[0]
            assert t == 0.0 and np.signbit(t)


@pytest.mark.parametrize("target", list(TARGETS), ids=list(TARGETS))
def test_exp_loop_is_vectorized(target):
    """exp and tanh loops are vector code at each CPU's own vector width, without libm
    calls."""
    t = TARGETS[target]
    for dt, libm in ((np.float32, "@expf"), (np.float64, "@exp(")):
        ir = compiler.compile(_exp, f"{np.dtype(dt).name}[?]", target=t).llvm_ir
        assert vector_type(t, dt) in ir and libm not in ir
    assert "@tanh" not in compiler.compile(_tanh, "f64[?]", target=t).llvm_ir


def _pow(x, y):
    return x ** y


def test_float32_power_is_within_the_bound_of_a_correctly_rounded_reference():
    """float32 ``x ** y`` against float64 NumPy rounded once (correctly rounded for float32
    but in rare double-rounding cases): bases over many binades, exponents small and large,
    integer and not; results in the normal, subnormal and overflow ranges."""
    rng = np.random.default_rng(9)
    x = np.concatenate([np.geomspace(1e-30, 1e30, 40_000), rng.random(20_000) * 4,
                        -np.geomspace(1e-3, 1e3, 10_000)]).astype(np.float32)
    y = np.concatenate([rng.uniform(-40, 40, 40_000), rng.uniform(-200, 200, 20_000),
                        rng.integers(-60, 60, 10_000)]).astype(np.float32)
    got = compiler.compile(_pow, "f32[?], f32[?]")(x, y)
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.float64), y.astype(np.float64))
    assert ulps(got, ref, np.float32).max() <= ULP_BOUND[("pow", "f32")]


def test_float32_power_special_cases_follow_c99():
    s = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0,
                  -3.0, 2.5, -2.5, 1e-45, 3.4e38], dtype=np.float32)
    x, y = np.repeat(s, len(s)), np.tile(s, len(s))
    got = compiler.compile(_pow, "f32[?], f32[?]")(x, y)
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok], want[ok])
    assert np.array_equal(np.signbit(got[ok]), np.signbit(want[ok]))


@pytest.mark.parametrize("target", list(TARGETS), ids=list(TARGETS))
def test_float32_power_loop_is_vectorized(target):
    t = TARGETS[target]
    ir = compiler.compile(_pow, "f32[4096], f32[4096]", target=t).llvm_ir
    # computed in double lanes, so LLVM sizes the vectors by its cost model, not the width
    assert widest_vector(ir) >= 256
    assert "powf" not in ir
