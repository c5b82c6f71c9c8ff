"""The compiled move generator and replay loop against the .py files they are built from.

`config/bin/engine-build` compiles games/pentagame/movegen.py and playloop.py with
Cython; the package uses those builds while they match the sources
(games/pentagame/compiled.py). The test command runs these tests with the builds, and
again on the pure-Python files alone (AGON_PURE_ENGINE=1, its pass 1b).
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine_common.builds import Build
from games.pentagame import compiled, movegen, playloop
from games.pentagame.errors import PentagameError
from games.pentagame.movegen import code_to_move, legal_codes
from games.pentagame.notation import PASS, format_move, parse_move
from games.pentagame.playout import complete, random_game
from games.pentagame.rules import PLAYABLE_VARIANTS, Position


def _from_source(name: str) -> ModuleType:
    """A .py file itself, imported under another name beside the module in use."""
    spec = importlib.util.spec_from_file_location(
        f"games.pentagame._{name}_source", compiled.HERE / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCE = _from_source("movegen")
PLAY_SOURCE = _from_source("playloop")


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


def test_the_package_uses_the_compiled_replay_loop_unless_the_pure_engine_is_asked_for() -> None:
    assert not PLAY_SOURCE._COMPILED
    if compiled.wanted():
        assert compiled.PLAY_BUILD.current(), (
            "no build of today's playloop.py: bash config/bin/engine-build"
        )
        assert playloop._COMPILED
        assert playloop.__file__ == str(compiled.PLAY_BUILD.extension())
    else:
        assert not playloop._COMPILED
        assert playloop.__file__ == str(compiled.HERE / "playloop.py")


def test_the_builds_go_on_the_path_only_when_every_one_is_current(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """They share a folder: a stale one would otherwise be imported before its source."""
    states = {compiled.BUILD.module: True, compiled.PLAY_BUILD.module: True}
    monkeypatch.setattr(Build, "current", lambda build: states[build.module])
    assert compiled.current()
    for module in states:
        states[module] = False
        assert not compiled.current()
        states[module] = True


@pytest.mark.parametrize("build", compiled.BUILDS, ids=lambda b: b.module)
def test_a_build_is_used_only_while_its_stamp_matches_the_sources(
    tmp_path: Path, build: Build
) -> None:
    for name in build.sources:
        shutil.copy(compiled.HERE / name, tmp_path / name)
    pxd_name = next(name for name in build.sources if name.endswith(".pxd"))
    build = Build(tmp_path, build.module, build.sources)
    build.directory.mkdir()
    built = build.source_stamp()
    build.stamp.write_text(built)
    assert not build.current()  # no build
    build.extension().write_bytes(b"")
    assert build.current()
    with (tmp_path / pxd_name).open("a") as pxd:
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


def _record(players: int, variant: str, seed: int) -> list[str]:
    """A random game's texts, often spoiled from some ply on: a different legal move
    played there (so later moves may be illegal), another ply's text, a named piece, or
    text that is no move; each engine must then stop at the same ply for the same
    reason."""
    rng = random.Random(seed)
    moves = random_game(players, variant, seed, rng.choice((40, 300, 3000)))
    if rng.random() < 0.25 or not moves:
        return moves
    at = rng.randrange(len(moves))
    how = rng.randrange(4)
    if how == 0:
        game = Position.start(players, variant)
        for text in moves[:at]:
            game.apply(parse_move(text))
        codes = legal_codes(game)
        if codes:
            move = complete(game, code_to_move(game, rng.choice(codes)), rng)
            moves[at] = format_move(move)
    elif how == 1:
        moves[at] = rng.choice(moves)
    elif how == 2:
        frm, sep, to = moves[at].partition("-")
        moves[at] = f"{frm}[{rng.choice('wbryg')}]{sep}{to}" if sep else "pass"
    else:
        moves[at] = rng.choice(("", "W", "W-", "hello", "Wx", "W-W", "pass", "Gz"))
    return moves


def _one_by_one(game: Position, moves: list[str]) -> tuple[int, str] | None:
    """What Position.play promises: apply's outcome, move by move."""
    for i, text in enumerate(moves):
        try:
            game.apply(parse_move(text))
        except PentagameError as exc:
            return i, exc.reason
    return None


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLAYABLE_VARIANTS), st.integers(0, 10**9))
def test_the_replay_loop_in_use_plays_as_its_source_and_as_apply_at_every_ply(
    variant: tuple[int, str], seed: int
) -> None:
    """The loop in use (the build, or the .py file in the pure pass), its source and
    `apply` one move at a time: the same state after every ply, and the same first
    illegal move with the same reason; and a whole record in one call as ply by ply."""
    players, name = variant
    moves = _record(players, name, seed)
    in_use = Position.start(players, name)
    source = Position.start(players, name)
    plain = Position.start(players, name)
    failed = None
    for i, text in enumerate(moves):
        failed = playloop.play(in_use, [text])
        assert PLAY_SOURCE.play(source, [text]) == failed, f"ply {i + 1}"
        assert _one_by_one(plain, [text]) == failed, f"ply {i + 1}"
        assert in_use.state() == source.state() == plain.state(), f"ply {i + 1}"
        if failed is not None:
            failed = (i, failed[1])
            break
    whole = Position.start(players, name)
    whole_source = Position.start(players, name)
    assert playloop.play(whole, moves) == failed
    assert PLAY_SOURCE.play(whole_source, moves) == failed
    assert whole.state() == whole_source.state() == in_use.state()
    # The counters kept in the loop's locals were written back as the state says.
    fresh = Position(whole.state())
    assert (fresh.occ, fresh.cnt, fresh.on_goal) == (whole.occ, whole.cnt, whole.on_goal)


def test_the_replay_loop_passes_and_stops_on_a_finished_game() -> None:
    moves = random_game(2, "standard", 7, 3000)
    game = Position.start(2, "standard")
    assert playloop.play(game, moves) is None and game.finished
    assert playloop.play(game, [format_move(PASS)]) == (0, "the game is over")
