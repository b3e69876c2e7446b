"""The wheel's package list (explicit in pyproject.toml, because grammar/ installs as the
package compiler.grammar) names every package of the source tree."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_and_the_grammar_are_in_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for top in ("compiler", "runtime") for p in (ROOT / top).rglob("__init__.py")}
    missing = on_disk - set(config["packages"])
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"
    assert config["package-dir"]["compiler.grammar"] == "grammar"
    assert config["package-data"]["compiler.grammar"] == ["*.lark"]
    assert (ROOT / "grammar" / "ir.lark").is_file()
