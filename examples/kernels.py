"""Real NumPy kernels and the examples of TensorFlow's "Introduction to graphs and
tf.function" guide, in their NumPy form. Plain Python: the demo and the tests compile them
unchanged and compare the results with NumPy running the same functions."""

import numpy as np

# --- TensorFlow guide examples ------------------------------------------------------------

def a_regular_function(x, y, b):
    x = np.matmul(x, y)
    x = x + b
    return x


def inner_function(x, y, b):
    x = np.matmul(x, y)
    x = x + b
    return x


def outer_function(x):
    y = np.array([[2.0], [3.0]])
    b = np.array(4.0)
    return inner_function(x, y, b)


def simple_relu(x):
    if np.greater(x, 0):
        return x
    else:
        return x * 0


def my_relu(x):
    return np.maximum(0.0, x)


def get_MSE(y_true, y_pred):  # noqa: N802 - the guide's name
    sq_diff = (y_true - y_pred) ** 2
    return np.mean(sq_diff)


def power(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def unused_return(x):
    _ = x[1]  # out of range for a 1-element x: raises eagerly, unused when compiled
    return x


# --- real kernels ---------------------------------------------------------------------------

def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def row_l2_norm(a):
    return np.sqrt(np.sum(a * a, axis=1))


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def laplacian(img):
    lap = (img[1:-1, 2:] + img[1:-1, :-2] + img[2:, 1:-1] + img[:-2, 1:-1]
           - 4.0 * img[1:-1, 1:-1])
    return lap / np.max(np.abs(lap))


def go_fast(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def gemm(alpha, a, b, beta, c):
    return alpha * a @ b + beta * c


def mse(y_true, y_pred):
    d = y_true - y_pred
    return np.mean(d * d)
