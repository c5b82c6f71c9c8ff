"""The result of a position: tiles per level per seat, a comparable key, the winners.

`key` packs a seat's tiles per level into one number, two decimal digits per level, the
deciding level first: 30405 is 3 tiles on level 3, 4 on level 2 and 5 on level 1. A
larger key wins (docs/rules-pent-up.md). In the misère variant the lowest level decides,
so level 1 comes first. With 4 players (2 vs 2) both members of a pair get the better
of their two keys, since "the pair whose member is the winning player wins the game".
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import State


@dataclass(frozen=True, slots=True)
class Result:
    """levels: per seat, tiles on level 1, 2, ... up to the highest level. out: per
    seat, the key (the pair's key with 4 players). winners: 1-based seats with the
    best key once the game is finished (both members of a winning pair)."""

    finished: bool
    levels: tuple[tuple[int, ...], ...]
    out: tuple[int, ...]
    winners: tuple[int, ...]


def level_key(counts: tuple[int, ...], misere: bool) -> int:
    digits = counts if misere else tuple(reversed(counts))
    key = 0
    for n in digits:
        key = key * 100 + n
    return key


def result(state: State) -> Result:
    top = max((t.level for t in state.tiles), default=0)
    levels = tuple(
        tuple(
            sum(1 for t in state.tiles if t.seat == seat and t.level == lv)
            for lv in range(1, top + 1)
        )
        for seat in range(1, state.players + 1)
    )
    keys = [level_key(c, state.variant == "misere") for c in levels]
    if state.players == 4:
        keys = [max(keys[s], keys[(s + 2) % 4]) for s in range(4)]
    winners: tuple[int, ...] = ()
    if state.finished:
        best = max(keys)
        winners = tuple(s + 1 for s, k in enumerate(keys) if k == best)
    return Result(state.finished, levels, tuple(keys), winners)
