"""Python functions, one per construct, that the frontend regression tests compile with
``grafo ir``; each test's RUN line names its function and signature."""

import numpy as np

SCALE = 3.0
TABLE = np.linspace(0.0, 1.0, 128)


def binop(a, b, c):
    return a + b * c


def if_else(x):
    if x > 0.0:
        y = x * 2.0
    else:
        y = -x
    return y


def if_elif(x):
    if x > 1.0:
        return 1.0
    elif x < -1.0:
        return -1.0
    return x


def ternary(x):
    return x if x > 0.0 else 0.0


def for_range(x, n):
    s = x
    for i in range(n):
        s = s + i
    return s


def for_unrolled(x):
    s = x
    for _ in range(3):
        s = s * x
    return s


def while_loop(x):
    while x < 100.0:
        x = x * 2.0
    return x


def break_loop(n):
    total = 0
    for i in range(n):
        if i * i > n:
            break
        total += i
    return total


def continue_loop(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        total += i
    return total


def early_return(x):
    if x < 0.0:
        return 0.0
    return np.sqrt(x)


def aug_assign(a):
    a2 = a * 1.0
    a2 += 1.0
    a2 *= 2.0
    return a2


def tuple_return(a):
    return a + 1.0, a * 2.0


def tuple_swap(a, b):
    a, b = b, a
    return a - b


def chained_compare(x):
    return 0.0 < x < 1.0


def bool_ops(a, b):
    return (a > 0.0) and (b > 0.0)


def _helper(v, k=2.0):
    return v * k


def inline_call(x):
    return _helper(x) + _helper(x, k=3.0)


lambda_fn = lambda x: x * x  # noqa: E731 - the construct under test


def global_constant(x):
    return x * SCALE


def global_table(x):
    return x * TABLE


def sum_axis(a):
    return np.sum(a, axis=1)


def mean_all(a):
    return np.mean(a)


def sort_stable(a):
    return np.sort(a, kind="stable")


def partition_two(a):
    return np.partition(a, [1, -1])


def search_right(a, v):
    return np.searchsorted(a, v, side="right")


def max_keepdims(a):
    return np.max(a, axis=0, keepdims=True)


def matmul_op(a, b):
    return a @ b


def transpose(a):
    return a.T


def reshape(a):
    return a.reshape(-1)


def slicing(a):
    return a[1:, ::2]


def int_index(a, i):
    return a[i]


def index_points(a, i, j):
    return a[i, :, j]


def scatter_points(a, i, j):
    a[i, j] = 1.0


def promotion(a, b):
    return a + b


def weak_scalar(a):
    return a * 2.5


def where(a):
    return np.where(a > 0.0, a, 0.0)


def zeros(a):
    return np.zeros(4) + a


def unary_math(a):
    return np.exp(np.sqrt(a))


def shape_attr(a):
    return a.shape[0]


def astype_call(a):
    return a.astype(np.int32)


def unsupported_try(x):
    try:
        return x
    except ValueError:
        return x


def mse(a, b):
    return np.mean((a - b) ** 2)


def fused(a, b, c):
    return a * b + c


def sum_axis0(a):
    return np.sum(a, axis=0)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def broadcast_add(a, b):
    return a + b


def scale_add(a, b):
    return a * 2.0 + b


def sum_all(a):
    return np.sum(a)


def triad_loop(a, b, c, s):
    for i in range(a.shape[0]):
        a[i] = b[i] + s * c[i]


def clip_loop(a, hi):
    for i in range(a.shape[0]):
        if a[i] > hi:
            a[i] = hi


def early_return_loop(a, t):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0
        if a[i] > t:
            return i
    return -1


def return_array_loop(a, t):
    for i in range(a.shape[0]):
        if a[i] > t:
            return a
    return a


def copy_then_write(a):
    b = np.copy(a)
    b[0] = 5.0
    return b


def power_scalar_exponent(x, p):
    return x ** p


def complex_ops(a, b):
    return a * b + a / b, np.abs(a)


def complex_scalar(a, b):
    return a * b, abs(a), a == b


def optional_stop(a, k):
    return a[:k or None]


def run_time_step(a, s):
    return a[::s]


def zero_d_or_scalar(x):
    if x > 0:
        return x
    return np.zeros_like(x)


def not_a_function():
    return None


CONSTANT = 1


def linalg_solve(a, b):
    return np.linalg.solve(a, b)
