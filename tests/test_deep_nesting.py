"""Deeply nested code compiles as CPython runs it: long ``elif`` chains and deeply nested
expressions (``compiler/nesting.py``), and the IR walks, CSE and the verifier take time
linear in the nesting depth."""

import importlib.util
import sys
import threading

import numpy as np
import pytest

import compiler
from compiler import nesting


def _module(tmp_path, name: str, source: str):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _elif_chain(n: int) -> str:
    lines = ["def classify(x):", "    if x == 0:", "        y = 0.5"]
    for i in range(1, n):
        lines += [f"    elif x == {i}:", f"        y = {i} + 0.5"]
    lines += ["    else:", "        y = -1.0", "    return y", ""]
    return "\n".join(lines)


def test_long_elif_chain_matches_eager(tmp_path):
    mod = _module(tmp_path, "chain", _elif_chain(400))
    limit = sys.getrecursionlimit()
    f = compiler.function(mod.classify)
    for x in (0, 1, 217, 399, 400, -5):
        got, want = f(np.int64(x)), mod.classify(np.int64(x))
        assert type(got) is type(want) and got == want
    assert sys.getrecursionlimit() == limit


def test_deeply_nested_expression_matches_eager(tmp_path):
    terms = " + ".join(f"x * {i}" for i in range(600))
    mod = _module(tmp_path, "expr", f"def poly(x):\n    return {terms}\n")
    x = np.linspace(-1, 1, 7)
    np.testing.assert_array_equal(compiler.function(mod.poly)(x), mod.poly(x))


def test_concurrent_deep_compilations_restore_the_limit(tmp_path):
    mods = [_module(tmp_path, f"chain{k}", _elif_chain(200 + 50 * k)) for k in range(3)]
    limit = sys.getrecursionlimit()
    results, errors = {}, []

    def run(k):
        try:
            results[k] = compiler.compile(mods[k].classify, "i64")(np.int64(150))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {k: 150.5 for k in range(3)}
    assert sys.getrecursionlimit() == limit


def test_nesting_past_the_stack_is_a_compile_error_at_the_function(tmp_path, monkeypatch):
    """Where even the raised limit is not enough (modelled by no room at all), the error
    is a CompileError at the def line, not a RecursionError from inside the compiler."""
    mod = _module(tmp_path, "deep", _elif_chain(400))
    monkeypatch.setattr(nesting, "FRAMES_PER_LEVEL", 0)
    monkeypatch.setattr(nesting, "MARGIN", 0)
    with pytest.raises(compiler.CompileError, match=r"deep\.py:1:1: error: 'classify' nests "
                                                    r"too deeply to compile") as info:
        compiler.compile(mod.classify, "i64")
    assert "split deep if/elif chains" in str(info.value)


def test_ast_depth_counts_the_longest_path():
    import ast
    assert nesting.ast_depth(ast.parse("x")) == 4           # Module > Expr > Name > Load
    assert nesting.ast_depth(ast.parse("a + b + c")) == 6    # Expr > BinOp > BinOp > Name
