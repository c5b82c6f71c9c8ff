"""PentaCosmos: the board's numbers and one hand-made position per rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.pentacosmos import (
    GEMS,
    SPACES,
    IllegalMove,
    Move,
    NotationError,
    Position,
    State,
    format_move,
    gem_points,
    parse_move,
    result,
)
from games.pentacosmos.board import ADJ
from games.pentacosmos.cairo import build


def gem(kind: str) -> int:
    return next(k for k, g in enumerate(GEMS) if g.kind == kind)


def outside(k: int) -> list[int]:
    """Spaces in no gem's ring."""
    rings = {s for g in GEMS for s in g.ring}
    return [s for s in range(1, SPACES + 1) if s not in rings]


def position(
    players: int,
    tokens: dict[int, int],
    variant: str = "standard",
    gems: dict[int, int] | None = None,
    seat: int = 1,
    moves_left: int = 1,
) -> Position:
    """A phase-II position with the given tokens (space -> seat) and captured gems."""
    board = [0] * (SPACES + 1)
    for s, owner in tokens.items():
        board[s] = owner
    captured = [0] * len(GEMS)
    for k, owner in (gems or {}).items():
        captured[k] = owner
    state = State(
        players, variant, 30, tuple(board), (30,) * players, tuple(captured), seat, moves_left,
        30 * players, False,
    )  # fmt: skip
    return Position.from_state(state)


def reason(game: Position, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        game.apply(parse_move(text))
    return info.value.reason


# -- the board --------------------------------------------------------------------------


def test_the_board_meets_every_number_of_the_rules() -> None:
    kinds = [g.kind for g in GEMS]
    assert [kinds.count(k) for k in ("sun", "moon", "star", "crystal")] == [10, 10, 6, 5]
    values = {g.kind: {g.value} for g in GEMS}
    for g in GEMS:
        values[g.kind].add(g.value)
    assert values == {"sun": {10}, "moon": {8}, "star": {5}, "crystal": {4}}
    assert sum(g.value for g in GEMS) == 230
    assert len(GEMS) == 31


def test_the_board_is_a_consistent_graph() -> None:
    for s in range(1, SPACES + 1):
        assert s not in ADJ[s] and 1 <= len(ADJ[s]) <= 5
        assert all(s in ADJ[t] for t in ADJ[s])
    assert SPACES >= 4 * 30 + 50


def test_board_json_is_what_the_construction_builds() -> None:
    path = Path(__file__).resolve().parents[3] / "games" / "pentacosmos" / "board.json"
    assert json.loads(path.read_text()) == json.loads(json.dumps(build()))


# -- phase I ----------------------------------------------------------------------------


def test_phase_one_places_tokens_and_captures_without_an_extra_turn() -> None:
    k = gem("crystal")
    ring = GEMS[k].ring
    spare = outside(k)
    game = Position.start(2)
    for i, s in enumerate(ring):
        game.apply(Move("place", (s,)))
        if i == len(ring) - 1:
            assert game.gems[k] == 1
            assert game.seat == 2  # no extra turn in phase I
        else:
            assert game.gems[k] == 0
            game.apply(Move("place", (spare[i],)))
    assert "space" in reason(game, str(ring[0])) and "taken" in reason(game, str(ring[0]))
    assert "no space 999" in reason(game, "999")
    assert "phase I" in reason(game, f"{spare[-1]}-{ADJ[spare[-1]][0]}")


def test_mixed_ring_captures_nothing() -> None:
    k = gem("crystal")
    ring = GEMS[k].ring
    game = Position.start(2)
    for s in ring:
        game.apply(Move("place", (s,)))
    assert game.gems[k] == 0


def test_phase_two_starts_when_all_tokens_are_placed() -> None:
    game = Position.start(2)
    free = [s for s in range(1, SPACES + 1)]
    for s in free[:60]:
        assert game.phase == 1
        game.apply(Move("place", (s,)))
    assert game.phase == 2 and game.seat == 1
    assert all(m.kind == "path" for m in game.legal_moves())


# -- phase II ---------------------------------------------------------------------------


def test_a_token_steps_to_a_free_space_next_to_it() -> None:
    a = 100
    b = ADJ[a][0]
    game = position(2, {a: 1})
    game.apply(parse_move(f"{a}-{b}"))
    assert game.board[a] == 0 and game.board[b] == 1 and game.seat == 2
    far = next(s for s in range(1, SPACES + 1) if s not in ADJ[b] and s != b)
    game2 = position(2, {a: 1})
    assert "do not share an edge" in reason(game2, f"{a}-{far}")


def test_a_string_move_pushes_any_tokens_one_space_along_the_path() -> None:
    a = 100
    b = ADJ[a][0]
    c = next(t for t in ADJ[b] if t != a and t not in ADJ[a])
    d = next(t for t in ADJ[c] if t not in (a, b))
    game = position(2, {a: 1, b: 2, c: 1})
    game.apply(parse_move(f"{a}-{b}-{c}-{d}"))
    assert (game.board[a], game.board[b], game.board[c], game.board[d]) == (0, 1, 2, 1)


def test_string_move_errors() -> None:
    a = 100
    b = ADJ[a][0]
    c = next(t for t in ADJ[b] if t != a and t not in ADJ[a])
    game = position(2, {a: 1, b: 2, c: 1})
    assert "move back upon itself" in reason(game, f"{a}-{b}-{a}")
    assert "move one of your own" in reason(game, f"{b}-{a}")
    assert "ends on a free space" in reason(game, f"{a}-{b}")
    d = next(t for t in ADJ[c] if t not in (a, b))
    assert "contiguous" in reason(position(2, {a: 1, b: 2}), f"{a}-{b}-{c}-{d}")


def _ring_setup(kind: str) -> tuple[int, list[int], int, int]:
    """A gem, its ring but one space `gap`, and a space `src` next to the gap outside
    every ring."""
    for k, g in enumerate(GEMS):
        if g.kind != kind:
            continue
        for gap in g.ring:
            rings = {s for h in GEMS for s in h.ring}
            src = [t for t in ADJ[gap] if t not in rings]
            if src:
                return k, [s for s in g.ring if s != gap], gap, src[0]
    raise AssertionError("no setup")


def test_a_capture_in_phase_two_gives_an_extra_move() -> None:
    k, ring, gap, src = _ring_setup("star")
    game = position(2, {**{s: 1 for s in ring}, src: 1})
    game.apply(parse_move(f"{src}-{gap}"))
    assert game.gems[k] == 1 and game.seat == 1 and game.moves_left == 1
    assert result(game.state()).out == (5, 0)
    # the extra move is an ordinary move; no capture, so the turn passes
    free = next(t for t in ADJ[gap] if game.board[t] == 0 and t != src)
    game.apply(parse_move(f"{gap}-{free}"))
    assert game.seat == 2 and game.gems[k] == 1  # a captured gem stays captured


def test_a_capture_for_the_opponent_gives_no_extra_move() -> None:
    k, ring, gap, src = _ring_setup("star")
    back = next(t for t in ADJ[src] if t != gap and t not in GEMS[k].ring)
    game = position(2, {**{s: 2 for s in ring}, src: 2, back: 1})
    game.apply(parse_move(f"{back}-{src}-{gap}"))  # pushes blue's token into the gap
    assert game.gems[k] == 2 and game.seat == 2 and game.moves_left == 1


def test_116_points_win_at_once() -> None:
    suns = [k for k, g in enumerate(GEMS) if g.kind == "sun"]
    k, ring, gap, src = _ring_setup("crystal")
    owned = {s: 1 for s in suns[:10]} | {gem("moon"): 1}  # 100 + 8 = 108
    moons = [j for j, g in enumerate(GEMS) if g.kind == "moon"]
    owned[moons[1]] = 2
    game = position(3, {**{s: 1 for s in ring}, src: 1}, gems=owned)
    assert result(game.state()).out[0] == 108
    game.apply(parse_move(f"{src}-{gap}"))
    assert result(game.state()).out[0] == 112 and not game.finished
    game2 = position(3, {**{s: 1 for s in ring}, src: 1}, gems=owned | {gem("star"): 1})
    game2.apply(parse_move(f"{src}-{gap}"))  # 113 + 4 = 117
    res = result(game2.state())
    assert game2.finished and res.winners == (1,) and res.out[0] == 117
    assert "game is over" in reason(game2, f"{gap}-{src}")


def test_with_more_players_the_game_ends_when_all_gems_are_taken() -> None:
    k, ring, gap, src = _ring_setup("crystal")
    others = {j: 1 + j % 3 for j in range(len(GEMS)) if j != k}
    game = position(3, {**{s: 2 for s in ring}, src: 2}, gems=others, seat=2)
    game.apply(parse_move(f"{src}-{gap}"))
    assert game.finished
    res = result(game.state())
    assert sum(res.out) == 230 and max(res.out) < 116
    assert res.winners == (1 + res.out.index(max(res.out)),)


def test_teams_capture_with_both_members_tokens_and_share_points() -> None:
    k, ring, gap, src = _ring_setup("star")
    tokens = {s: (1 if i % 2 else 3) for i, s in enumerate(ring)} | {src: 1}
    game = position(4, tokens, variant="teams")
    game.apply(parse_move(f"{src}-{gap}"))
    assert game.gems[k] == 1 and game.seat == 1  # extra move for the team's capture
    assert result(game.state()).out == (5, 0, 5, 0)


def test_coin_flip_variant_records_the_flip() -> None:
    a = 100
    b = ADJ[a][0]
    c = next(t for t in ADJ[b] if t != a)
    game = position(2, {a: 1}, variant="coin", moves_left=0)
    assert [format_move(m) for m in game.legal_moves()] == ["coin:1", "coin:2"]
    assert "coin flip of this turn comes first" in reason(game, f"{a}-{b}")
    game.apply(parse_move("coin:2"))
    game.apply(parse_move(f"{a}-{b}"))
    assert game.seat == 1
    assert "no coin flip is due" in reason(game, "coin:1")
    game.apply(parse_move(f"{b}-{c}"))
    assert game.seat == 2 and game.moves_left == 0
    game.apply(parse_move("coin:1"))
    assert game.moves_left == 1


def test_pass_only_without_a_move() -> None:
    game = position(2, {100: 1})
    assert "may not pass" in reason(game, "pass")
    # a token walled in by gem spaces and the border alone cannot move: fill its cluster
    full = {s: 2 for s in range(1, SPACES + 1)}
    full[100] = 1
    full[ADJ[100][0]] = 1
    blocked = position(2, full)
    assert [format_move(m) for m in blocked.legal_moves()] == ["pass"]
    blocked.apply(parse_move("pass"))
    assert blocked.seat == 2


def test_setups() -> None:
    for players, variant, tokens in [(3, "teams", 30), (5, "standard", 30), (2, "x", 30),
                                     (2, "standard", 25)]:  # fmt: skip
        with pytest.raises(IllegalMove):
            Position.start(players, variant, tokens)
    assert Position.start(4, "teams+coin", 25).tokens == 25


def test_gem_points_are_zero_sum_and_never_negative() -> None:
    for out in ([120, 40], [0, 230], [80, 80, 70], [60, 50, 60, 50], [0, 0, 0, 230]):
        pts = gem_points(out)
        assert sum(pts) == pytest.approx(115 * len(out))
        assert min(pts) >= 0
    assert gem_points([120, 40]) == [155.0, 75.0]


# -- notation ---------------------------------------------------------------------------


def test_notation() -> None:
    assert parse_move("17") == Move("place", (17,))
    assert parse_move(" 17 - 18 - 25 ") == Move("path", (17, 18, 25))
    assert parse_move("COIN:2") == Move("coin", (), 2)
    assert parse_move("pass") == Move("pass")
    for text in ("17", "17-18-25", "coin:1", "pass"):
        assert format_move(parse_move(text)) == text
    for bad, words in (("", "empty"), ("17-", "not a move"), ("coin:3", "1 or 2")):
        with pytest.raises(NotationError) as info:
            parse_move(bad)
        assert words in info.value.reason
