"""The house as a newcomer walks it, measured at a commit: Python files and lines per
part and per concern of `tournaments/`, the largest modules, imports of another module's private names,
imports hidden inside functions, comparisons with a game's name outside `games/`, and
the import contracts. Reads the commit's tree through git; nothing is checked out.

    .venv/bin/python bench/house.py [REV ...]      (default: HEAD)
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections import Counter

GAME_NAMES = ("pentagame", "pantarei", "pentamid_twist", "pent_up", "pentacosmos")
COMPARISON = re.compile(
    r"""(==|!=)\s*["'](%s)["']|["'](%s)["']\s*(==|!=)|in\s*[\(\[\{][^)\]\}]*["'](%s)["']"""
    % (("|".join(GAME_NAMES),) * 3)
)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def files(rev: str) -> list[str]:
    return git("ls-tree", "-r", "--name-only", rev).splitlines()


def show(rev: str, path: str) -> str:
    return git("show", f"{rev}:{path}")


def part(path: str) -> str:
    """tournaments/desk/views/run.py -> views; tournaments/views_manage.py -> views; a file
    at the app's top -> (top)."""
    rest = path.split("/")[1:]
    if len(rest) == 1:
        name = rest[0].removesuffix(".py")
        return "views" if name.startswith("views") else "(top)"
    return rest[0]


def concern(path: str) -> str:
    """tournaments/results/views/board.py -> results; a module at the app's top (models,
    signals, scoring, ...) -> (ground floor)."""
    rest = path.split("/")[1:]
    return rest[0] if len(rest) > 1 else "(ground floor)"


def measure(rev: str) -> dict[str, object]:
    paths = [p for p in files(rev) if p.endswith(".py") and "/migrations/" not in p]
    app = [p for p in paths if p.startswith("tournaments/")]
    lines = {p: show(rev, p).count("\n") for p in app}
    project = [p for p in paths if p.split("/")[0] in ("games", "tournaments", "ratings")]
    total = sum(show(rev, p).count("\n") for p in project)
    private, late = [], []
    for p in app:
        tree = ast.parse(show(rev, p))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                root = (node.module or "").split(".")[0]
                if node.level or root in ("games", "tournaments", "ratings", "config"):
                    private += [
                        f"{p}: {a.name}" for a in node.names if a.name[:1] == "_" != a.name[:2]
                    ]
        for func in ast.walk(tree):
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(func):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        name = getattr(node, "module", None) or node.names[0].name
                        if not name.startswith("networkx"):
                            late.append(f"{p}:{node.lineno}")
    comparisons = []
    for p in files(rev):
        if p.startswith(("games/", "tests/", "bench/", ".venv")) or "/migrations/" in p:
            continue
        if p.endswith((".py", ".html", ".js")):
            for number, line in enumerate(show(rev, p).splitlines(), start=1):
                if COMPARISON.search(line):
                    comparisons.append(f"{p}:{number}")
    contracts = tomllib.loads(show(rev, "pyproject.toml"))["tool"]["importlinter"]["contracts"]
    views = [p for p in app if part(p) == "views"]
    per_concern: Counter[str] = Counter()
    for p, n in lines.items():
        per_concern[concern(p)] += n
    return {
        "rev": git("rev-parse", "--short", rev).strip(),
        "tournaments files": len(app),
        "tournaments lines": sum(lines.values()),
        "share of games+tournaments+ratings": f"{sum(lines.values()) / total:.0%}",
        "view modules": len(views),
        "parts": dict(sorted(Counter(part(p) for p in app).items())),
        "lines per concern": dict(per_concern.most_common()),
        "largest": sorted(lines.items(), key=lambda kv: -kv[1])[:5],
        "private imports": len(private),
        "imports inside functions": len(late),
        "game-name comparisons outside games/": len(comparisons),
        "import contracts": [c["id"] for c in contracts],
    }


def main() -> None:
    for rev in sys.argv[1:] or ["HEAD"]:
        for key, value in measure(rev).items():
            print(f"{key:38} {value}")
        print()


if __name__ == "__main__":
    main()
