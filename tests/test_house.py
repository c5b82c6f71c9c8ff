"""The house rules a newcomer relies on (docs/architecture.md): no module reaches into
another's private names, no import hides inside a function (where it would hide a
cycle from the import contracts), and no module of any app takes part in an import
cycle. Pure checks of the source, no database."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
# The redesign of tournaments/ made these rules hold there; the other apps follow.
APPS = ("games", "tournaments", "ratings", "config")
PROJECT = ("games", "tournaments", "ratings", "config")
# Imported late on purpose, each for a reason written beside it: networkx costs half a
# second that the default pairing never needs (docs/benchmarks.md).
LATE_IMPORTS_ALLOWED = {"networkx"}
# Files and folders whose late imports have a reason, written here and beside each. No
# cycle hides there: test_no_app_has_an_import_cycle reads those imports too.
LATE_IMPORTS_ALLOWED_IN = {
    # The pairing command starts in a process of its own for each round, and a Swiss
    # round loads none of the league's, the matching's or json's code (docs/benchmarks.md,
    # "Pairing command").
    "tournaments/pairing/": "speed of the command's start",
    # The registry loads the engines on first use: each engine's RULESET is built with
    # this module's Ruleset, and the demo's random games are asked for only by the demo.
    "games/rulesets.py": "the engines import the registry",
    # Django's way: an app's signal receivers and tasks are imported once the apps are
    # ready.
    "ratings/apps.py": "AppConfig.ready()",
    "tournaments/webhooks/apps.py": "AppConfig.ready()",
    # The venue's command reads its address and prints its banner before Django is set
    # up (django.setup() in main()); Django's modules come after.
    "config/venue.py": "before django.setup()",
}


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
    offences = _offences(late_imports)
    assert [o for o in offences if not o.startswith(tuple(LATE_IMPORTS_ALLOWED_IN))] == []


def test_the_checks_see_a_planted_private_import_and_a_late_import():
    planted = ast.parse(
        "from tournaments.results.views.board import _load\n"
        "def f():\n    from .rounds import swap\n    import networkx\n"
    )
    assert private_imports(planted) == [(1, "_load")]
    assert late_imports(planted) == [(3, ".rounds")]


def import_cycles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The modules that import one another, directly or round a longer loop: each
    strongly connected group of the import graph with more than one module (or a
    module importing itself), sorted. Tarjan's algorithm, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in imports:
                    continue  # outside the apps: it cannot import them back
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports[target]))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1 or module in imports[module]:
                    cycles.append(sorted(group))
    return sorted(cycles)


def _project_imports() -> dict[str, set[str]]:
    # grimp reads every import statement, those inside functions too: a cycle that a
    # late import keeps from failing at start-up still shows here. An import for the type
    # checker only (under `if TYPE_CHECKING:`) never runs, so it makes no cycle.
    graph = grimp.build_graph(*PROJECT, cache_dir=None, exclude_type_checking_imports=True)
    return {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}


def test_no_app_has_an_import_cycle():
    assert import_cycles(_project_imports()) == []


def test_the_cycle_check_sees_a_planted_cycle():
    planted = {
        "ratings.services": {"ratings.tasks", "ratings.models", "celery"},
        "ratings.tasks": {"ratings.services"},
        "ratings.models": set(),
        "games.a": {"games.b"},
        "games.b": {"games.c"},
        "games.c": {"games.a"},
        "games.d": {"games.d"},
    }
    assert import_cycles(planted) == [
        ["games.a", "games.b", "games.c"],
        ["games.d"],
        ["ratings.services", "ratings.tasks"],
    ]
