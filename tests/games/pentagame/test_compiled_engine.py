"""The compiled move generator against the .py file it is built from.

`config/bin/engine-build` compiles games/pentagame/movegen.py with Cython; the package
uses that build while it matches the sources (games/pentagame/compiled.py). The test
command runs these tests with the build, and again on the pure-Python file alone
(AGON_PURE_ENGINE=1, its pass 1b).
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine_common.builds import Build
from games.pentagame import compiled, movegen
from games.pentagame.movegen import code_to_move
from games.pentagame.playout import complete
from games.pentagame.rules import PLAYABLE_VARIANTS, Position


def _from_source() -> ModuleType:
    """movegen.py itself, imported under another name beside the module in use."""
    spec = importlib.util.spec_from_file_location(
        "games.pentagame._movegen_source", compiled.HERE / "movegen.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCE = _from_source()


def test_the_package_uses_the_compiled_build_unless_the_pure_engine_is_asked_for() -> None:
    assert not SOURCE._COMPILED
    if compiled.wanted():
        assert compiled.BUILD.current(), (
            "no build of today's movegen.py: bash config/bin/engine-build"
        )
        assert movegen._COMPILED
        assert movegen.__file__ == str(compiled.BUILD.extension())
    else:
        assert not movegen._COMPILED
        assert movegen.__file__ == str(compiled.HERE / "movegen.py")


def test_a_build_is_used_only_while_its_stamp_matches_the_sources(tmp_path: Path) -> None:
    for name in compiled.BUILD.sources:
        shutil.copy(compiled.HERE / name, tmp_path / name)
    build = Build(tmp_path, "movegen", compiled.BUILD.sources)
    build.directory.mkdir()
    built = build.source_stamp()
    build.stamp.write_text(built)
    assert not build.current()  # no build
    build.extension().write_bytes(b"")
    assert build.current()
    with (tmp_path / "movegen.pxd").open("a") as pxd:
        pxd.write("# an edit\n")
    assert build.source_stamp() != built
    assert not build.current()  # built from other sources: never used
    build.stamp.write_text(build.source_stamp())
    assert build.current()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PLAYABLE_VARIANTS), st.integers(0, 10**9))
def test_the_move_generator_in_use_lists_what_its_source_lists_at_every_ply(
    variant: tuple[int, str], seed: int
) -> None:
    """The same codes in the same order (random playouts depend on the order), at every
    ply of a whole random game; the game is played with the source's moves."""
    players, name = variant
    rng = random.Random(seed)
    game = Position.start(players, name)
    plies = 0
    while not game.finished and plies < 3000:
        expected = SOURCE.legal_codes(game)
        assert movegen.legal_codes(game) == expected, f"ply {plies + 1}"
        if not expected:
            break
        game.apply(complete(game, code_to_move(game, rng.choice(expected)), rng))
        plies += 1
    assert plies > 0
