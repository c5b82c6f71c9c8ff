"""Per-game history for systems that rate a whole period at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import GameChange, RatedGame, State


def chain_changes(
    games: Sequence[RatedGame],
    before: Mapping[str, float],
    after: Mapping[str, State],
    shares: Mapping[str, Mapping[int, float]],
) -> tuple[GameChange, ...]:
    """Per-game ratings for a period rated at once. ``before`` holds the ratings at
    the start of the period, ``shares`` each player's change per game index; each game
    adds its share to the running rating, and a player's last game ends exactly on her
    period rating."""
    last: dict[str, int] = {}
    for index, game in enumerate(games):
        for player in game.seats:
            last[player] = index
    running = {player: before[player] for player in last}
    changes = []
    for index, game in enumerate(games):
        start = {player: running[player] for player in game.seats}
        end = {}
        for player in game.seats:
            if last[player] == index:
                end[player] = float(after[player].rating)
            else:
                end[player] = running[player] + shares[player].get(index, 0.0)
            running[player] = end[player]
        changes.append(GameChange(index, start, end))
    return tuple(changes)
