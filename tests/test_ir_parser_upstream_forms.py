"""The parser reads the forms upstream ``mlir-opt --mlir-print-op-generic`` prints (aliases,
every kind of location, properties with default values, other dialects' attributes, bit-packed
``i1`` hex, ``dense_resource`` blobs) and reports faults in them at their line and column.
These tests need no mlir-opt; tests/test_mlir_compat.py runs the real one."""

import numpy as np
import pytest

from compiler import types as T
from compiler.ir.attributes import DenseAttr, DialectAttr, IntegerAttr
from compiler.ir.core import UNKNOWN_LOC, Location
from compiler.ir.parser import IRParseError, parse
from compiler.ir.printer import print_op
from compiler.ir.verifier import verify


def _module(*lines: str, after: str = "") -> str:
    body = "".join(f"  {line}\n" for line in lines)
    return f'"builtin.module"() ({{\n{body}}}) : () -> ()\n{after}'


def _func(*lines: str, args: str = "%a: f32", after: str = "") -> str:
    inner = [f"^bb0({args}):", *("  " + line for line in lines)]
    return _module('"func.func"() <{function_type = (f32) -> (), sym_name = "f"}> ({',
                   *inner, "}) : () -> ()", after=after)


def _ops(text: str) -> list:
    return list(parse(text).functions()[0].body.ops)


@pytest.mark.parametrize("loc, expected", [
    ('loc("k.py":3:7)', Location("k.py", 3, 7)),
    ("loc(unknown)", UNKNOWN_LOC),
    ('loc("name")', UNKNOWN_LOC),
    ('loc("name"("k.py":4:1))', Location("k.py", 4, 1)),
    ('loc(callsite("callee.py":1:2 at "caller.py":3:4))', Location("callee.py", 1, 2)),
    ('loc(fused[unknown, "k.py":5:6, "k.py":7:8])', Location("k.py", 5, 6)),
    ('loc(fused<"tag">["k.py":5:6])', Location("k.py", 5, 6)),
    ("loc(fused[])", UNKNOWN_LOC),
    ("loc(#loc9)", Location("a.py", 9, 9)),
    ("loc(#loc8)", Location("a.py", 9, 9)),
])
def test_locations_become_the_file_location_they_hold(loc, expected):
    text = _func(f'"func.return"() : () -> () {loc}',
                 after='#loc8 = loc(callsite(#loc9 at unknown))\n#loc9 = loc("a.py":9:9)\n')
    assert _ops(text)[0].loc == expected


def test_block_argument_locations_are_read_and_dropped():
    text = _func('"func.return"() : () -> ()', args='%a: f32 loc("k.py":1:2)')
    module = parse(text)
    verify(module)
    assert '^bb0(%arg0: f32):' in print_op(module)


def test_aliases_of_attributes_types_and_locations_resolve_before_and_after_use():
    text = ("#k = 3 : i64\n!vec = tensor<2xi32>\n" + _module(
        '%0 = "np.constant"() {k = #k, value = dense<[1, 2]> : !vec} : () -> !vec loc(#l)',
        after="#l = loc(\"k.py\":2:3)\n"))
    op = parse(text).body.ops[0]
    assert op.attributes["k"] == IntegerAttr(3, T.i64)
    assert op.results[0].type == T.TensorType((2,), T.i32)
    assert op.loc == Location("k.py", 2, 3)


def test_default_properties_are_dropped_and_others_kept_as_text():
    text = _func(
        '%0 = "arith.addf"(%a, %a) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32',
        '%1 = "arith.mulf"(%0, %0) <{fastmath = #arith.fastmath<nnan,ninf>}> : '
        "(f32, f32) -> f32",
        '%2 = "math.exp"(%1) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32',
        '"func.return"() : () -> ()')
    add, mul, exp, _ = _ops(text)
    assert add.attributes == {} and exp.attributes == {}
    assert mul.attributes == {"fastmath": DialectAttr("#arith.fastmath<nnan,ninf>")}
    assert "{fastmath = #arith.fastmath<nnan,ninf>}" in print_op(parse(text))


def test_a_default_of_one_op_is_not_dropped_from_another():
    text = _func('%0 = "arith.maxsi"(%a, %a) <{overflowFlags = #arith.overflow<none>}> : '
                 "(f32, f32) -> f32", '"func.return"() : () -> ()')
    assert _ops(text)[0].attributes == {"overflowFlags": DialectAttr("#arith.overflow<none>")}


def test_dialect_attribute_bodies_nest_and_hold_strings_and_arrows():
    body = '#my.attr<"a>b", (i32) -> <c<d>>, [1]>'
    text = _module(f'%0 = "np.constant"() {{value = dense<1> : tensor<2xi8>, x = {body}}} : '
                   "() -> tensor<2xi8>")
    assert parse(text).body.ops[0].attributes["x"] == DialectAttr(body)


@pytest.mark.parametrize("hex_text, values", [
    ("0x0D", [True, False, True, True]),
    ("0xFF", [True] * 4),
    ("0x00", [False] * 4),
])
def test_i1_hex_is_bit_packed_and_one_full_byte_is_a_splat(hex_text, values):
    text = _module(f'%0 = "np.constant"() {{value = dense<"{hex_text}"> : tensor<4xi1>}} : '
                   "() -> tensor<4xi1>")
    attr = parse(text).body.ops[0].attributes["value"]
    assert attr.value.dtype == np.bool_ and attr.value.tolist() == values


def test_i1_hex_of_many_elements_reads_the_lowest_bit_first():
    values = np.arange(21) % 3 == 0
    data = np.packbits(values, bitorder="little").tobytes().hex().upper()
    text = _module(f'%0 = "np.constant"() {{value = dense<"0x{data}"> : tensor<3x7xi1>}} : '
                   "() -> tensor<3x7xi1>")
    attr = parse(text).body.ops[0].attributes["value"]
    assert attr.value.tolist() == values.reshape(3, 7).tolist()


def test_dense_resource_reads_its_blob_after_the_alignment_word():
    blob = "0x08000000" + np.array([-1, 2], dtype="<i8").tobytes().hex()
    text = _module('%0 = "np.constant"() {value = dense_resource<w> : tensor<2xi64>} : '
                   "() -> tensor<2xi64>",
                   after=f'{{-#\n  dialect_resources: {{\n    builtin: {{\n      w: "{blob}"'
                         f"\n    }}\n  }}\n#-}}\n")
    attr = parse(text).body.ops[0].attributes["value"]
    assert isinstance(attr, DenseAttr) and attr.value.tolist() == [-1, 2]
    assert "dense<[-1, 2]> : tensor<2xi64>" in print_op(parse(text))


def _bad(line: str, after: str = "", before: str = "") -> str:
    return before + '"builtin.module"() ({\n' + line + "\n}) : () -> ()\n" + after


_CONST = '%0 = "np.constant"() {value = dense<1> : tensor<2xi8>, k = #a} : () -> tensor<2xi8>'
_RES = '%0 = "np.constant"() {value = dense_resource<b> : tensor<2xi8>} : () -> tensor<2xi8>'

MALFORMED = [
    # (text, line, col, words in the message)
    (_bad(_CONST), 2, 60, "use of undefined alias #a"),
    (_bad(_CONST, before="#a = #b\n#b = #a\n"), 2, 6, "alias #a is defined in terms of itself"),
    (_bad(_CONST, before="#a = loc(unknown)\n"), 3, 60, "alias #a is a location, not an "
                                                        "attribute"),
    (_bad('"func.return"() : () -> () loc(#a)', before="#a = 1 : i64\n"), 3, 32,
     "alias #a is an attribute, not a location"),
    (_bad(_CONST, before="#a = 1 : i64\n#a = 2 : i64\n"), 2, 1, "alias #a is defined twice"),
    (_bad(_RES), 2, 46, "no blob 'b' in the file's dialect_resources"),
    (_bad(_RES, after='{-# dialect_resources: {builtin: {b: "0x0100000001"}} #-}'), 4, 38,
     "resource 'b' needs a hex blob of 4 + 2 bytes for tensor<2xi8>"),
    (_bad(_RES, after='{-# dialect_resources: {builtin: {b: "1", b: "2"}} #-}'), 4, 43,
     "resource 'b' is defined twice"),
    (_bad(_RES.replace("<b>", "<__elided__>")), 2, 46, "were elided"),
    (_bad("%0 = arith.constant 1 : i32"), 2, 6,
     "grafo reads MLIR's generic operation form: print it with 'mlir-opt "
     "--mlir-print-op-generic'"),
    ("module {\n}\n", 1, 1, "grafo reads MLIR's generic operation form"),
]


@pytest.mark.parametrize("text, line, col, words", MALFORMED)
def test_malformed_upstream_forms_report_line_and_column(text, line, col, words):
    with pytest.raises(IRParseError) as info:
        parse(text, "bad.mlir")
    e = info.value
    assert words in str(e)
    assert (e.line, e.col) == (line, col), str(e)


def test_a_bad_attribute_value_gets_no_custom_form_hint():
    with pytest.raises(IRParseError) as info:
        parse(_bad('%0 = "np.constant"() {value = foo} : () -> f32'))
    assert "generic operation form" not in str(info.value)
