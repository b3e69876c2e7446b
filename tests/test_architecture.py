"""The package's layering, checked on its source (docs/architecture.md): ops are named by
class outside the dialects and the frontend, compiler/ir depends on nothing above it,
runtime never imports the compiler, and api, cache and aot do not import each other in a
circle. Every count walks the AST, so a docstring or comment never counts."""

import ast
import pathlib

import compiler
from compiler.ir.opdef import OPS

ROOT = pathlib.Path(compiler.__file__).parent
# Modules whose job is op names: the text form's printer and parser.
NAME_MODULES = {"ir/printer.py", "ir/parser.py"}
MAX_OP_NAME_LITERALS = 40


def _modules(package: pathlib.Path):
    for path in sorted(package.rglob("*.py")):
        yield path, ast.parse(path.read_text(), str(path))


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _imports(path: pathlib.Path, tree: ast.AST) -> set[str]:
    """The modules ``tree`` imports anywhere (module- or function-level), as absolute dotted
    names, with ``from X import y`` naming ``X.y`` when that is a module of the project."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            for a in node.names:
                sub = ROOT.parent / f"{module}.{a.name}".replace(".", "/")
                is_module = sub.with_suffix(".py").exists() or (sub / "__init__.py").exists()
                found.add(f"{module}.{a.name}" if is_module else module)
    return found


def op_name_literals() -> dict[str, int]:
    """Per file: string constants equal to a registered op name outside compiler/dialects,
    compiler/frontend and the printer/parser, not inside a ``raise`` or an f-string."""
    names = set(OPS)
    counts = {}
    for path, tree in _modules(ROOT):
        rel = path.relative_to(ROOT).as_posix()
        if rel.split("/")[0] in ("dialects", "frontend") or rel in NAME_MODULES:
            continue
        messages = {id(m) for n in ast.walk(tree) if isinstance(n, (ast.Raise, ast.JoinedStr))
                    for m in ast.walk(n)}
        n = sum(1 for c in ast.walk(tree) if isinstance(c, ast.Constant)
                and isinstance(c.value, str) and c.value in names and id(c) not in messages)
        if n:
            counts[rel] = n
    return counts


def test_ops_are_named_by_class_outside_the_dialects():
    counts = op_name_literals()
    assert sum(counts.values()) < MAX_OP_NAME_LITERALS, counts


def test_dialects_define_ops_as_named_classes():
    def injects(node):      # globals()[...] = ..., globals().update(...)
        target = node.value if isinstance(node, ast.Subscript) else getattr(node, "value", None)
        return (isinstance(node, ast.Subscript) or (isinstance(node, ast.Attribute)
                                                     and node.attr in ("update", "setdefault"))
                ) and isinstance(target, ast.Call) and getattr(target.func, "id", "") == "globals"

    for path, tree in _modules(ROOT / "dialects"):
        for node in ast.walk(tree):
            assert not injects(node), f"{path}:{node.lineno}"
    for name, cls in OPS.items():
        module = __import__(cls.__module__, fromlist=["_"])
        assert getattr(module, cls.__name__, None) is cls, name


def test_ir_core_imports_nothing_above_it():
    above = ("compiler.dialects", "compiler.interpreter", "compiler.lowering",
             "compiler.backend", "compiler.frontend", "compiler.passes", "compiler.api",
             "compiler.pipeline")
    for path, tree in _modules(ROOT / "ir"):
        bad = {m for m in _imports(path, tree) if m.startswith(above)}
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_runtime_never_imports_the_compiler():
    for path, tree in _modules(ROOT.parent / "runtime"):
        bad = {m for m in _imports(path, tree)
               if m.split(".")[0] in ("compiler", "llvmlite", "lark")}
        assert not bad, f"{path.name} imports {sorted(bad)}"


def _group(module: str) -> str | None:
    for group in ("compiler.api", "compiler.cache", "compiler.aot"):
        if module == group or module.startswith(group + "."):
            return group
    return None


def test_api_cache_and_aot_import_one_way():
    edges = {}
    for path, tree in _modules(ROOT):
        src = _group(_module_name(path))
        if src is None:
            continue
        for m in _imports(path, tree):
            dst = _group(m)
            if dst is not None and dst != src:
                edges.setdefault(src, set()).add(dst)

    def reaches(a, b, seen=()):
        return any(n == b or (n not in seen and reaches(n, b, (*seen, n)))
                   for n in edges.get(a, ()))

    cycles = [g for g in edges if reaches(g, g)]
    assert not cycles, edges


# The API's modules: nothing below them imports them, not even inside a function, nor the
# package root (``compiler``, which imports the whole API).
API = {"compiler", "compiler.api", "compiler.polymorphic", "compiler.concrete",
       "compiler.boundary", "compiler.eager", "compiler.aliasing"}


def test_cache_and_aot_do_not_import_the_api():
    """The dependencies run api -> polymorphic -> cache -> aot -> pipeline."""
    below_cache = [*sorted((ROOT / "aot").glob("*.py")), *sorted((ROOT / "pipeline").glob("*.py")),
                   ROOT / "keys.py", ROOT / "targets.py", ROOT / "interfaces.py"]
    for path in [ROOT / "cache.py", *below_cache]:
        forbidden = API | ({"compiler.cache"} if path in below_cache else set())
        back = _imports(path, ast.parse(path.read_text())) & forbidden
        assert not back, f"{path.relative_to(ROOT)} imports {sorted(back)}"


def _private_reach_ins(path: pathlib.Path) -> list:
    """``obj._name`` of an object other than ``self``/``cls`` (dunders aside), and imports of
    ``_name`` from other modules."""
    hits = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            hits.append(f"{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.ImportFrom):
            hits += [f"{node.lineno}: import {a.name}" for a in node.names
                     if a.name.startswith("_") and not a.name.startswith("__")]
    return hits


def test_api_cache_and_aot_read_public_attributes_only():
    paths = [ROOT / name for name in ("api.py", "concrete.py", "cache.py", "keys.py",
                                      "eager.py", "placement.py", "boundary.py",
                                      "targets.py", "cli.py")]
    paths += sorted((ROOT / "aot").glob("*.py")) + sorted((ROOT / "pipeline").glob("*.py"))
    paths += [ROOT / "backend" / name for name in ("__init__.py", "base.py", "cpu.py")]
    for path in paths:
        assert not _private_reach_ins(path), (path.relative_to(ROOT), _private_reach_ins(path))
