import numpy as np
import pytest

from compiler import SignatureError, TensorSpec
from compiler.signature import parse_signature, type_text


@pytest.mark.parametrize("text, want", [
    ("f32[?,4], i64", [TensorSpec((None, 4), np.float32), TensorSpec(None, np.int64)]),
    ("float32[], bool", [TensorSpec((), np.float32), TensorSpec(None, np.bool_)]),
    ("u8[3]  ,  f64[2, ?, 1]", [TensorSpec((3,), np.uint8), TensorSpec((2, None, 1), "f8")]),
    ("f16[?], float16", [TensorSpec((None,), np.float16), TensorSpec(None, np.float16)]),
    ("", []),
])
def test_parse(text, want):
    assert parse_signature(text) == want


@pytest.mark.parametrize("text, col", [
    ("f32[?,4", 8),      # unclosed bracket: fault at the end
    ("f33[2]", 1),       # unknown dtype at its start
    ("f32[a]", 5),
    ("f32,,i64", 5),
    ("float128[2]", 1),  # long double is not supported
])
def test_errors_point_at_the_fault(text, col):
    with pytest.raises(SignatureError) as e:
        parse_signature(text)
    assert e.value.col == col
    caret_line = str(e.value).splitlines()[-1]
    assert caret_line.index("^") - 2 == col - 1


def test_type_text_round_trip():
    for text in ["f32[?,4]", "i64", "u8[3]", "bool[2,2]", "f64[]"]:
        (spec,) = parse_signature(text)
        assert type_text(spec.to_type()) == text
