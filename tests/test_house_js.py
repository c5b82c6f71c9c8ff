"""The browser modules keep the layers of the Python (docs/architecture.md): each lives
with its concern, and none imports a module served from a higher app's folder (games
below the tournaments' core, core below standings, standings below results, results
below the desk, the desk below transfer). Static URLs are shared by every app, so a
relative import such as "../agon/offline_queue.js" could otherwise reach up unseen."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The folders that hold static files, lowest layer first (pyproject.toml's contracts).
STATIC_FOLDERS = {
    "games/static": 0,
    "tournaments/core/static": 1,
    "tournaments/standings/static": 2,
    "tournaments/results/static": 3,
    "tournaments/desk/static": 4,
    "tournaments/transfer/static": 5,
    "ratings/static": 6,
}
IMPORT = re.compile(
    r"""(?:^|;)\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']"""
    r"""|(?:^|;)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)""",
    re.MULTILINE | re.DOTALL,
)


def imports_of(source: str) -> list[str]:
    """The specifiers a module imports, static or dynamic (comments stripped first)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)
    source = re.sub(r"(?m)^\s*//.*$", "", source)
    return [next(g for g in match.groups() if g) for match in IMPORT.finditer(source)]


def modules() -> dict[str, tuple[Path, int]]:
    """Static URL path ("agon/board.js") -> (file, layer of the folder serving it)."""
    found: dict[str, tuple[Path, int]] = {}
    for folder, layer in STATIC_FOLDERS.items():
        base = ROOT / folder
        for path in base.rglob("*.js") if base.exists() else ():
            url = path.relative_to(base).as_posix()
            assert url not in found, f"{url} is served by two apps"
            found[url] = (path, layer)
    return found


def _shown(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def offences(found: dict[str, tuple[Path, int]]) -> list[str]:
    wrong = []
    for url, (path, layer) in sorted(found.items()):
        for spec in imports_of(path.read_text(encoding="utf-8")):
            if not spec.startswith("."):
                continue  # only relative imports name a file of ours
            target = posixpath.normpath(posixpath.join(posixpath.dirname(url), spec))
            if target not in found:
                wrong.append(f"{_shown(path)} imports {spec}: no such static file")
            elif found[target][1] > layer:
                wrong.append(
                    f"{_shown(path)} imports {spec}, "
                    f"served from higher up ({_shown(found[target][0])})"
                )
    return wrong


def test_every_static_folder_is_a_known_layer():
    folders = {
        p.relative_to(ROOT).as_posix()
        for p in ROOT.glob("**/static")
        if p.is_dir() and not {".venv", "node_modules", "var", ".git"} & set(p.parts)
    }
    assert folders <= set(STATIC_FOLDERS), sorted(folders - set(STATIC_FOLDERS))


def test_no_browser_module_imports_from_a_higher_layer_or_a_missing_file():
    found = modules()
    assert "agon/board.js" in found and "games/pentagame.js" in found
    assert [line for line in offences(found) if "higher up" in line] == []


def test_the_check_sees_a_module_of_the_games_importing_the_offline_queue(tmp_path):
    # The old layout: games/static/games/board.js imported "../agon/offline_queue.js".
    lower = tmp_path / "board.js"
    lower.write_text('import { enqueue } from "../agon/offline_queue.js";\n')
    found = {
        "games/board.js": (lower, 0),
        "agon/offline_queue.js": (ROOT / "tournaments/results/static/agon/offline_queue.js", 3),
    }
    assert [line for line in offences(found) if "higher up" in line] == [
        "board.js imports ../agon/offline_queue.js, served from higher up "
        "(tournaments/results/static/agon/offline_queue.js)"
    ]


def test_the_import_reader_sees_static_dynamic_and_multiline_imports():
    source = (
        '// import { x } from "./commented.js";\n'
        'import {\n  a,\n  b,\n} from "./multi.js";\n'
        'import "./side.js";\n'
        'const m = await import("../games/draw.js");\n'
        'export { c } from "./again.js";\n'
    )
    assert imports_of(source) == ["./multi.js", "./side.js", "../games/draw.js", "./again.js"]
