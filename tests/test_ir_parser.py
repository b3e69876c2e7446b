"""IR text parser: print -> parse -> print identity on hand-written IR, the objects it builds,
and the errors it reports for malformed text."""

import numpy as np
import pytest

from compiler import types as T
from compiler.ir.attributes import (
    ArrayAttr,
    DenseAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from compiler.ir.core import Location
from compiler.ir.parser import IRParseError, grammar_text, parse
from compiler.ir.printer import print_op
from compiler.ir.verifier import verify


def module(*body: str) -> str:
    """Printer-shaped text of a module holding ``body`` (lines indented one level)."""
    inner = "".join("  " + line + "\n" for text in body for line in text.splitlines())
    return '"builtin.module"() ({\n' + inner + "}) : () -> () loc(unknown)\n"


def func(name: str, sig: str, args: str, *body: str) -> str:
    attrs = f'{{function_type = {sig}, sym_name = "{name}"}}'
    header = [f"^bb0({args}):"] if args else []
    lines = header + ["  " + line for text in body for line in text.splitlines()]
    return "\n".join(['"func.func"() ({', *lines, f"}}) {attrs} : () -> () loc(unknown)"])


ROUND_TRIPS = {
    "empty module": module(),
    "scalar ops and locations": module(func(
        "f", "(f32, f32) -> f32", "%arg0: f32, %arg1: f32",
        '%0 = "arith.addf"(%arg0, %arg1) : (f32, f32) -> f32 loc("k.py":4:9)',
        '%1 = "arith.mulf"(%0, %arg1) : (f32, f32) -> f32 loc("dir with space//\\"q\\".py":12:1)',
        '"func.return"(%1) : (f32) -> () loc(unknown)')),
    "all types": module(func(
        "types",
        "(i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f32, f64, index, !py.int, !py.float, "
        "!py.bool, tensor<?x4xf32>, tensor<f32>, tensor<0x3xui8>, memref<?x4xf32>, "
        "memref<?x4xf32, strided<[?, ?], offset: ?>>, memref<i1, strided<[], offset: ?>>) "
        "-> (f32, i64)",
        "%arg0: i1, %arg1: i8, %arg2: i16, %arg3: i32, %arg4: i64, %arg5: ui8, %arg6: ui16, "
        "%arg7: ui32, %arg8: ui64, %arg9: f32, %arg10: f64, %arg11: index, %arg12: !py.int, "
        "%arg13: !py.float, %arg14: !py.bool, %arg15: tensor<?x4xf32>, %arg16: tensor<f32>, "
        "%arg17: tensor<0x3xui8>, %arg18: memref<?x4xf32>, "
        "%arg19: memref<?x4xf32, strided<[?, ?], offset: ?>>, "
        "%arg20: memref<i1, strided<[], offset: ?>>",
        '"func.return"(%arg9, %arg4) : (f32, i64) -> () loc(unknown)')),
    "function types": module(
        '"np.constant"() {a = () -> (), b = (f32) -> (f32, i64), c = () -> ((f32) -> f32), '
        'd = ((i1) -> none, index) -> tensor<2xf32>} : () -> () loc(unknown)'),
    "scalar attributes": module(
        '"np.constant"() {a = 3 : i64, b = -7 : i8, c = 18446744073709551615 : ui64, '
        'd = true, e = false, f = 5 : index} : () -> () loc(unknown)',
        '"np.constant"() {a = 1.5 : f32, b = 1.0e+20 : f64, c = -0.0 : f64, d = 5.0e-324 : f64, '
        'e = 0x7FF8000000000000 : f64, f = 0xFFF0000000000000 : f64, g = 0x7F800000 : f32, '
        'h = 0.10000000149011612 : f32} : () -> () loc(unknown)'),
    "strings, symbols, arrays, units, types": module(
        '"func.call"() {a = "", b = "tab\\tnl\\n\\"quote\\" back\\\\slash", '
        'c = "\\E2\\82\\AC \\01 \\C3\\A9", callee = @main, d = [], '
        'e = [1 : i64, "s", [true, 2.5 : f64], unit, f32, @g], grafo.parallel, '
        'k = tensor<?xf32>, z} : () -> () loc(unknown)'),
    "keywords as attribute names": module(
        '"np.constant"() {dense, i32 = 1 : i64, index = i1, loc, none = none, '
        'tensor = tensor<1xf32>, true = false, unknown} : () -> () loc(unknown)'),
    "dense attributes": module(
        '"np.constant"() {a = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>, '
        'b = dense<0.5> : tensor<4xf32>, c = dense<[true, false]> : tensor<2xi1>, '
        'd = dense<[0x7FC00000, -0.0, 0x7F800000]> : tensor<3xf32>, e = dense<[]> : '
        'tensor<0xf64>, f = dense<[[], []]> : tensor<2x0xi8>, g = dense<7> : tensor<i64>, '
        'h = dense<[255, 0]> : tensor<2xui8>, i = dense<[-128, 127]> : tensor<2xi8>} '
        ': () -> () loc(unknown)'),
    "multiple results and regions": module(func(
        "g", "(i1, f32) -> f32", "%arg0: i1, %arg1: f32",
        '%0:2 = "scf.if"(%arg0) ({',
        '  %1 = "arith.addf"(%arg1, %arg1) : (f32, f32) -> f32 loc(unknown)',
        '  "scf.yield"(%1, %arg1) : (f32, f32) -> () loc(unknown)',
        '}, {',
        '  "scf.yield"(%arg1, %arg1) : (f32, f32) -> () loc(unknown)',
        '}) : (i1) -> (f32, f32) loc("g.py":2:5)',
        '%2 = "arith.mulf"(%0#0, %0#1) : (f32, f32) -> f32 loc(unknown)',
        '"func.return"(%2) : (f32) -> () loc(unknown)')),
    "loops with block arguments": module(func(
        "h", "(index, f64) -> f64", "%arg0: index, %arg1: f64",
        '%0 = "arith.constant"() {value = 0 : index} : () -> index loc(unknown)',
        '%1 = "arith.constant"() {value = 1 : index} : () -> index loc(unknown)',
        '%2 = "scf.for"(%0, %arg0, %1, %arg1) ({',
        '^bb0(%arg2: index, %arg3: f64):',
        '  %3 = "arith.addf"(%arg3, %arg3) : (f64, f64) -> f64 loc(unknown)',
        '  "scf.yield"(%3) : (f64) -> () loc(unknown)',
        '}) {grafo.parallel} : (index, index, index, f64) -> f64 loc(unknown)',
        '%4 = "scf.while"(%2) ({',
        '^bb0(%arg4: f64):',
        '  %5 = "arith.cmpf"(%arg4, %arg4) {predicate = 4 : i64} : (f64, f64) -> i1 '
        'loc(unknown)',
        '  "scf.condition"(%5, %arg4) : (i1, f64) -> () loc(unknown)',
        '}, {',
        '^bb0(%arg5: f64):',
        '  "scf.yield"(%arg5) : (f64) -> () loc(unknown)',
        '}) : (f64) -> f64 loc(unknown)',
        '"func.return"(%4) : (f64) -> () loc(unknown)')),
    "several blocks": module(
        '"scf.if"(%0) ({',
        '  "scf.yield"() : () -> () loc(unknown)',
        '^bb1:',
        '  "scf.yield"() : () -> () loc(unknown)',
        '^bb2(%arg0: i1):',
        '  "scf.yield"() : () -> () loc(unknown)',
        '}, {',
        '}) : (i1) -> () loc(unknown)').replace(
            '"builtin.module"() ({\n',
            '"builtin.module"() ({\n  %0 = "arith.constant"() {value = true} : () -> i1 '
            'loc(unknown)\n'),
}


@pytest.mark.parametrize("name", list(ROUND_TRIPS))
def test_round_trip(name):
    text = ROUND_TRIPS[name]
    assert print_op(parse(text)) == text


def test_comments_whitespace_and_missing_locations_are_accepted():
    text = ('// RUN: grafo-opt %s\n"builtin.module"()   ({  // the body\n'
            '%0 = "arith.constant"() {value = 1.0 : f32} : () -> f32\n}) : () -> ()')
    op = parse(text)
    assert op.loc == Location()
    assert print_op(op, debug_locs=False) == (
        '"builtin.module"() ({\n  %0 = "arith.constant"() {value = 1.0 : f32} : () -> f32\n'
        '}) : () -> ()\n')


def test_parse_builds_registered_ops_linked_by_uses():
    m = parse(ROUND_TRIPS["multiple results and regions"])
    verify(m)
    f = m.functions()[0]
    assert type(f).__name__ == "FuncOp" and f.sym_name == "g"
    assert f.function_type == T.FunctionType((T.i1, T.f32), (T.f32,))
    if_op, mul, ret = f.body.ops
    assert [r.type for r in if_op.results] == [T.f32, T.f32]
    assert mul.operands == tuple(if_op.results)
    assert if_op.results[1].users() == [mul]
    assert if_op.regions[0].block.ops[0].operands == (f.body.args[1], f.body.args[1])
    assert if_op.loc == Location("g.py", 2, 5)


def test_attribute_objects_equal_what_the_compiler_builds():
    ops = parse(ROUND_TRIPS["scalar attributes"]).body.ops
    a = ops[0].attributes
    assert a["a"] == IntegerAttr(3, T.i64) and a["b"] == IntegerAttr(-7, T.i8)
    assert a["c"] == IntegerAttr(2**64 - 1, T.u64) and a["d"] == IntegerAttr(1, T.i1)
    assert a["f"] == IntegerAttr(5, T.index)
    b = ops[1].attributes
    assert b["a"] == FloatAttr(1.5, T.f32) and b["b"] == FloatAttr(1e20, T.f64)
    assert np.signbit(b["c"].value) and np.isnan(b["e"].value)
    assert b["f"] == FloatAttr(-np.inf, T.f64) and b["g"] == FloatAttr(np.inf, T.f32)
    assert b["h"] == FloatAttr(0.1, T.f32)
    s = parse(ROUND_TRIPS["strings, symbols, arrays, units, types"]).body.ops[0].attributes
    assert s["b"] == StringAttr('tab\tnl\n"quote" back\\slash')
    assert s["c"] == StringAttr("\u20ac \x01 \u00e9")
    assert s["callee"] == SymbolRefAttr("main") and s["z"] == UnitAttr()
    assert s["e"] == ArrayAttr((IntegerAttr(1), StringAttr("s"),
                                ArrayAttr((IntegerAttr(1, T.i1), FloatAttr(2.5))),
                                UnitAttr(), TypeAttr(T.f32), SymbolRefAttr("g")))
    assert s["k"] == TypeAttr(T.TensorType((None,), T.f32))


@pytest.mark.parametrize("key, dtype, values", [
    ("a", np.int32, [[1, 2, 3], [4, 5, 6]]),
    ("b", np.float32, [0.5] * 4),
    ("c", np.bool_, [True, False]),
    ("e", np.float64, []),
    ("g", np.int64, 7),
    ("h", np.uint8, [255, 0]),
])
def test_dense_attributes_hold_read_only_arrays_of_the_element_dtype(key, dtype, values):
    attr = parse(ROUND_TRIPS["dense attributes"]).body.ops[0].attributes[key]
    assert isinstance(attr, DenseAttr) and attr.value.dtype == dtype
    assert not attr.value.flags.writeable
    assert attr == DenseAttr(np.array(values, dtype=dtype), attr.type)


def test_dense_float_bits_are_kept():
    attr = parse(ROUND_TRIPS["dense attributes"]).body.ops[0].attributes["d"]
    assert attr.value.view(np.uint32).tolist() == [0x7FC00000, 0x80000000, 0x7F800000]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.int32, np.int64,
                                   np.uint8, np.uint16])
def test_large_dense_attributes_print_as_hex_and_parse_back(dtype):
    rng = np.random.default_rng(0)
    if np.dtype(dtype).kind == "f":
        a = rng.normal(0, 100, (7, 31)).astype(dtype)
        a[0, :3] = [np.nan, -0.0, np.inf]
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, (7, 31), dtype=dtype, endpoint=True)
    a.flags.writeable = False
    attr = DenseAttr(a, T.TensorType(a.shape, T.from_dtype(a.dtype)))
    assert str(attr) == f'dense<"0x{a.tobytes().hex().upper()}"> : {attr.type}'
    text = module(f'%0 = "np.constant"() {{value = {attr}}} : () -> {attr.type} loc(unknown)')
    parsed = parse(text).body.ops[0].attributes["value"]
    assert parsed == attr and parsed.value.dtype == a.dtype and not parsed.value.flags.writeable
    assert print_op(parse(text)) == text


def test_dense_hex_of_one_element_is_a_splat_and_small_hex_prints_as_a_list():
    op = parse(module('%0 = "np.constant"() {a = dense<"0x0000803F"> : tensor<200xf32>, '
                      'b = dense<"0x0100000002000000"> : tensor<2xi32>} : () -> f32')).body.ops[0]
    assert op.attributes["a"] == DenseAttr(np.ones(200, np.float32), T.TensorType((200,), T.f32))
    assert str(op.attributes["b"]) == "dense<[1, 2]> : tensor<2xi32>"


def test_grammar_loads():
    assert "operation" in grammar_text()


# malformed IR -------------------------------------------------------------------------------

def _wrap(line: str) -> str:
    return '"builtin.module"() ({\n' + line + '\n}) : () -> ()\n'


_C = '%0 = "arith.constant"() {value = 1.0 : f32} : () -> f32'

MALFORMED = [
    # (text, line, col, words in the message)
    (_wrap('%0 = "arith.constant"() {value = 1.0 : f32} () -> f32'), 2, 45,
     "unexpected '('"),
    (_wrap('%0 = "arith.constant"() {value = 1.0 : f32} : () -> f32 $'), 2, 57,
     "unexpected character '$'"),
    ('"builtin.module"() ({\n' + _C, 2, 56, "unexpected end of input"),
    ("", 1, 1, "unexpected end of input"),
    (_wrap('%0 = "np.frobnicate"() : () -> f32'), 2, 6, "unknown operation 'np.frobnicate'"),
    (_wrap('%1 = "arith.addf"(%0, %0) : (f32, f32) -> f32'), 2, 19, "undefined value %0"),
    (_wrap(_C + "\n" + _C), 3, 1, "value %0 is defined twice"),
    (_wrap(_C + '\n%1 = "arith.addf"(%0, %0) : (f32, f64) -> f32'), 3, 23,
     "operand #1 of 'arith.addf' has type f32, but the signature says f64"),
    (_wrap(_C + '\n%1 = "arith.addf"(%0, %0) : (f32) -> f32'), 3, 6,
     "2 operand(s) but its signature lists 1 type(s)"),
    (_wrap(_C + '\n%1:2 = "arith.addf"(%0, %0) : (f32, f32) -> f32'), 3, 1,
     "defines 2 result name(s) but its signature lists 1"),
    (_wrap('"arith.constant"() {value = 1.0 : f32} : () -> f32'), 2, 1,
     "defines 0 result name(s)"),
    (_wrap(_C + '\n%1 = "arith.addf"(%0#1, %0) : (f32, f32) -> f32'), 3, 22,
     "#1 does not exist"),
    (_wrap('%0 = "arith.constant"() {value = 1.0 : f7} : () -> f32'), 2, 40, "unknown type f7"),
    (_wrap('%0 = "arith.constant"() : () -> tensor<4xui1>'), 2, 42, "unknown type ui1"),
    (_wrap('%0 = "arith.constant"() : () -> !py.quaternion'), 2, 33,
     "unknown type !py.quaternion"),
    (_wrap('%0 = "arith.constant"() {value = 2 : f32} : () -> f32'), 2, 34,
     "an integer attribute cannot have type f32"),
    (_wrap('%0 = "arith.constant"() {value = 1.0e+40 : f32} : () -> f32'), 2, 34,
     "out of range for f32"),
    (_wrap('%0 = "arith.constant"() {value = 0x1FF800000 : f32} : () -> f32'), 2, 34,
     "more than 32 bits"),
    (_wrap('%0 = "np.constant"() {value = dense<[1, 2]> : tensor<3xi8>} : () -> f32'), 2, 31,
     "dense literal has shape (2,)"),
    (_wrap('%0 = "np.constant"() {value = dense<[[1], [2, 3]]> : tensor<2x2xi8>} : () -> f32'),
     2, 31, "not rectangular"),
    (_wrap('%0 = "np.constant"() {value = dense<[1, 256]> : tensor<2xui8>} : () -> f32'),
     2, 41, "256 is out of range for ui8"),
    (_wrap('%0 = "np.constant"() {value = dense<1> : tensor<?xi8>} : () -> f32'), 2, 42,
     "static shape"),
    (_wrap('%0 = "np.constant"() {value = dense<1> : tensor<2x!py.int>} : () -> f32'), 2, 42,
     "dense elements of type !py.int are not supported"),
    (_wrap('%0 = "np.constant"() {value = dense<1> : tensor<2xf32>} : () -> f32'), 2, 37,
     "expected a float literal"),
    (_wrap('%0 = "np.constant"() {value = dense<"0x0100"> : tensor<3xi8>} : () -> f32'), 2, 37,
     "hex dense literal needs 3 bytes (or 1 for a splat) for tensor<3xi8>"),
    (_wrap('%0 = "np.constant"() {value = dense<"0x010"> : tensor<3xi8>} : () -> f32'), 2, 37,
     "hex dense literal needs 3 bytes"),
    (_wrap('%0 = "np.constant"() {value = dense<"0x0102"> : tensor<3xi1>} : () -> f32'), 2,
     37, "hex dense literal needs 1 byte(s), one bit per element, for tensor<3xi1>"),
    (_wrap('%0 = "np.constant"() {a = 1 : i64, a = 2 : i64} : () -> f32'), 2, 36,
     "attribute 'a' is given twice"),
    (_wrap('%0 = "arith.constant"() : () -> memref<4xf32, strided<[?, ?], offset: ?>>'), 2, 47,
     "2 stride(s) for a memref of rank 1"),
    (_wrap('"scf.if"(%c) ({\n^bb0(%arg0: i1):\n}, {\n}) : (i1) -> ()'), 2, 10,
     "undefined value %c"),
]


@pytest.mark.parametrize("text, line, col, words", MALFORMED)
def test_malformed_ir_reports_line_and_column(text, line, col, words):
    with pytest.raises(IRParseError) as info:
        parse(text, "bad.mlir")
    e = info.value
    assert (e.line, e.col) == (line, col), str(e)
    assert words in str(e)
    head, *rest = str(e).split("\n")
    assert head.startswith(f"bad.mlir:{line}:{col}: error: ")
    if text.splitlines()[line - 1:line]:
        assert rest == ["    " + text.splitlines()[line - 1], "    " + " " * (col - 1) + "^"]


def test_values_of_a_closed_region_are_not_visible_after_it():
    text = _wrap('"scf.if"(%0) ({\n' + _C + '\n}, {\n}) : (i1) -> ()\n'
                 '%1 = "arith.addf"(%0, %0) : (f32, f32) -> f32').replace(
        "({\n\"scf", '({\n%0 = "arith.constant"() {value = true} : () -> i1\n"scf', 1)
    with pytest.raises(IRParseError, match="value %0 is defined twice"):
        parse(text)
    fixed = text.replace('%0 = "arith.constant"() {value = 1.0', '%9 = "arith.constant"() '
                         '{value = 1.0').replace('"arith.addf"(%0, %0)', '"arith.addf"(%9, %9)')
    with pytest.raises(IRParseError, match="undefined value %9") as info:
        parse(fixed)
    assert info.value.line == 7


def test_a_multi_result_name_needs_a_result_number():
    text = _wrap('%0:2 = "scf.if"(%c) ({\n}, {\n}) : (i1) -> (f32, f32)')
    text = text.replace("({\n%0", '({\n%c = "arith.constant"() {value = true} : () -> i1\n%0')
    text = text.replace("\n}) : () -> ()", '\n"func.return"(%0) : (f32) -> ()\n}) : () -> ()')
    with pytest.raises(IRParseError, match="names 2 results; write %0#0 .. %0#1"):
        parse(text)
