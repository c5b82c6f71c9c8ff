"""Rating a history: periods of games in order, from the players' prior states.

This is what the command line and the Celery jobs call. Bad games are skipped with a
reason (logged and returned), never raised: one mistyped result must not block the
queue. The same periods, priors and parameters always give bit-identical states.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .systems.base import GameChange, RatedGame, RatingSystem, State

S = TypeVar("S", bound=State)

logger = logging.getLogger("ratings")


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A game record that could not even be read into a ``RatedGame``."""

    reason: str


@dataclass(frozen=True, slots=True)
class Skipped:
    """A game (``game`` is its position in the period) or a whole period (``game`` is
    None) that was not rated, and why."""

    period: int
    game: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class RatedPeriod(Generic[S]):
    """The outcome of one period: every known player's state after it, the per-game
    ratings (``GameChange.index`` is the game's position in the input period) and what
    was skipped. A skipped period leaves all states as they were."""

    index: int
    states: dict[str, S]
    games: tuple[GameChange, ...]
    skipped: tuple[Skipped, ...]


def rate_one_period(
    system: RatingSystem[S],
    states: Mapping[str, S],
    games: Sequence[RatedGame | Unreadable],
    index: int = 0,
) -> RatedPeriod[S]:
    """Rate one period from ``states`` (players missing there start from defaults)."""
    valid: list[RatedGame] = []
    positions: list[int] = []
    skipped: list[Skipped] = []
    for position, game in enumerate(games):
        reason = game.reason if isinstance(game, Unreadable) else system.check_game(game)
        if reason is None and isinstance(game, RatedGame):
            valid.append(game)
            positions.append(position)
        else:
            skipped.append(_skip(index, position, reason or "unreadable game"))
    if not valid:
        why = "the period has no games" if not games else "the period has no valid games"
        skipped.append(_skip(index, None, why))
        return RatedPeriod(index, dict(states), (), tuple(skipped))
    result = system.rate_checked(states, valid)
    if len(valid) == len(games):
        changes = result.games  # nothing skipped: the indexes are the input positions
    else:
        changes = tuple(
            GameChange(positions[change.index], change.before, change.after)
            for change in result.games
        )
    return RatedPeriod(index, result.states, changes, tuple(skipped))


def iter_replay(
    system: RatingSystem[S],
    priors: Mapping[str, S],
    periods: Iterable[Sequence[RatedGame | Unreadable]],
    first_index: int = 0,
) -> Iterator[RatedPeriod[S]]:
    """Rate ``periods`` in order, starting from ``priors``; yields each period's outcome
    as soon as it is computed, so a long recomputation can be written out as it goes."""
    states: Mapping[str, S] = priors
    for offset, games in enumerate(periods):
        rated = rate_one_period(system, states, games, first_index + offset)
        states = rated.states
        yield rated


def replay(
    system: RatingSystem[S],
    priors: Mapping[str, S],
    periods: Iterable[Sequence[RatedGame | Unreadable]],
    first_index: int = 0,
) -> list[RatedPeriod[S]]:
    """All of ``iter_replay`` as a list."""
    return list(iter_replay(system, priors, periods, first_index))


def _skip(period: int, game: int | None, reason: str) -> Skipped:
    where = f"period {period}" if game is None else f"period {period}, game {game}"
    logger.warning("%s skipped: %s", where, reason)
    return Skipped(period, game, reason)
