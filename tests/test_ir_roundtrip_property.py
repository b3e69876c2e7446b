"""Property tests of the IR text form: random modules survive print -> parse -> print
unchanged, and mutated IR text fails only with the parser's or verifier's own errors."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import types as T
from compiler.dialects import arith, builtin, func, math, memref, scf
from compiler.dialects import np as npd
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
from compiler.ir.builder import Builder
from compiler.ir.core import Block, Location, Region
from compiler.ir.parser import IRParseError, parse
from compiler.ir.printer import print_op
from compiler.ir.verifier import VerifyError, verify

SCALARS = [T.i1, T.i8, T.i16, T.i32, T.i64, T.u8, T.u16, T.u32, T.u64, T.f32, T.f64, T.index,
           T.none, T.py_int, T.py_float, T.py_bool]
DENSE_ELEMENTS = [T.i1, T.i8, T.i16, T.i32, T.i64, T.u8, T.u16, T.u32, T.u64, T.f32, T.f64]
OPS = [arith.AddFOp, arith.SubIOp, arith.CmpIOp, arith.ConstantOp, arith.SelectOp,
       math.ExpOp, math.FmaOp, memref.LoadOp, memref.StoreOp, npd.AddOp, npd.WhereOp,
       npd.ReduceOp, npd.ConstantOp, npd.AsTypeOp, func.CallOp]
REGION_OPS = [scf.IfOp, scf.ForOp, scf.WhileOp]

# Text without surrogates (not encodable, so not printable) but with every other kind of
# character: quotes, backslashes, control characters, non-ASCII.
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.]{0,6}", fullmatch=True)
dims = st.lists(st.one_of(st.none(), st.integers(0, 5)), max_size=3).map(tuple)
static_dims = st.lists(st.integers(0, 3), max_size=3).map(tuple)

scalar_types = st.sampled_from(SCALARS)
shaped_types = st.one_of(
    st.builds(T.TensorType, dims, scalar_types),
    st.builds(T.MemRefType, dims, scalar_types, st.booleans()))
types = st.recursive(
    st.one_of(scalar_types, shaped_types),
    lambda inner: st.builds(T.FunctionType, st.lists(inner, max_size=3).map(tuple),
                            st.lists(inner, max_size=3).map(tuple)),
    max_leaves=4)
locations = st.one_of(st.just(Location()),
                      st.builds(Location, texts, st.integers(0, 10**6), st.integers(0, 999)))


def _float(t):
    # Every f32/f64 value, NaNs (payloads included), infinities and -0.0.
    return st.floats(width=32 if t == T.f32 else 64)


def _scalar_value(t):
    if t == T.i1:
        return st.booleans()
    if t in (T.f32, T.f64):
        return _float(t)
    info = np.iinfo(T.to_dtype(t))
    return st.integers(int(info.min), int(info.max))


@st.composite
def integer_attrs(draw):
    t = draw(st.sampled_from([T.i1, T.i8, T.i16, T.i32, T.i64, T.u8, T.u64, T.index]))
    return IntegerAttr(int(draw(_scalar_value(t))), t)


@st.composite
def dense_attrs(draw):
    el = draw(st.sampled_from(DENSE_ELEMENTS))
    shape = draw(static_dims)
    size = int(np.prod(shape))
    if draw(st.booleans()):
        values = [draw(_scalar_value(el))] * size
    else:
        values = draw(st.lists(_scalar_value(el), min_size=size, max_size=size))
    arr = np.array(values, dtype=T.to_dtype(el)).reshape(shape)
    arr.flags.writeable = False
    return DenseAttr(arr, T.TensorType(shape, el))


attributes = st.recursive(
    st.one_of(
        integer_attrs(),
        st.builds(FloatAttr, _float(T.f32), st.just(T.f32)),
        st.builds(FloatAttr, _float(T.f64), st.just(T.f64)),
        st.builds(StringAttr, texts),
        st.builds(TypeAttr, types),
        st.just(UnitAttr()),
        st.builds(SymbolRefAttr, names),
        dense_attrs()),
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: ArrayAttr(tuple(xs))),
    max_leaves=6)
attr_dicts = st.dictionaries(names, attributes, max_size=3)


class _Gen:
    """Draws a module op by op; ``visible`` holds the values in scope at the insertion point."""

    def __init__(self, draw, max_depth: int = 2):
        self.draw = draw
        self.max_depth = max_depth

    def module(self):
        m = builtin.ModuleOp.empty()
        for k in range(self.draw(st.integers(0, 3))):
            ins = self.draw(st.lists(types, max_size=3))
            outs = self.draw(st.lists(types, max_size=2))
            f = func.FuncOp.create(f"f{k}", T.FunctionType(tuple(ins), tuple(outs)),
                                   loc=self.draw(locations))
            f.attributes.update(self.draw(attr_dicts))
            visible = list(f.body.args)  # a function sees only its own arguments
            self.block(f.body, visible, depth=0)
            Builder(f.body).create(func.ReturnOp, self.operands(visible, outs), {}, [])
            m.body.append(f)
        return m

    def operands(self, visible, want_types=None):
        if want_types is not None:
            same = [[v for v in visible if v.type == t] for t in want_types]
            if all(same):
                return [self.draw(st.sampled_from(vs)) for vs in same]
            return []
        if not visible:
            return []
        return self.draw(st.lists(st.sampled_from(visible), max_size=3))

    def block(self, block, visible, depth):
        b = Builder(block)
        for _ in range(self.draw(st.integers(0, 3))):
            if depth < self.max_depth and self.draw(st.integers(0, 3)) == 0:
                op = self.region_op(visible, depth)
            else:
                op = self.draw(st.sampled_from(OPS))(
                    self.operands(visible), self.draw(st.lists(types, max_size=2)),
                    self.draw(attr_dicts), 0, self.draw(locations))
            b.insert(op)
            visible = visible + op.results

    def region_op(self, visible, depth):
        cls = self.draw(st.sampled_from(REGION_OPS))
        regions = []
        for _ in range(self.draw(st.integers(0, 2))):
            region = Region()
            for j in range(self.draw(st.integers(0, 2))):
                entry = region.blocks[0] if region.blocks else None
                if j and not (entry.args or entry.ops):
                    break  # an empty entry block without arguments prints no text of its own
                block = region.add_block(Block(self.draw(st.lists(types, max_size=2))))
                self.block(block, visible + block.args, depth + 1)
            regions.append(region)
        return cls(self.operands(visible), self.draw(st.lists(types, max_size=3)),
                   self.draw(attr_dicts), regions, self.draw(locations))


@st.composite
def modules(draw):
    return _Gen(draw).module()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules())
def test_print_parse_print_is_the_identity(m):
    text = print_op(m)
    again = parse(text, "random.mlir")
    assert print_op(again) == text


# fuzzing -----------------------------------------------------------------------------------

SEEDS = [
    '"builtin.module"() ({\n'
    '  "func.func"() ({\n'
    '  ^bb0(%arg0: tensor<?x4xf32>, %arg1: f32, %arg2: index):\n'
    '    %0 = "np.constant"() {value = dense<[[1.5, 0x7FC00000, -0.0, 2.0]]> : tensor<1x4xf32>}'
    ' : () -> tensor<1x4xf32> loc("k.py":3:7)\n'
    '    %1 = "np.add"(%arg0, %0) : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32> '
    'loc("k.py":4:9)\n'
    '    %2 = "np.reduce"(%1) {axes = [0 : i64, 1 : i64], keepdims = false, kind = "sum"} : '
    '(tensor<?x4xf32>) -> f32 loc("k.py":5:3)\n'
    '    %3 = "np.constant"() {value = 7 : i64} : () -> i64 loc(unknown)\n'
    '    %4 = "np.greater"(%2, %arg1) : (f32, f32) -> i1 loc(unknown)\n'
    '    %5:2 = "scf.if"(%4) ({\n'
    '      "scf.yield"(%2, %3) : (f32, i64) -> () loc(unknown)\n'
    '    }, {\n'
    '      "scf.yield"(%arg1, %3) : (f32, i64) -> () loc(unknown)\n'
    '    }) : (i1) -> (f32, i64) loc("k.py":6:5)\n'
    '    "func.return"(%5#0, %5#1) : (f32, i64) -> () loc(unknown)\n'
    '  }) {function_type = (tensor<?x4xf32>, f32, index) -> (f32, i64), '
    'sym_name = "f"} : () -> () loc(unknown)\n'
    '}) : () -> () loc(unknown)\n',
    '"builtin.module"() ({\n'
    '  "func.func"() ({\n'
    '  ^bb0(%arg0: memref<?xf64, strided<[?], offset: ?>>, %arg1: index):\n'
    '    %0 = "arith.constant"() {value = 0 : index} : () -> index loc(unknown)\n'
    '    %1 = "arith.constant"() {value = 1 : index} : () -> index loc(unknown)\n'
    '    %2 = "arith.constant"() {value = 0x7FF0000000000000 : f64} : () -> f64 loc(unknown)\n'
    '    %3 = "scf.for"(%0, %arg1, %1, %2) ({\n'
    '    ^bb0(%arg2: index, %arg3: f64):\n'
    '      %4 = "memref.load"(%arg0, %arg2) : (memref<?xf64, strided<[?], offset: ?>>, index) '
    '-> f64 loc(unknown)\n'
    '      %5 = "arith.addf"(%arg3, %4) : (f64, f64) -> f64 loc(unknown)\n'
    '      "scf.yield"(%5) : (f64) -> () loc(unknown)\n'
    '    }) {grafo.parallel} : (index, index, index, f64) -> f64 loc(unknown)\n'
    '    "func.return"(%3) : (f64) -> () loc(unknown)\n'
    '  }) {function_type = (memref<?xf64, strided<[?], offset: ?>>, index) -> f64, '
    'llvm.emit_c_interface, sym_name = "s\\22\\E2\\82\\AC"} : () -> () loc(unknown)\n'
    '}) : () -> () loc(unknown)\n',
]
PIECES = list('%#:{}()[]<>",=^@!?x\\ \n.-+e') + [
    "f32", "i64", "ui8", "tensor<", "memref<", "dense<", "loc(", "0x", "%0", "%9", "#1", ":2",
    "-> ", "unknown", "true", "1.0", "1e", "\\E2", "//", "strided<[?], offset: ?>", "!py.float",
    "index", "none", "x0x"]


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 6)))
        edit = draw(st.sampled_from(["delete", "insert", "replace", "copy"]))
        if edit == "delete":
            text = text[:i] + text[j:]
        elif edit == "insert":
            text = text[:i] + draw(st.sampled_from(PIECES)) + text[i:]
        elif edit == "replace":
            text = text[:i] + draw(st.sampled_from(PIECES) | st.text(max_size=2)) + text[j:]
        else:
            k = draw(st.integers(0, len(text)))
            text = text[:k] + text[i:j] + text[k:]
    return text


def test_fuzz_seeds_are_valid():
    for seed in SEEDS:
        verify(parse(seed))


@settings(max_examples=1000, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_text_raises_only_parse_or_verify_errors(text):
    try:
        verify(parse(text, "fuzz.mlir"))
    except IRParseError as e:
        assert str(e).startswith(f"fuzz.mlir:{e.line}:{e.col}: error: ")
        assert e.line >= 1 and e.col >= 1
    except VerifyError:
        pass
