"""The plain data every rating system reads and writes, and the interface they share.

A game lists its players in moving order (``seats``), the pieces each seat brought out
(``out``) and, for team play, which seats form a side (``teams``). A rating period is a
sequence of games rated together; all systems take the players' states before the period
and return the states after it, plus each game's share of the change for history pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished game. ``out`` is None when no result was entered; such a game and
    any other malformed one is refused by ``RatingSystem.check_game``, not here, so the
    caller can skip it with a reason instead of failing on construction."""

    seats: tuple[str, ...]
    out: tuple[int, ...] | None
    teams: tuple[tuple[int, ...], ...] | None = None


class State(Protocol):
    """Every system's player state has a rating on the scale the system displays."""

    @property
    def rating(self) -> float: ...


S = TypeVar("S", bound=State)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GameChange:
    """The rating of each player of one game before and after it.

    For systems that rate a whole period at once (Glicko-2, Elo), ``after - before`` is
    this game's exact additive share of the period's change, and the games of a period
    are chained in the given order, so a player's last ``after`` is her period rating.
    """

    index: int
    before: Mapping[str, float]
    after: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class PeriodResult(Generic[T]):
    """States of all known players after a period, and per-game changes in game order."""

    states: dict[str, T]
    games: tuple[GameChange, ...]


class RatingSystem(Protocol[S]):
    """What a rating system offers; see glicko2.py, elo.py and openskill_pl.py."""

    name: str

    def default_state(self) -> S:
        """The state of a player never rated before."""
        ...

    def check_game(self, game: RatedGame) -> str | None:
        """Why ``game`` cannot be rated, or None if it can."""
        ...

    def rate_period(self, states: Mapping[str, S], games: Sequence[RatedGame]) -> PeriodResult[S]:
        """Rate one period of valid games. Players missing from ``states`` start from
        ``default_state()``; the result holds every player of ``states`` and of
        ``games`` (players who did not play may change too, e.g. Glicko-2's RD)."""
        ...

    def rate_checked(self, states: Mapping[str, S], games: Sequence[RatedGame]) -> PeriodResult[S]:
        """``rate_period`` for games that ``check_game`` has already accepted (the
        replay checks every game once, to skip bad ones with a reason)."""
        ...

    def win_probabilities(self, states: Mapping[str, S], game: RatedGame) -> list[float]:
        """Chance of each side (seat, or team when ``game.teams`` is set) to finish
        first, from the states before the game; ``game.out`` is ignored."""
        ...

    def pairwise_expectation(
        self, states: Mapping[str, S], game: RatedGame, a: int, b: int
    ) -> float:
        """Expected share of side ``a`` in its encounter with side ``b`` (0..1)."""
        ...

    def params_to_json(self) -> dict[str, Any]: ...

    def state_to_json(self, state: S) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """A state from JSON; missing fields take the defaults; raises ValueError."""
        ...


def rate_checked_period(
    system: RatingSystem[S], states: Mapping[str, S], games: Sequence[RatedGame]
) -> PeriodResult[S]:
    """``rate_period`` for every system: refuse the period if any game is bad (with the
    reason), then rate it; nothing is rated when a game is refused."""
    for game in games:
        problem = system.check_game(game)
        if problem is not None:
            raise ValueError(problem)
    return system.rate_checked(states, games)
