"""games/rulesets.py is the only switch on a game's name (docs/architecture.md): outside
`games/` (and migrations and tests) no Python, template or script compares anything
with a registry name. What differs between the games is a named attribute of the
ruleset (`tournament.ruleset.has_colour_letters`, ...). Python is read as a syntax tree,
templates and scripts line by line; the names come from the registry itself."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from games import rulesets

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = {".py", ".html", ".js"}
# Top-level folders not scanned: the registry's own layer, the tests, and what the
# repository ignores (.gitignore: the local state and collected static files).
SKIP_TOP = {"games", "tests", "var", "staticfiles"}
# Folders skipped at any depth: historic migrations keep their literal names.
SKIP_ANYWHERE = {"migrations", "__pycache__", "node_modules"}

# Comparisons still to be replaced, each with its reason; each must still be needed.
PENDING: dict[str, str] = {}


def game_names() -> set[str]:
    return {ruleset.name for ruleset in rulesets.all_rulesets()}


def source_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        parts = path.relative_to(root).parts
        if parts[0] in SKIP_TOP or parts[:2] == ("bench", "out"):
            continue
        folders = parts[:-1]
        if any(p.startswith(".") or p in SKIP_ANYWHERE for p in folders):
            continue
        yield path


def _is_name(node: ast.expr, names: set[str]) -> bool:
    return isinstance(node, ast.Constant) and node.value in names


def _holds_name(node: ast.expr, names: set[str]) -> bool:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_name(element, names) for element in node.elts)
    return False


def python_switches(source: str, names: set[str]) -> list[int]:
    """Lines comparing with a game's name: `x == "name"`, `"name" != x`, `x in ("name",
    ...)`, `x not in ["name"]`, and `case "name":`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
                member = isinstance(op, (ast.In, ast.NotIn)) and _holds_name(right, names)
                if member or _is_name(left, names) or _is_name(right, names):
                    lines.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and _is_name(node.value, names):
            lines.append(node.lineno)
    return sorted(set(lines))


def _text_patterns(names: Iterable[str]) -> list[re.Pattern[str]]:
    alternatives = "|".join(re.escape(name) for name in sorted(names))
    quoted = rf"""(?P<q>['"])(?:{alternatives})(?P=q)"""
    return [
        # Template and script equality: ==, !=, ===, !== on either side.
        re.compile(rf"(?:[=!]==?)\s*{quoted}"),
        re.compile(rf"{quoted}\s*(?:[=!]==?)"),
        # A template's `in "pentagame pent_up"`, a script's switch and list lookups.
        re.compile(rf"""\bin\s+(?P<q>['"])[^'"]*\b(?:{alternatives})\b[^'"]*(?P=q)"""),
        re.compile(rf"\bcase\s+{quoted}"),
        re.compile(rf"\.(?:includes|indexOf)\(\s*{quoted}"),
        re.compile(rf"""\[[^\]]*{quoted}[^\]]*\]\s*\.(?:includes|indexOf)\("""),
    ]


def text_switches(source: str, names: set[str]) -> list[int]:
    """Lines of a template or script comparing with a game's name."""
    patterns = _text_patterns(names)
    return [
        number
        for number, line in enumerate(source.splitlines(), start=1)
        if any(pattern.search(line) for pattern in patterns)
    ]


def switches(root: Path, names: set[str]) -> dict[str, list[str]]:
    """Every comparison with a game's name under ``root``: file -> ["line: text"]."""
    found: dict[str, list[str]] = {}
    for path in source_files(root):
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            numbers = python_switches(source, names)
        else:
            numbers = text_switches(source, names)
        if numbers:
            lines = source.splitlines()
            found[path.relative_to(root).as_posix()] = [
                f"{n}: {lines[n - 1].strip()}" for n in numbers
            ]
    return found


def test_only_the_registry_switches_on_a_game_name() -> None:
    names = game_names()
    assert names, "the registry names no game"
    found = switches(ROOT, names)
    stale = sorted(path for path in PENDING if path not in found)
    assert not stale, f"no comparison left in {stale}: remove them from PENDING"
    offending = [
        f"{path}:{line}" for path, lines in found.items() if path not in PENDING for line in lines
    ]
    assert not offending, (
        "compared with a game's name outside games/rulesets.py; ask the ruleset what "
        "differs instead (a named attribute, docs/architecture.md):\n" + "\n".join(offending)
    )


def test_the_scanner_catches_a_planted_comparison(tmp_path: Path) -> None:
    names = game_names()
    name = sorted(names)[0]
    (tmp_path / "app" / "templates").mkdir(parents=True)
    (tmp_path / "app" / "static").mkdir()
    (tmp_path / "app" / "views.py").write_text(
        "from dataclasses import dataclass\n"
        "\n"
        "\n"
        "@dataclass\n"
        "class Seen:\n"
        f'    game: str = "{name}"  # a default, not a switch\n'
        "\n"
        "\n"
        "def page(tournament, request):\n"
        f'    game = request.GET.get("game", "{name}")\n'
        f'    if tournament.game == "{name}":\n'
        "        return 1\n"
        f"    if '{name}' != game:\n"
        "        return 2\n"
        f'    if game in ("chess", "{name}"):\n'
        "        return 3\n"
        f'    if game not in ["{name}"]:\n'
        "        return 4\n"
        "    match game:\n"
        f'        case "{name}":\n'
        "            return 5\n"
        "    return 0\n"
    )
    (tmp_path / "app" / "templates" / "page.html").write_text(
        f"<p>{{{{ tournament.game }}}}: {name}</p>\n"
        f'{{% if tournament.game == "{name}" %}}<p>x</p>{{% endif %}}\n'
        "<p>{% translate 'no comparison here' %}</p>\n"
        f"{{% if '{name}' != tournament.game %}}<p>y</p>{{% endif %}}\n"
    )
    (tmp_path / "app" / "static" / "page.js").write_text(
        f'const game = "{name}";\n'
        f'if (game === "{name}") {{ draw(); }}\n'
        f'switch (game) {{ case "{name}": break; }}\n'
        f'if (["{name}"].includes(game)) {{ draw(); }}\n'
    )
    # Skipped: the registry's own layer, migrations and tests keep their names.
    for skipped in ("games", "app/migrations", "tests"):
        (tmp_path / skipped).mkdir(parents=True)
        (tmp_path / skipped / "x.py").write_text(f'same = game == "{name}"\n')

    found = switches(tmp_path, names)

    assert found == {
        "app/static/page.js": [
            f'2: if (game === "{name}") {{ draw(); }}',
            f'3: switch (game) {{ case "{name}": break; }}',
            f'4: if (["{name}"].includes(game)) {{ draw(); }}',
        ],
        "app/templates/page.html": [
            f'2: {{% if tournament.game == "{name}" %}}<p>x</p>{{% endif %}}',
            f"4: {{% if '{name}' != tournament.game %}}<p>y</p>{{% endif %}}",
        ],
        "app/views.py": [
            f'11: if tournament.game == "{name}":',
            f"13: if '{name}' != game:",
            f'15: if game in ("chess", "{name}"):',
            f'17: if game not in ["{name}"]:',
            f'20: case "{name}":',
        ],
    }


# --- Outside games/, a game's engine is reached through the registry ------------------
#
# The modules of games/ that the layers above may import, each shared by the family
# rather than one game's engine. Everything else under games/ (games/<name>/, the
# pictures of one game in games/pictures/<name>.py) is reached through games.rulesets.
SHARED_MODULES: dict[str, str] = {
    "games.rulesets": "the registry itself: every game through its Ruleset",
    "games.dropped": "the book's dropped score, the family's shared scale: the scoring "
    "core, the team standings and the ratings of every game",
    "games.letters": "the book's colour letters (section 22), asked for where the "
    "ruleset has_colour_letters: the score sheets, the print pages, the statistics",
    "games.pictures": "the picture vocabulary (Picture, Shape) the replay page writes "
    "out; the package imports no engine",
    "games.pictures.shapes": "the same vocabulary: the seats' piece shapes",
    "games.engine_common.builds": "the loader of compiled builds, shared by the "
    "engines and the ratings' copy kernel; it knows no game",
}
# Not scanned beside SKIP_TOP: the benchmarks measure the engines themselves
# (docs/benchmarks.md).
ENGINE_SKIP_TOP = SKIP_TOP | {"bench"}


def _is_module(root: Path, name: str) -> bool:
    path = root.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported_modules(source: str, root: Path) -> list[tuple[int, str]]:
    """Every module of games/ the source imports, at any depth (inside functions and
    under `if TYPE_CHECKING:` too): `from games import x` names games.x when x is a
    module, else games."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.append((node.lineno, sub if _is_module(root, sub) else node.module))
    return sorted({(line, name) for line, name in found if name.split(".")[0] == "games"})


def engine_imports(root: Path) -> dict[str, list[str]]:
    """Imports of games/ outside it that are not SHARED_MODULES: file -> ["line: module"]."""
    found: dict[str, list[str]] = {}
    for path in source_files(root):
        parts = path.relative_to(root).parts
        if path.suffix != ".py" or parts[0] in ENGINE_SKIP_TOP:
            continue
        direct = [
            f"{line}: {name}"
            for line, name in imported_modules(path.read_text(encoding="utf-8"), root)
            if name != "games" and name not in SHARED_MODULES
        ]
        if direct:
            found[path.relative_to(root).as_posix()] = direct
    return found


def test_outside_games_only_the_registry_reaches_an_engine() -> None:
    found = engine_imports(ROOT)
    offending = [f"{path}:{line}" for path, lines in found.items() for line in lines]
    assert not offending, (
        "imports a game's engine outside games/; ask the game's Ruleset "
        "(games/rulesets.py: a field or method of it) instead, or add a module the whole "
        "family shares to SHARED_MODULES with its reason:\n" + "\n".join(offending)
    )


def test_the_engine_scanner_catches_a_planted_import(tmp_path: Path) -> None:
    (tmp_path / "games" / "pictures").mkdir(parents=True)
    (tmp_path / "games" / "chess").mkdir()
    for module in ("__init__", "rulesets", "letters", "dropped"):
        (tmp_path / "games" / f"{module}.py").write_text("")
    for module in ("__init__", "shapes", "chess"):
        (tmp_path / "games" / "pictures" / f"{module}.py").write_text("")
    for module in ("__init__", "replay"):
        (tmp_path / "games" / "chess" / f"{module}.py").write_text("")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "views.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "\n"
        "from games import rulesets\n"
        "from games.dropped import dropped_scores\n"
        "from games.pictures import Picture, chess\n"
        "from games import chess as engine\n"
        "import games.chess.replay\n"
        "\n"
        "if TYPE_CHECKING:\n"
        "    from games.chess.replay import Result\n"
        "\n"
        "\n"
        "def page():\n"
        "    from games.chess import replay\n"
        "    return replay\n"
    )
    # Skipped: the games themselves, their tests and the benchmarks.
    for skipped in ("games/chess", "tests", "bench"):
        (tmp_path / skipped / "x.py").parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / skipped / "x.py").write_text("from games.chess import replay\n")

    found = engine_imports(tmp_path)

    assert found == {
        "app/views.py": [
            "5: games.pictures.chess",
            "6: games.chess",
            "7: games.chess.replay",
            "10: games.chess.replay",
            "14: games.chess.replay",
        ]
    }
