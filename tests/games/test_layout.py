"""The layout keeps its shape: no import cycles among the modules of the site's parts, the
imports inside functions included (a lazy import is a cycle postponed, not removed)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module_imports(package: str) -> dict[str, set[str]]:
    """Each module of `package` (dotted) and the modules of the same package it imports."""
    modules = {}
    for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            edges[name] |= {t for t in targets if t in modules and t != name}
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in edges:
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("package", ["games.play", "games.matchmaking", "games.replays",
                                     "games.puzzles", "accounts"])
def test_no_import_cycles(package: str) -> None:
    assert _cycles(_module_imports(package)) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


PARTS_SKIPPED = {"migrations", "tests", "node_modules", "static", "templates", "bench", "scripts"}


def _part(module: str) -> str:
    """A part: a top-level package, or a package of `games` (its own modules: `games`)."""
    bits = module.split(".")
    if bits[0] == "games" and len(bits) > 1 and (ROOT / "games" / bits[1]).is_dir():
        return f"games.{bits[1]}"
    return bits[0]


def _imported_modules(path: Path, module: str) -> set[str]:
    """The modules `path` imports, relative ones resolved, those under `if TYPE_CHECKING:`
    left out (they are types only)."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(block.test) for node in ast.walk(block)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
    return found


def test_no_two_parts_import_each_other() -> None:
    """The parts depend one way, downward (docs/architecture.md, "The layers")."""
    modules: dict[str, Path] = {}
    for init in ROOT.glob("*/__init__.py"):
        if init.parent.name in PARTS_SKIPPED or init.parent.name.startswith("."):
            continue
        for path in init.parent.rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if PARTS_SKIPPED & set(parts):
                continue
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    depends: dict[str, set[str]] = {}
    for module, path in modules.items():
        for name in _imported_modules(path, module):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and _part(name) != _part(module):
                depends.setdefault(_part(module), set()).add(_part(name))
    both = sorted({tuple(sorted((a, b))) for a, targets in depends.items() for b in targets
                   if a in depends.get(b, set())})
    assert both == []


def test_the_layer_check_sees_a_part_of_games() -> None:
    assert _part("games.play.services.core") == "games.play"
    assert _part("games.play") == "games.play"
    assert _part("games.models") == "games"
    assert _part("accounts.selectors") == "accounts"
