"""games.rules and games.ai are plain Python libraries: no Django import anywhere below them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = [ROOT / "games" / "rules", ROOT / "games" / "ai"]


def _modules() -> list[Path]:
    return sorted(p for package in PURE_PACKAGES if package.is_dir() for p in package.rglob("*.py"))


def _imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
              and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                  "import_module", "__import__")
              and node.args and isinstance(node.args[0], ast.Constant)):
            names.add(str(node.args[0].value))
    return names


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_does_not_import_django(path: Path) -> None:
    django = sorted(n for n in _imported_names(path) if n.split(".")[0] == "django")
    assert not django, f"{path.relative_to(ROOT)} imports {django}"


def test_importing_every_rules_module_loads_no_django() -> None:
    script = (
        "import importlib, pkgutil, sys\n"
        "import games.rules\n"
        "for info in pkgutil.walk_packages(games.rules.__path__, 'games.rules.'):\n"
        "    importlib.import_module(info.name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'django')\n"
        "print(loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]", result.stdout


def test_the_package_declares_its_type_hints() -> None:
    assert (ROOT / "games" / "rules" / "py.typed").is_file()
