"""The book's dropped score (section 21): Pentagame's points per game, Django-free.

The dropped score is zero-sum: over one game it always adds up to ``target * sides``,
so two players gain nothing by agreeing on a draw. See docs/scoring.md for the
formulas with worked examples. It is the family's shared scale rather than one engine's
rules: the ratings rate every game of the family by it (another game's result is put on
its 0..3 scale first, docs/ratings.md), and tournaments/scoring.py, the team standings
and the registry's Pentagame points use it from here. It imports nothing, so the layers
above may import it beside games/rulesets.py (tests/test_house.py).
"""

from __future__ import annotations

from collections.abc import Sequence


def dropped_scores(
    out: Sequence[int],
    target: int = 3,
    teams: Sequence[Sequence[int]] | None = None,
) -> list[float]:
    """Per-seat dropped score of one game.

    ``out`` holds the pieces out per seat. For two sides this is the book's rule, own
    pieces out plus the pieces the opponent failed to bring out (3:3, 4:2, 5:1, 6:0);
    for n sides it generalises to ``out_i + mean over opponents j of (target - out_j)``.
    With ``teams`` (lists of seat indexes) the sides are teams: a team's pieces out are
    the sum of its members', and every member gets the team's score (section 19:
    2 vs 2 play to 5 pieces per team, so pass ``target=5``). A team may end past the
    target (4 out, then both partners bring one out in the round played out: 6); with
    two sides the score is then still ``out_i + (target - out_j)``, kept to
    0..2 * target, so the game stays zero-sum (docs/scoring.md).
    """
    if teams is None:
        # Hot path (standings of big fields): one seat per side, no team bookkeeping.
        n = len(out)
        if n < 2:
            raise ValueError("a game needs at least two sides")
        for pieces in out:
            if not 0 <= pieces <= target:
                raise ValueError(f"pieces out must lie in 0..{target}, got {pieces}")
        missing = target * n - sum(out)
        return [p + (missing - (target - p)) / (n - 1) for p in out]
    sides = [list(team) for team in teams]
    seats = sorted(seat for team in sides for seat in team)
    if seats != list(range(len(out))):
        raise ValueError("teams must name every seat exactly once")
    if len(sides) < 2:
        raise ValueError("a game needs at least two sides")
    side_out = [sum(out[seat] for seat in side) for side in sides]
    for side, pieces in zip(sides, side_out, strict=True):
        # A side had fewer than ``target`` out before the deciding round and each of its
        # seats moves once in it (section 2: the round is played out), so it ends with
        # at most target - 1 + seats: 6 for a 2 vs 2 team, the target for one player.
        most = target - 1 + len(side)
        if not 0 <= pieces <= most:
            raise ValueError(f"pieces out of a side must lie in 0..{most}, got {pieces}")
    over = any(pieces > target for pieces in side_out)
    if over and len(sides) != 2:
        raise ValueError(f"only two sides can play past the target of {target}")
    total_missing = sum(target - pieces for pieces in side_out)
    n_opponents = len(sides) - 1
    side_score = [pieces + (total_missing - (target - pieces)) / n_opponents for pieces in side_out]
    if over:
        # Past the target the opponent "failed" a negative number of pieces; the two
        # scores still sum to 2 * target, and are kept to the book's range 0..2 * target
        # (a 6:0 is the most a game gives) by moving the same amount from one to the other.
        high = max(side_score)
        if high > 2 * target:
            side_score = [
                min(s, 2.0 * target) if s == high else s + high - 2 * target for s in side_score
            ]
    result = [0.0] * len(out)
    for side, score in zip(sides, side_score, strict=True):
        for seat in side:
            result[seat] = score
    return result
