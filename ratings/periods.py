"""Reading rating periods from the tournament tables: games in moving order, as the
rating core's plain `RatedGame`s (player ids as strings)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Coalesce

from games import rulesets
from games.rulesets import dense_ranks
from ratings.models import RatingPeriod
from ratings.systems import RatedGame
from tournaments.models import Game, Round, Seat, Tournament, moving_order
from tournaments.models_game import decider_order
from tournaments.models_team import TABLE_TEAMS

#: Periods read per pair of queries: bounds the size of the ``IN`` lists (SQLite limits
#: the number of parameters of a statement).
PERIODS_PER_QUERY = 400


@dataclass(frozen=True)
class PeriodGames:
    games: list[RatedGame]
    records: list[int]  # the tournaments.Game id of each rating game, same order


def period_for_round(round_: Round) -> RatingPeriod:
    period, _ = RatingPeriod.objects.get_or_create(
        round=round_,
        defaults={
            "closed_at": round_.closed_at or round_.created_at,
            "game": round_.tournament.game,
        },
    )
    return period


def period_for_evening(tournament: Tournament) -> RatingPeriod:
    last = tournament.rounds.order_by("-number").first()
    closed = (last.closed_at if last and last.closed_at else None) or tournament.updated_at
    period, _ = RatingPeriod.objects.get_or_create(
        evening=tournament, defaults={"closed_at": closed, "game": tournament.game}
    )
    return period


def period_games(period: RatingPeriod) -> PeriodGames:
    """The period's games with a result, in a fixed order (round, table, game)."""
    return periods_games([period])[0]


def periods_games(periods: Sequence[RatingPeriod]) -> list[PeriodGames]:
    """``period_games`` of many periods, read with a few queries per few hundred
    periods rather than two per period. Games nobody played are left out: those still
    pending when their round closed, and unfinished ones without a piece out."""
    evenings = [p.evening_id for p in periods if p.round_id is None]
    evening_rounds: dict[int, list[int]] = defaultdict(list)
    if evenings:
        for start in range(0, len(evenings), PERIODS_PER_QUERY):
            for round_id, tournament_id in Round.objects.filter(
                tournament_id__in=evenings[start : start + PERIODS_PER_QUERY]
            ).values_list("id", "tournament_id"):
                evening_rounds[tournament_id].append(round_id)
    result = [PeriodGames([], []) for _ in periods]
    for start in range(0, len(periods), PERIODS_PER_QUERY):
        # Every round of a period is read in the same chunk, so the order of the rows
        # (round number, table, game) is the order within each period.
        owners: dict[int, list[PeriodGames]] = defaultdict(list)
        for index in range(start, min(start + PERIODS_PER_QUERY, len(periods))):
            period = periods[index]
            if period.round_id is not None:
                rounds = [period.round_id]
            else:
                rounds = evening_rounds.get(period.evening_id or 0, [])
            for round_id in rounds:
                owners[round_id].append(result[index])
        _read_games(owners)
    for period, source in zip(periods, result, strict=True):
        # Pieces out (section 2) are the rating core's own scale; other results are not.
        if not rulesets.get(period.game).result_is_pieces_out:
            source.games[:] = [
                RatedGame(seats=g.seats, out=rating_out(period.game, g.out)) for g in source.games
            ]
    return result


def rating_out(game: str, out: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """Another game's result on the rating core's Pentagame scale (0..3 per seat): the
    best result 3, the worst 0, places between spread evenly, a draw equal for all. The
    ratings then read a win as a win and a draw as a draw (docs/ratings.md)."""
    if out is None:
        return None
    places = dense_ranks(out)
    top = max(places)
    if top == 0:
        return tuple(0 for _ in out)
    return tuple(round(3 * place / top) for place in places)


def _read_games(owners: dict[int, list[PeriodGames]]) -> None:
    if not owners:
        return
    round_ids = sorted(owners)
    # Each player's id as one string object for the whole read: the rating core keys
    # its dicts by it, and one object per player makes every lookup an identity hit.
    names: dict[int, str] = {}
    tables: dict[int, dict[int, str]] = defaultdict(dict)
    # No order (a seat's default order sorted every seat of the history on the server,
    # most of this query's time): they go into a mapping.
    for table_id, position, player_id in _rows(
        Seat.objects.filter(round_id__in=round_ids, table__is_bye=False)
        .order_by()
        .values_list("table_id", "position", "entry__player_id")
    ):
        name = names.get(player_id)
        if name is None:
            name = names[player_id] = str(player_id)
        tables[table_id][position] = name
    # 2 vs 2 events: their 4-seat tables are team games (seats 1+3 against 2+4), which
    # the rating core rates side against side (moving order keeps the teams alternating).
    team_rounds = set(
        Round.objects.filter(id__in=round_ids, tournament__kind=Tournament.Kind.TEAMS).values_list(
            "id", flat=True
        )
    )
    numbers = dict(Round.objects.filter(id__in=round_ids).values_list("id", "number"))
    # No order on the server: sorting every game of the history there made the job wait
    # for the whole sort before the first row, most of the query's time. The games come
    # as the server finds them and each round's are sorted here (docs/benchmarks.md).
    records = (
        Game.objects.filter(table__round_id__in=round_ids)
        .exclude(status__in=Game.WITHOUT_RESULT)
        # A voided decider (its match no longer tied at the top) counts nowhere.
        .filter(confirmed=True, voided=False)
        .order_by()
        .values_list(
            "id",
            "table__round_id",
            "table_id",
            "table__number",
            "number",
            "status",
            "first_position",
            "direction",
            "leader_a",
            "leader_b",
            # Pieces out of the seats a game does not have are 0, as for nobody out.
            *(Coalesce(column, 0) for column in OUTS),
        )
    )
    unfinished = Game.Status.UNFINISHED
    # Per moving order and table size: what picks a game's seats (from its table's
    # players by position) and its pieces out (from its row) in that order, built
    # once; a million games share a handful of them.
    pickers: dict[tuple[Any, ...], tuple[Callable[..., Any], Callable[..., Any]]] = {}
    # Each round's games as (table number, game number, game id, game).
    found: dict[int, list[tuple[int, int, int, RatedGame]]] = defaultdict(list)
    for row in _rows(records):
        game_id, round_id, table_id, table_number, number, status, first, direction = row[:8]
        leader_a, leader_b = row[8:10]
        if status == unfinished and not any(row[10:]):
            # Nobody brought a piece out before the turn ended: the game the standings
            # count as the book's 3:3 (docs/scoring.md, "Unplayed games") was never
            # played, and tells nothing of anyone's strength.
            continue
        table = tables[table_id]
        key = (first, direction, leader_a, leader_b, len(table))
        picks = pickers.get(key)
        if picks is None:
            if leader_a is not None and leader_b is not None:
                # A 3-player match's decider: a 2-player game of its two leaders, rated
                # as one (docs/scoring.md, "The 3-player decider").
                order: tuple[int, ...] = decider_order(first, (leader_a, leader_b))
            else:
                order = moving_order(first, direction, len(table))
            picks = pickers[key] = (_picker(order), _picker([9 + p for p in order]))
        seats, outs = picks
        found[round_id].append(
            (
                table_number,
                number,
                game_id,
                RatedGame(
                    seats=seats(table),
                    out=outs(row),
                    teams=TABLE_TEAMS if round_id in team_rounds and len(table) == 4 else None,
                ),
            )
        )
    # A period's games in the order they were played: round, table, game (an evening's
    # rounds in their order, each round's tables and games by number).
    by_place = itemgetter(0, 1)
    for round_id in sorted(found, key=lambda round_id: (numbers[round_id], round_id)):
        games = sorted(found.pop(round_id), key=by_place)
        rated = [game for *_, game in games]
        ids = [game_id for _, _, game_id, _ in games]
        for owner in owners[round_id]:
            owner.games.extend(rated)
            owner.records.extend(ids)


def _picker(indexes: Sequence[int]) -> Callable[[Any], tuple[Any, ...]]:
    """What takes these items, in this order, as a tuple (``itemgetter`` gives one
    item alone, not a tuple of one)."""
    if len(indexes) == 1:
        only = indexes[0]
        return lambda items: (items[only],)
    return itemgetter(*indexes)


#: The games' pieces-out columns, by seat position.
OUTS = ("out_1", "out_2", "out_3", "out_4")


def _rows(records: QuerySet[Any, Any]) -> Iterator[tuple[Any, ...]]:
    """The rows of a ``values_list`` query, in large batches. On PostgreSQL they are
    streamed (libpq's chunked rows mode, 17 or later: psycopg's binary build brings
    its own): the server finds the next rows while the job turns the last ones into
    games, where a server-side cursor had it wait for each batch's round trip; a
    million rows are never held at once either way (docs/benchmarks.md)."""
    sql, params = records.query.sql_with_params()
    with _hashing_in_memory(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # psycopg's own cursor under Django's: streaming is its API.
            yield from cursor.cursor.stream(sql, params, size=ROWS_PER_BATCH)
            return
        cursor.execute(sql, params)
        while batch := cursor.fetchmany(ROWS_PER_BATCH):
            yield from batch


#: Rows the server sends at a time.
ROWS_PER_BATCH = 20_000
#: Memory PostgreSQL may join a read's rows in: the tables of a million games' history
#: (about 370,000) do not hash in the default 4 MB, and the join went to disk in batches.
JOIN_MEMORY = "256MB"


@contextmanager
def _hashing_in_memory() -> Iterator[None]:
    """``work_mem`` raised for the statements of the block, inside the job's
    transaction on PostgreSQL only, and set back after them."""
    if connection.vendor != "postgresql" or not connection.in_atomic_block:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('work_mem'), set_config('work_mem', %s, true)",
            [JOIN_MEMORY],
        )
        (before, _) = cursor.fetchone()
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('work_mem', %s, true)", [before])
