"""Reads for leaderboards and a player's rating history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import F, QuerySet
from django.utils import timezone

from ratings.models import GameRating, PeriodRating, PlayerRating

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
    game: str = "pentagame",
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

    @property
    def change(self) -> float:
        return self.after - self.before


def player_history(*, player_id: int, system: str, game: str = "pentagame") -> list[HistoryPoint]:
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
            )
        )
    return points


def player_game_changes(
    *, player_id: int, system: str, game: str = "pentagame", limit: int = 50
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
    *, tables: Sequence[Sequence[int]], game: str = "pentagame", system: str = "openskill"
) -> list[list[float]]:
    """Each seat's chance to finish first at each table (player ids in seat order), from
    one query for all tables: OpenSkill's Plackett-Luce probabilities by default, shown
    before the games are played."""
    from ratings.systems import RatedGame, make_system

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
