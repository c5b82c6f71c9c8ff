"""A season's standings from its events' standings: plain data in, plain data out.

Section 21: "we consider points *per time*. We can squarely compare two and three
player games if we multiply the points of the three player table by three, and those
of the two player table by two." An event's score is already its time-weighted round
scores added up (tournaments/standings/table.py), so a 2-player and a 3-player evening
compare, and a season adds the events' scores. The organiser chooses how
(docs/scoring.md "Seasons"):

- every event counts, or only a player's best N event scores;
- a player is ranked once she played a minimum number of the season's events; the
  others are listed apart with what they have so far;
- points for taking part, added for every event played, counted among the best N or
  not.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class EventResult:
    """A player's result in one event: her score in its standings and her rank there
    (None while she is listed apart, e.g. a late entrant yet without a closed round)."""

    event: int
    player: int
    score: float
    rank: int | None


@dataclass(frozen=True)
class SeasonRules:
    best_of: int | None = None
    min_events: int = 1
    participation_points: float = 0.0

    def __post_init__(self) -> None:
        if self.best_of is not None and self.best_of < 1:
            raise ValueError("best_of counts at least one event")
        if self.min_events < 1:
            raise ValueError("min_events is at least one")
        if self.participation_points < 0:
            raise ValueError("participation points are not negative")


@dataclass(frozen=True)
class SeasonCell:
    """One event of a player's path through the season."""

    event: int
    score: float
    rank: int | None
    counted: bool


@dataclass(frozen=True)
class SeasonRow:
    rank: int | None
    player: int
    # counted + participation: what ranks the season.
    total: float
    counted: float
    participation: float
    # Every event's score added, counted or not: the first tie-break.
    all_events: float
    played: int
    # In the season's event order (its dates), only the events she played.
    cells: tuple[SeasonCell, ...]


def season_standings(
    results: Iterable[EventResult], events: Sequence[int], rules: SeasonRules
) -> tuple[list[SeasonRow], list[SeasonRow]]:
    """(ranked, apart): players with at least ``rules.min_events`` events ranked by
    total, then by all their events' scores, then by their best single event; players
    equal on all three share a rank (listed by player id, a stable order). The others,
    apart, unranked, in the same order. ``events`` is the season's order of events;
    results of events not in it are ignored."""
    order = {event: i for i, event in enumerate(events)}
    by_player: dict[int, list[EventResult]] = defaultdict(list)
    for result in results:
        if result.event in order:
            by_player[result.player].append(result)
    rows = [_row(player, played, order, rules) for player, played in by_player.items()]
    rows.sort(key=_sort_key)
    ranked = [r for r in rows if r.played >= rules.min_events]
    apart = [r for r in rows if r.played < rules.min_events]
    return _ranks(ranked), apart


def _row(
    player: int, played: list[EventResult], order: dict[int, int], rules: SeasonRules
) -> SeasonRow:
    played.sort(key=lambda r: order[r.event])
    # The best N scores count; among equal scores the earlier events (a fixed choice,
    # so the same season always counts the same events).
    best = sorted(played, key=lambda r: (-r.score, order[r.event]))
    counted_events = {r.event for r in (best if rules.best_of is None else best[: rules.best_of])}
    counted = sum(r.score for r in played if r.event in counted_events)
    participation = rules.participation_points * len(played)
    return SeasonRow(
        rank=None,
        player=player,
        total=counted + participation,
        counted=counted,
        participation=participation,
        all_events=sum(r.score for r in played),
        played=len(played),
        cells=tuple(
            SeasonCell(event=r.event, score=r.score, rank=r.rank, counted=r.event in counted_events)
            for r in played
        ),
    )


def _tie(row: SeasonRow) -> tuple[float, float, float]:
    # Rounded: sums of halves and time factors in another order differ in the last bit.
    best = max(c.score for c in row.cells)
    return (-round(row.total, 6), -round(row.all_events, 6), -round(best, 6))


def _sort_key(row: SeasonRow) -> tuple[float, float, float, int]:
    return (*_tie(row), row.player)


def _ranks(rows: list[SeasonRow]) -> list[SeasonRow]:
    ranked: list[SeasonRow] = []
    for i, row in enumerate(rows):
        tied = i > 0 and _tie(rows[i - 1]) == _tie(row)
        rank = ranked[-1].rank if tied else i + 1
        ranked.append(replace(row, rank=rank))
    return ranked
