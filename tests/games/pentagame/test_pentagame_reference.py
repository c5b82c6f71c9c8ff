"""The engine against the plain reference of `bench/engine_reference.py`, ply by ply.

The reference copies the state for every move and runs a fresh breadth-first search for
every move's reachable stops; at every ply of small random games of every variant the
legal-move sets, the whole state and the winners must agree.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.engine_reference import RefIllegal, check_agreement, ref_apply, ref_start
from games.pentagame import Position
from games.pentagame.errors import IllegalMove
from games.pentagame.movegen import code_to_move, legal_codes
from games.pentagame.notation import parse_move
from games.pentagame.playout import complete, random_game
from games.pentagame.rules import PLAYABLE_VARIANTS

VARIANTS = PLAYABLE_VARIANTS


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.integers(20, 400))
def test_engine_agrees_with_the_plain_reference(
    variant: tuple[int, str], seed: int, plies: int
) -> None:
    players, name = variant
    moves = random_game(players, name, seed=seed, max_plies=plies)
    assert check_agreement({"players": players, "variant": name, "moves": moves}) == len(moves)


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_full_games_agree(players: int, variant: str) -> None:
    moves = random_game(players, variant, seed=players * 7 + len(variant), max_plies=3000)
    check_agreement({"players": players, "variant": variant, "moves": moves})


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.integers(0, 200))
def test_engine_and_reference_reject_the_same_moves(
    variant: tuple[int, str], seed: int, plies: int
) -> None:
    """A legal move of one piece played by another piece, or onto another stop, is
    accepted by both or rejected by both (the fast and the full paths of `apply`)."""
    players, name = variant
    moves = random_game(players, name, seed=seed, max_plies=plies)
    game = Position.start(players, name)
    ref = ref_start(players, name)
    for text in moves:
        move = parse_move(text)
        game.apply(move)
        ref = ref_apply(ref, move)
    if game.finished:
        return
    rng = random.Random(seed)
    codes = legal_codes(game)
    for _ in range(20):
        if not codes:
            break
        move = complete(game, code_to_move(game, rng.choice(codes)), rng)
        stops = list(range(100))
        changes: list[dict[str, Any]] = [
            {"to": rng.choice(stops)},
            {"frm": rng.choice(stops)},
            {"kind": rng.choice(["-", "x", "s", "s!"])},
            {"black": rng.choice([None, *stops])},
            {"grey": rng.choice([None, *stops])},
            {},
        ]
        mutated = move._replace(**rng.choice(changes))
        trial = Position(game.state())
        try:
            trial.apply(mutated)
            engine_ok = True
        except IllegalMove:
            engine_ok = False
        try:
            after = ref_apply(ref, mutated)
            ref_ok = True
        except RefIllegal:
            ref_ok = False
        assert engine_ok == ref_ok, (mutated, engine_ok)
        if engine_ok:
            state = trial.state()
            assert state.pieces == tuple(after.pieces)
            assert state.black == tuple(after.black) and state.grey == tuple(after.grey)
