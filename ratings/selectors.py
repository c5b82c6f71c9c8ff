"""Reads for leaderboards and a player's rating history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games import rulesets
from ratings.models import GameRating, PeriodRating, PlayerRating
from ratings.systems import RatedGame, make_system

# Glicko-2 deviations above this mark a rating as provisional (Glickman suggests
# treating RD above ~100 as unreliable; new players start at 350).
PROVISIONAL_RD = 110.0
PROVISIONAL_GAMES = 10


def is_provisional(rating: PlayerRating) -> bool:
    if rating.system == "glicko2" and rating.deviation is not None:
        return rating.deviation > PROVISIONAL_RD
    return rating.games < PROVISIONAL_GAMES


def starting_ratings(*, player_ids: Sequence[int], game: str, system: str) -> dict[int, int]:
    """The ratings' answer to tournaments/starting_ratings.py (registered in
    ratings/apps.py): these players' current ratings in this game and system, rounded."""
    rows = PlayerRating.objects.filter(player_id__in=player_ids, game=game, system=system)
    return {pid: round(rating) for pid, rating in rows.values_list("player_id", "rating")}


def leaderboard(
    *,
    system: str,
    game: str = rulesets.DEFAULT,
    club_id: int | None = None,
    active_days: int | None = 365,
    min_games: int = 0,
) -> QuerySet[PlayerRating]:
    rows = PlayerRating.objects.filter(
        system=system, game=game, games__gte=min_games
    ).select_related("player__club")
    if club_id is not None:
        rows = rows.filter(player__club_id=club_id)
    if active_days:
        rows = rows.filter(last_played__gte=timezone.now() - timedelta(days=active_days))
    return rows.order_by("-rating", "player__name")


@dataclass(frozen=True)
class HistoryPoint:
    label: str
    when: str
    before: float
    after: float
    deviation: float | None
    # The event the period belongs to (a Swiss's round, or a whole evening).
    event: str = ""
    event_slug: str = ""

    @property
    def change(self) -> float:
        return self.after - self.before


def player_history(
    *, player_id: int, system: str, game: str = rulesets.DEFAULT
) -> list[HistoryPoint]:
    before, after, deviation = PeriodRating.columns(system)
    rows = (
        PeriodRating.objects.filter(
            player_id=player_id, period__game=game, **{f"{after}__isnull": False}
        )
        .select_related("period__round__tournament", "period__evening")
        .order_by("period__closed_at", "period_id")
    )
    points = []
    for row in rows:
        period = row.period
        event = period.round.tournament if period.round is not None else period.evening
        if period.round is not None:
            label = f"{period.round.tournament.name}, round {period.round.number}"
        else:
            label = period.evening.name if period.evening else "period"
        points.append(
            HistoryPoint(
                label,
                period.closed_at.date().isoformat(),
                getattr(row, before),
                getattr(row, after),
                getattr(row, deviation),
                event.name if event is not None else "",
                event.slug if event is not None else "",
            )
        )
    return points


@dataclass(frozen=True)
class EventChange:
    """A player's rating over one event: from before its first rated period to after
    its last (the player page's list, issue 26)."""

    event: str
    slug: str
    first: str  # dates, ISO
    last: str
    before: float
    after: float
    periods: int

    @property
    def change(self) -> float:
        return self.after - self.before


def events_of(history: Sequence[HistoryPoint]) -> list[EventChange]:
    """The history grouped by event, in order (an event's periods are consecutive in a
    player's history unless she played two events at once: each run counts apart)."""
    events: list[EventChange] = []
    for point in history:
        last = events[-1] if events else None
        if last is not None and last.slug == point.event_slug and last.event == point.event:
            events[-1] = EventChange(
                last.event,
                last.slug,
                last.first,
                point.when,
                last.before,
                point.after,
                last.periods + 1,
            )
        else:
            events.append(
                EventChange(
                    point.event,
                    point.event_slug,
                    point.when,
                    point.when,
                    point.before,
                    point.after,
                    1,
                )
            )
    return events


@dataclass(frozen=True)
class ChartMark:
    x: float
    y: float
    label: str  # the event, for its marker's title
    when: str
    rating: float


@dataclass(frozen=True)
class RatingChart:
    """The player page's chart as plain numbers for its SVG template: the line, a
    marker at the end of each event, the rating axis' ticks and the dates below."""

    width: int
    height: int
    left: int
    bottom: int
    points: str
    marks: list[ChartMark]
    ticks: list[tuple[float, int]]  # (y, rating)
    dates: list[tuple[float, str, str]]  # (x, text-anchor, date)


def rating_chart(
    history: Sequence[HistoryPoint], width: int = 640, height: int = 240
) -> RatingChart | None:
    """Rating after each period against the periods in order, with the axes labelled:
    ratings on the left (three round ticks), the first and last dates below, and a
    marker per event whose title names it (no JS, no CDN)."""
    if not history:
        return None
    left, right, top, bottom = 60, 12, 12, 38
    values = [history[0].before] + [h.after for h in history]
    low, high = min(values), max(values)
    pad = max((high - low) * 0.1, 5.0)
    low, high = low - pad, high + pad
    inner_w, inner_h = width - left - right, height - top - bottom
    step = inner_w / max(len(values) - 1, 1)

    def x(i: int) -> float:
        return left + i * step

    def y(v: float) -> float:
        return top + (high - v) / (high - low) * inner_h

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    marks, end = [], 0
    for event in events_of(history):
        end += event.periods
        marks.append(ChartMark(x(end), y(event.after), event.event, event.last, event.after))
    span = high - low
    unit = next(u for u in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000) if span / u <= 4)
    first_tick = int(-(-low // unit) * unit)
    ticks = [(y(v), v) for v in range(first_tick, int(high) + 1, unit)]
    dates = [(float(left), "start", history[0].when)]
    if len(history) > 1 and history[-1].when != history[0].when:
        dates.append((float(width - right), "end", history[-1].when))
    return RatingChart(width, height, left, height - bottom, points, marks, ticks, dates)


def player_game_changes(
    *, player_id: int, system: str, game: str = rulesets.DEFAULT, limit: int = 50
) -> QuerySet[GameRating]:
    """The player's latest games rated by ``system``, each with ``before`` and ``after``."""
    before, after = GameRating.columns(system)
    return (
        GameRating.objects.filter(
            player_id=player_id, period__game=game, **{f"{after}__isnull": False}
        )
        .annotate(before=F(before), after=F(after))
        .select_related("game__table__round__tournament")
        .order_by("-period__closed_at", "-game_id")[:limit]
    )


def chart_points(history: list[HistoryPoint], width: int = 640, height: int = 200) -> str:
    """An SVG polyline's points for the rating after each period (no JS, no CDN)."""
    if not history:
        return ""
    values = [history[0].before] + [h.after for h in history]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / max(len(values) - 1, 1)
    return " ".join(
        f"{i * step:.1f},{height - (v - low) / span * (height - 20) - 10:.1f}"
        for i, v in enumerate(values)
    )


def win_chances(
    *, tables: Sequence[Sequence[int]], game: str = rulesets.DEFAULT, system: str = "openskill"
) -> list[list[float]]:
    """Each seat's chance to finish first at each table (player ids in seat order), from
    one query for all tables: OpenSkill's Plackett-Luce probabilities by default, shown
    before the games are played."""
    rater = make_system(system)
    wanted = {p for table in tables for p in table}
    states = {
        str(row.player_id): rater.state_from_json(row.state)
        for row in PlayerRating.objects.filter(system=system, game=game, player_id__in=wanted)
    }
    return [
        list(rater.win_probabilities(states, RatedGame(seats=tuple(map(str, table)), out=None)))
        for table in tables
    ]


def event_rating_changes(
    *, tournament_id: int, system: str, game: str = rulesets.DEFAULT
) -> dict[int, tuple[float, float]]:
    """Player -> (rating before, rating after) over one event's rated periods: its
    closed rounds, or the whole evening (one query). Players of periods not rated yet
    are missing; an event not rated at all gives {}."""
    before, after, _deviation = PeriodRating.columns(system)
    rows = (
        PeriodRating.objects.filter(
            Q(period__round__tournament_id=tournament_id) | Q(period__evening_id=tournament_id),
            period__game=game,
            **{f"{after}__isnull": False},
        )
        .order_by("period__closed_at", "period_id")
        .values_list("player_id", before, after)
    )
    changes: dict[int, tuple[float, float]] = {}
    for player_id, was, now in rows:
        first = changes.get(player_id)
        changes[player_id] = (was if first is None else first[0], now)
    return changes
