"""Tuples and lists of compile-time numbers where NumPy takes an array_like: the value of a
subscript assignment (``x[0] = 0, 0``), ufunc and operator operands, ``np.concatenate``,
``np.where`` ... are NumPy's ``np.asarray`` of the sequence (its dtype discovery: Python
ints int64, floats float64). Operators whose operands are all Python values keep Python's
sequence semantics (concatenation, repetition, comparison). A sequence holding run-time
values is a CompileError at the user's line that says what to do instead."""

import inspect

import numpy as np
import pytest
from differential_harness import run_both

import compiler

MASK = (1, 0, 1)
ROWS = [[1.5, 2], [3, 4]]
BIG = tuple(range(300))


# subscript assignment ----------------------------------------------------------------------

def set_row_tuple(force):
    force[0] = 0, 0
    return force


def set_row_parenthesized(force):
    force[1] = (0, -1.5)
    return force


def set_row_list(force):
    force[2] = [7, 8]
    force[:, 1] = [True, False, True]
    return force


def set_block_nested(x):
    x[1:] = [[1], [2]]          # (2, 1) broadcast over the (2, 2) region
    x[0] = [[5, 6]][0]
    return x


def set_global_rows(x):
    x[:2] = ROWS
    return x


def set_floats_into_ints(x):
    x[0] = (1.5, 2.7)
    x[1] = (-0.5, True)
    return x


def set_nan_into_ints(x):
    x[0] = (1.5, np.nan)
    return x


def set_out_of_range(x):
    x[0] = (1, 300)
    return x


def set_too_many_dims(x):
    x[1] = [[5, 6]]
    return x


def set_sequence_into_element(x):
    x[1, 0] = (5,)
    return x


def set_empty_tuple(x):
    x[1] = ()
    return x


def set_nan_not_reached(x, flag):
    if flag:
        x[0] = (np.nan, 1)
    return x


def set_through_index_array(x):
    x[np.array([0, 2])] = [[1, 2]]
    x[x[:, 0] > 100] = [[7, 8]]
    return x


def add_in_place(x):
    x += (1, 2)


@pytest.mark.parametrize("fn, dtype", [
    (set_row_tuple, np.float64), (set_row_parenthesized, np.float32), (set_row_list, np.int16),
    (set_block_nested, np.float64), (set_global_rows, np.float32),
    (set_floats_into_ints, np.int64), (set_floats_into_ints, np.uint8),
    (set_nan_into_ints, np.int64), (set_out_of_range, np.int8), (set_out_of_range, np.int64),
    (set_too_many_dims, np.float64), (set_sequence_into_element, np.float64),
    (set_empty_tuple, np.float64), (set_through_index_array, np.float64),
    (add_in_place, np.float64), (add_in_place, np.int32),
])
def test_subscript_assignment_of_a_sequence_is_numpys(fn, dtype):
    run_both(fn, (np.ones((3, 2), dtype),))


def test_a_conversion_error_is_raised_where_numpy_raises_it():
    run_both(set_nan_not_reached, (np.ones((3, 2), np.int64), False))
    run_both(set_nan_not_reached, (np.ones((3, 2), np.int64), True))


def set_runtime_items(force, a):
    force[0] = a, 0
    return force


def test_a_sequence_of_runtime_values_is_a_compile_error_at_its_line():
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(set_runtime_items)(np.ones((3, 2)), np.float64(2))
    text = str(info.value)
    line = inspect.getsourcelines(set_runtime_items)[1] + 1
    assert f"{__file__}:{line}:" in text and "force[0] = a, 0" in text
    assert "a tuple of run-time values cannot be used as an array here" in text
    assert "np.zeros/np.full and item assignment" in text


# array_like operands -------------------------------------------------------------------------

def ufunc_of_global_tuple(row):
    return np.bitwise_and(MASK, row), (1, 0, 1) == row, row != [1, 1, 0]


def check_mask(db):
    out = np.zeros(db.shape[0], dtype=bool)
    for idx, line in enumerate(db):
        if (MASK == np.bitwise_and(MASK, line[1:])).all() and line[0]:
            out[idx] = 1
    return out


def grouping(v):
    return np.concatenate(([1], v[1:] - v[:-1]))


def where_branches(x):
    return np.where(x > 1, (10, 20, 30), x), np.where(x > 1, [0.5, 1.5, 2.5], -1)


def dtype_discovery(x):
    # a list is a strong int64/float64 array, not a weak Python scalar
    return x + [1, 2, 3], x * [0.5, 1.0, 2.0], [True, False, True] & (x > 0)


def operators_with_arrays(x):
    return (1, 0, 1) + x, x - [[1], [2]], [2, 3, 4] ** x, x @ (1, 2, 3), (1, 2, 3) - np.int64(1)


def numpy_functions(x):
    return np.sum((1, 2, 3)), np.ndim([[1, 2]]), np.maximum(x, [2, 2, 2]), np.stack([x, MASK])


def arrays_from_constants(x):
    return (np.array([1, 2, 3], dtype=np.int8) + x, np.asarray((1.0, 2.0)),
            np.array(BIG)[x.shape[0]], np.array([[1, 2], [3, 4]], dtype=np.float32))


def big_list_as_int8(x):
    return np.asarray(BIG, dtype=np.int8)[x.shape[0]]


@pytest.mark.parametrize("fn, x", [
    (ufunc_of_global_tuple, np.array([1, 1, 0])),
    (ufunc_of_global_tuple, np.array([1, 1, 0], np.uint8)),
    (check_mask, np.array([[1, 1, 0, 1], [1, 1, 1, 1], [0, 1, 1, 1]], bool)),
    (grouping, np.array([1, 1, 2, 5])),
    (where_branches, np.arange(3)), (where_branches, np.arange(3, dtype=np.float32)),
    (dtype_discovery, np.arange(3, dtype=np.int8)),
    (dtype_discovery, np.arange(3, dtype=np.float32)),
    (operators_with_arrays, np.arange(3, dtype=np.int16)),
    (numpy_functions, np.arange(3.0)),
    (arrays_from_constants, np.arange(3, dtype=np.int16)),
    (big_list_as_int8, np.arange(3)),
])
def test_sequence_operands_are_numpys_asarray(fn, x):
    run_both(fn, (x,))


# Python's sequence semantics ----------------------------------------------------------------

def python_comparisons(x):
    return (1, 2) == (1, 2), [1, 2] == (1, 2), MASK == (1, 0, 1), (1, 2) != 1, (1, 2) < (1, 3)


def python_operators(x):
    return (1, 2) * np.int64(2), (1, 2) + (3,), MASK * 2, len((1, 2) * np.int8(3))


def ordering_with_int(x):
    return (1, 2) < 1


def unary_minus(x):
    return -(1, 2)


def absolute(x):
    return abs([1, -2])


@pytest.mark.parametrize("fn", [python_comparisons, python_operators, ordering_with_int,
                                unary_minus, absolute])
def test_operators_on_python_values_keep_python_semantics(fn):
    run_both(fn, (np.arange(3.0),))


# errors ---------------------------------------------------------------------------------

def runtime_list_operand(x):
    return np.add([x[0], 1, 2], x)


def runtime_array_call(x):
    return np.where(x > 0, [x[0], 1, 2], x)


def runtime_tuple_comparison(x):
    return (x[0], 1) == (1, 1)


def ragged(x):
    return np.add(((1, 2), (3,)), x)


def strings(x):
    return np.add(("a", 1), x)


def append_one(x):
    return [x].append(x)


@pytest.mark.parametrize("fn, message", [
    (runtime_list_operand, "a list of run-time values cannot be used as an array here"),
    (runtime_array_call, "a list of run-time values cannot be used as an array here"),
    (runtime_tuple_comparison, "comparing a tuple or list that holds run-time values"),
    (ragged, "setting an array element with a sequence. The requested array has an "
             "inhomogeneous shape"),
    (strings, "('a', 1) converts to an array of dtype <U21, which is not supported"),
    (append_one, "attribute 'append' of a list of 1 item is not supported"),
])
def test_unsupported_sequences_are_compile_errors_at_their_line(fn, message):
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(fn)(np.arange(3.0))
    text = str(info.value)
    assert message in text
    source = inspect.getsource(fn).splitlines()[-1].strip()
    assert source in text, text
