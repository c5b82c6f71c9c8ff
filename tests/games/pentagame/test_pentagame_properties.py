"""Properties over random legal games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pentagame import Position, apply_move, format_move, legal_moves, parse_move, replay
from games.pentagame.board import ADJ
from games.pentagame.movegen import code_to_move, legal_codes
from games.pentagame.notation import PASS
from games.pentagame.playout import complete, random_game
from games.pentagame.rules import BLACK_BASE, GREY_BASE

VARIANTS = [
    (2, "standard"),
    (3, "standard"),
    (4, "standard"),
    (4, "teams"),
    (5, "standard"),
    (2, "inside-out"),
    (3, "inside-out"),
]
games_st = st.tuples(st.sampled_from(VARIANTS), st.integers(0, 10**9))


def check_invariants(game: Position) -> None:
    r = game.rules
    # Conservation: every piece is on the board or out, exactly as the out lists say.
    for seat in range(r.players):
        gone = sorted(r.colour[p] for p in r.seat_pieces[seat] if game.pos[p] == -1)
        assert gone == sorted(game.out[seat])
    assert all(s >= 0 for s in game.black) and len(game.black) == 5
    assert len(game.grey) == 5
    # No two things on one stop, except pieces on the start nodes.
    things: dict[int, list[int]] = {}
    for i, s in enumerate(game.pos):
        if s >= 0:
            things.setdefault(s, []).append(i)
    for i, s in enumerate(game.black):
        things.setdefault(s, []).append(BLACK_BASE + i)
    for i, s in enumerate(game.grey):
        if s >= 0:
            things.setdefault(s, []).append(GREY_BASE + i)
    for s, here in things.items():
        if len(here) > 1:
            assert s in r.start and all(t < BLACK_BASE for t in here), (s, here)
    # The incremental bookkeeping matches a position rebuilt from scratch.
    fresh = Position(game.state())
    assert fresh.cnt == game.cnt and fresh.occ == game.occ
    assert [c for c, n in zip(fresh.cell, fresh.cnt, strict=True) if n == 1] == [
        c for c, n in zip(game.cell, game.cnt, strict=True) if n == 1
    ]
    assert fresh.on_goal == game.on_goal


def naive_targets(frm: int, occ: int) -> set[int]:
    out: set[int] = set()
    seen = {frm}
    stack = [frm]
    while stack:
        s = stack.pop()
        for t in ADJ[s]:
            if t not in seen:
                seen.add(t)
                out.add(t)
                if not (occ >> t) & 1:
                    stack.append(t)
    out.discard(frm)
    return out


@settings(max_examples=25, deadline=None)
@given(games_st)
def test_random_games_keep_the_invariants(case: tuple[tuple[int, str], int]) -> None:
    (players, variant), seed = case
    rng = random.Random(seed)
    game = Position.start(players, variant)
    state = game.state()
    moves: list[str] = []
    for _ in range(120):
        if game.finished:
            assert legal_moves(game) == []
            break
        codes = legal_codes(game)
        generated = [code_to_move(game, c) for c in codes] or [PASS]
        assert len({format_move(m) for m in generated}) == len(generated)
        # Move generation agrees with a plain search of the board.
        if codes and codes[0] & 127 != 127:
            by_from: dict[int, set[int]] = {}
            for c in codes:
                by_from.setdefault((c >> 7) & 127, set()).add(c & 127)
            for frm, tos in by_from.items():
                expected = naive_targets(frm, game.occ)
                last = game.last[game.seat]
                assert tos <= expected and len(expected - tos) <= (1 if last else 0)
        # Every generated move applies once completed, and its text reads back.
        for m in rng.sample(generated, min(3, len(generated))):
            full = complete(game, m, rng)
            assert parse_move(format_move(full)) == full
            apply_move(state, full)
        move = complete(game, rng.choice(generated), rng)
        game.apply(move)
        state = game.state()
        moves.append(format_move(move))
        check_invariants(game)
    res1 = replay({"players": players, "variant": variant, "moves": moves})
    res2 = replay({"players": players, "variant": variant, "moves": moves})
    assert res1.ok and res1 == res2 and res1.state == res2.state == game.state()


@settings(max_examples=10, deadline=None)
@given(games_st)
def test_replay_is_deterministic_and_complete_games_finish(
    case: tuple[tuple[int, str], int],
) -> None:
    (players, variant), seed = case
    moves = random_game(players, variant, seed=seed, max_plies=2000)
    res = replay({"players": players, "variant": variant, "moves": moves})
    assert res.ok and res.plies == len(moves)
    assert res == replay({"players": players, "variant": variant, "moves": list(moves)})
    if res.finished:
        assert res.plies % players == 0 and res.winners
