"""Reading rating periods from the tournament tables: games in moving order, as the
rating core's plain `Game`s (player ids as strings)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from games.models import Game as GameRecord
from ratings.models import RatingPeriod
from ratings.systems import Game
from tournaments.models import Round, Seat, Tournament


@dataclass(frozen=True)
class PeriodGames:
    games: list[Game]
    records: list[int]  # the games.Game id of each rating game, same order


def moving_order(first_position: int, direction: str, seats: int) -> list[int]:
    """Seat positions in the order they move (section 21: clockwise, then widdershins)."""
    ring = list(range(1, seats + 1))
    start = ring.index(first_position)
    ring = ring[start:] + ring[:start]
    if direction == GameRecord.Direction.WIDDERSHINS:
        ring = [ring[0], *reversed(ring[1:])]
    return ring


def period_for_round(round_: Round) -> RatingPeriod:
    period, _ = RatingPeriod.objects.get_or_create(
        round=round_, defaults={"closed_at": round_.closed_at or round_.created_at}
    )
    return period


def period_for_evening(tournament: Tournament) -> RatingPeriod:
    last = tournament.rounds.order_by("-number").first()
    closed = (last.closed_at if last and last.closed_at else None) or tournament.updated_at
    period, _ = RatingPeriod.objects.get_or_create(
        evening=tournament, defaults={"closed_at": closed}
    )
    return period


def period_games(period: RatingPeriod) -> PeriodGames:
    """The period's games with a result, in a fixed order (round, table, game)."""
    if period.round_id is not None:
        rounds = Round.objects.filter(pk=period.round_id)
    else:
        rounds = Round.objects.filter(tournament_id=period.evening_id)
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player_id in Seat.objects.filter(
        round__in=rounds, table__is_bye=False
    ).values_list("table_id", "position", "entry__player_id"):
        seats[table_id][position] = player_id
    records = (
        GameRecord.objects.filter(table__round__in=rounds)
        .exclude(status=GameRecord.Status.PENDING)
        .filter(confirmed=True)
        .order_by("table__round__number", "table__number", "number")
        .values_list(
            "id", "table_id", "first_position", "direction", "out_1", "out_2", "out_3", "out_4"
        )
    )
    games: list[Game] = []
    ids: list[int] = []
    for game_id, table_id, first, direction, *outs in records:
        table = seats[table_id]
        order = moving_order(first, direction, len(table))
        games.append(
            Game(
                seats=tuple(str(table[p]) for p in order),
                out=tuple(int(outs[p - 1] or 0) for p in order),
            )
        )
        ids.append(game_id)
    return PeriodGames(games, ids)
