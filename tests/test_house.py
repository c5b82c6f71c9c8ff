"""The house rules a newcomer relies on (docs/architecture.md): no module reaches into
another's private names, and no import hides inside a function (where it would hide a
cycle from the import contracts). Pure checks of the source, no database."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The redesign of tournaments/ made these rules hold there; the other apps follow.
APPS = ("tournaments",)
PROJECT = ("games", "tournaments", "ratings", "config")
# Imported late on purpose, each for a reason written beside it: networkx costs half a
# second that the default pairing never needs (docs/benchmarks.md).
LATE_IMPORTS_ALLOWED = {"networkx"}


def _sources() -> list[Path]:
    return sorted(
        p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts
    )


def private_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """`from x import _name` of a module of the project (dunder names are not private)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
            node.level or (node.module or "").split(".")[0] in PROJECT
        ):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((node.lineno, alias.name))
    return found


def late_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """Imports inside a function body (not under `if TYPE_CHECKING:` at module level)."""
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in LATE_IMPORTS_ALLOWED:
                    found.append((node.lineno, name))
    return found


def _offences(check) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _sources()
        for line, name in check(ast.parse(path.read_text(), str(path)))
    ]


def test_no_module_imports_another_modules_private_names():
    assert _offences(private_imports) == []


def test_no_import_hides_inside_a_function():
    assert _offences(late_imports) == []


def test_the_checks_see_a_planted_private_import_and_a_late_import():
    planted = ast.parse(
        "from tournaments.results.views.board import _load\n"
        "def f():\n    from .rounds import swap\n    import networkx\n"
    )
    assert private_imports(planted) == [(1, "_load")]
    assert late_imports(planted) == [(3, ".rounds")]
