"""Task groups (compiler/passes/task_groups.py): independent loops of one function run as
parallel tasks. Each function runs eagerly (CPython + NumPy) and compiled (differential_harness):
same results, errors, printed text and written inputs; the loop IR shows whether a group
formed; on 2 threads the results are bit-identical to the 1-thread run."""

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

BIG = 40_000   # above the backend's threading threshold for these loops


def crc_and_recurrence(data, xs):
    crc = np.uint32(0xFFFFFFFF)
    for i in range(data.shape[0]):
        crc = crc ^ np.uint32(data[i])
        for _ in range(8):
            low = crc & np.uint32(1)
            crc = (crc >> np.uint32(1)) ^ (np.uint32(0xEDB88320) * low)
    acc = np.float64(0.0)
    for i in range(xs.shape[0]):
        acc = 0.5 * acc + xs[i]
    return crc, acc


def two_sums_offset(x, y, k, j):
    s = np.float64(0.0)
    for i in range(x.shape[0]):
        s += x[i + k]
    t = np.float64(0.0)
    for i in range(y.shape[0]):
        t += y[i + j]
    return s, t


def scale_in_place(x, y):
    for i in range(1, x.shape[0]):   # a recurrence: serial, not a parallel loop by itself
        x[i] = x[i - 1] * 0.5 + x[i]
    t = np.float64(0.0)
    for i in range(y.shape[0]):
        t = t * 0.25 + y[i]
    return t


def views_of_one(x, y):
    for i in range(y.shape[0]):
        x[2 * i] = y[i]
    for i in range(y.shape[0]):
        x[2 * i + 1] = -y[i]
    return x.sum()


def check_then_write(x, y, k):
    s = np.float64(0.0)
    for i in range(y.shape[0]):
        s += y[i + k]
    for i in range(x.shape[0]):
        x[i] = s
    return s


def printed_between(x, y):
    s = np.float64(0.0)
    for i in range(x.shape[0]):
        s += x[i]
    print("first", s)
    t = np.float64(0.0)
    for i in range(y.shape[0]):
        t += y[i]
    print("second", t)
    return s + t


def products(a, b, c, d):
    return (a @ a).sum() + (b @ b).sum() + (c @ c).sum() + (d @ d).sum()


def chained(x):
    s = np.float64(0.0)
    for i in range(x.shape[0]):
        s = s * 0.5 + x[i]
    t = s
    for i in range(x.shape[0]):
        t = t * 0.5 + x[i]
    return t


def _loops_ir(fn, *args) -> str:
    return compiler.compile(fn, ", ".join(_spec(a) for a in args)).ir_stages["loops"]


def _spec(a) -> str:
    if isinstance(a, np.ndarray):
        return f"{a.dtype}[{','.join('?' * a.ndim)}]"
    return "i64"


def _rng():
    return np.random.default_rng(7)


@pytest.fixture(autouse=True)
def _two_threads():
    before = compiler.get_num_threads()
    compiler.set_num_threads(2)
    yield
    compiler.set_num_threads(before)


@pytest.mark.parametrize("fn, grouped", [
    (crc_and_recurrence, True), (two_sums_offset, True), (scale_in_place, True),
    (views_of_one, False), (check_then_write, False), (printed_between, False),
    (chained, False)])
def test_which_functions_form_task_groups(fn, grouped):
    x = np.zeros(8)
    args = {crc_and_recurrence: (np.zeros(8, np.uint8), x), two_sums_offset: (x, x, 0, 0),
            check_then_write: (x, x, 0), chained: (x,)}.get(fn, (x, x))
    assert ("grafo.tasks" in _loops_ir(fn, *args)) is grouped


def test_products_form_one_group():
    # 40 x 40: below lowering/blas.py's GEMM_MIN_FLOPS, so the generated kernels are tasks
    # (BLAS calls, which thread themselves, are never moved into a task)
    text = compiler.compile(products, "f64[40,40], f64[40,40], f64[40,40], "
                                      "f64[40,40]").ir_stages["loops"]
    assert text.count("grafo.tasks") == 1


@settings(max_examples=15, deadline=None)
@given(n=st.sampled_from([0, 1, 7, BIG]), m=st.sampled_from([0, 3, BIG]),
       fill=st.sampled_from([0.0, -0.0, 1.5, np.nan, np.inf, -np.inf]))
def test_crc_and_recurrence_match_numpy(n, m, fill):
    data = _rng().integers(0, 256, n, dtype=np.uint8)
    xs = _rng().standard_normal(m)
    if m:
        xs[m // 2] = fill
    run_both(crc_and_recurrence, (data, xs), compiled=_crc)


_crc = compiler.function(crc_and_recurrence)


def test_threads_do_not_change_bits():
    data = _rng().integers(0, 256, 3 * BIG, dtype=np.uint8)
    xs = _rng().standard_normal(3 * BIG)
    mats = [_rng().standard_normal((128, 128)) * (k + 1) for k in range(4)]
    f, g = compiler.function(crc_and_recurrence), compiler.function(products)
    two = f(data, xs), g(*mats)
    compiler.set_num_threads(1)
    one = f(data, xs), g(*mats)
    assert two[0][0] == one[0][0] and two[0][1].tobytes() == one[0][1].tobytes()
    assert two[1].tobytes() == one[1].tobytes()
    assert np.isclose(two[1], products(*mats), rtol=1e-12)


@settings(max_examples=12, deadline=None)
@given(k=st.sampled_from([0, 1, 5]), j=st.sampled_from([0, 1, 2]),
       n=st.sampled_from([BIG, BIG + 1]))
def test_first_error_in_program_order(k, j, n):
    """Both loops index past their end when the offsets are positive: the first loop's
    IndexError is the one raised, as in eager Python, whichever task fails first."""
    x, y = _rng().standard_normal(n), _rng().standard_normal(BIG + 3)
    run_both(two_sums_offset, (x, y, np.int64(k), np.int64(j)), compiled=_offset)


_offset = compiler.function(two_sums_offset)


@settings(max_examples=10, deadline=None)
@given(x=hnp.arrays(np.float64, st.sampled_from([0, 5, BIG]),
                    elements=st.floats(allow_nan=True, allow_infinity=True)),
       m=st.sampled_from([0, 4, BIG]))
def test_write_through_argument_next_to_a_task(x, m):
    run_both(scale_in_place, (x, _rng().standard_normal(m)), compiled=_scale)


_scale = compiler.function(scale_in_place)


@pytest.mark.parametrize("k", [0, 1])
def test_no_write_after_an_earlier_error(k):
    x, y = np.zeros(BIG), _rng().standard_normal(BIG)
    run_both(check_then_write, (x, y, np.int64(k)))


def test_views_of_one_argument():
    run_both(views_of_one, (np.zeros(2 * BIG), _rng().standard_normal(BIG)))


def test_non_contiguous_inputs():
    data = _rng().integers(0, 256, 2 * BIG, dtype=np.uint8)[::2]
    xs = _rng().standard_normal(3 * BIG)[::-3]
    run_both(crc_and_recurrence, (data, xs))


def test_prints_keep_program_order():
    run_both(printed_between, (_rng().standard_normal(BIG), _rng().standard_normal(BIG)))


def test_products_match_numpy():
    mats = [_rng().standard_normal((128, 128)) for _ in range(4)]
    run_both(products, tuple(mats), rtol=1e-12)
