"""Live tables: the state of games as the pages draw them while they are played.

One shape for every page and for the socket (services/broadcast.py sends it after each
saved ply; the projector, the round page, a game's page and the results screen draw
it): the ply, the last move, whose move it is (a seat position), pieces out per seat
position, the board for games that have a board page, the egg timer and whether the
table is flagged. Read with a fixed number of queries for a whole round."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import DateTimeField, ExpressionWrapper, F, Max, Min, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from tournaments.models import Game, Ply, PlyConflict, Round, Seat, Tournament
from tournaments.results.egg_timer import Clock, clock
from tournaments.results.selectors.rounds import TableRow
from tournaments.standings.selectors.standings import table_teams

LIVE_STATUSES = (Game.Status.PENDING, Game.Status.IN_PROGRESS)
# The newest flags a game's state carries: a seat holds one open flag per ply
# (services/plies.py), and however many plies were flagged the message stays small.
MAX_FLAGS = 10


def _variant(tournament: Tournament, seats: int) -> str:
    # A 2 vs 2 table plays the engine's team variant (services/results.py).
    return "teams" if table_teams(tournament, seats) else "standard"


def _board(tournament: Tournament, game: Game, seats: int) -> dict[str, Any] | None:
    board = tournament.ruleset.board
    if board is None:
        return None
    record = {"players": seats, "variant": _variant(tournament, seats), "moves": list(game.moves)}
    try:
        # The position stored with the record (a ply recorded live) saves a replay.
        return board.snapshot(record, game.position)
    except board.refused:
        return None


# A ply's moment on the table's live clock (the server's receipt less the time the timer
# had stood still then): the egg timer reads these, never a device's clock.
_LIVE = ExpressionWrapper(F("received_at") - F("paused"), output_field=DateTimeField())
# The first ply, the last, the latest lost turn.
PLY_TIMES = {
    "first": Min(_LIVE),
    "last": Max(_LIVE),
    "lost": Max(_LIVE, filter=Q(timed_out=True)),
}
Times = tuple[datetime | None, datetime | None, datetime | None]


def timer_clock(
    game: Game, times: Times, seconds: int | None, now: datetime | None = None
) -> Clock | None:
    """The egg timer of the seat to move (tournaments/results/egg_timer.py), from the game's ply
    ``times`` (`PLY_TIMES`); None before the first move or without a timer. The timer
    was last turned by hand at the first move, at the latest lost turn when the server
    learnt of it, or when a lost turn was undone (services/plies.py)."""
    first, last, lost = times
    if not seconds or first is None or last is None:
        return None
    turned = max(t for t in (first, lost, game.timer_turned) if t is not None)
    return clock(
        turned=turned,
        last=last,
        seconds=seconds,
        now=now or timezone.now(),
        paused=game.timer_paused,
        paused_at=game.timer_paused_at,
    )


def game_clock(game: Game, now: datetime | None = None) -> Clock | None:
    """One game's egg timer, read afresh."""
    times = Ply.objects.filter(game=game).aggregate(**PLY_TIMES)
    seconds = game.table.round.tournament.seconds_per_move
    return timer_clock(game, (times["first"], times["last"], times["lost"]), seconds, now)


def clock_payload(timer: Clock | None, seconds: int | None) -> dict[str, Any] | None:
    """The timer as the pages draw it: the deadline on the server's clock (None while
    paused), whether it is paused, and the whole seconds left then."""
    if timer is None:
        return None
    return {
        "seconds": seconds,
        "deadline": timer.deadline.isoformat() if timer.deadline else None,
        "paused": timer.paused,
        "left": max(0, math.ceil(timer.left.total_seconds())),
    }


def game_live_state(
    *,
    game: Game,
    tournament: Tournament,
    seats: int,
    plies_at: Times | None = None,
    conflicts: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One game's live state (see the module's docstring). ``out`` lists the pieces out
    of the seats that play (`Game.positions`: every seat, or a decider's two leaders)."""
    order = game.moving_order(seats)
    positions = game.positions(seats)
    # A decider is a 2-player game at a 3-player table: its board has its two players.
    seats = len(positions)
    in_progress = game.status == Game.Status.IN_PROGRESS
    board = _board(tournament, game, seats) if game.moves else None
    to_move = None
    if board is not None and not board["finished"] and game.status in LIVE_STATUSES:
        to_move = order[board["to_move"] - 1] if board["to_move"] else None
    elif not game.moves and game.status == Game.Status.PENDING:
        to_move = order[0]
    if game.status in LIVE_STATUSES:
        # Pieces out so far, per seat position, from the board (the result has none yet).
        out: list[int | None] = [0] * seats
        if board is not None:
            for engine_seat, position in enumerate(order):
                out[positions.index(position)] = len(board["out"][engine_seat])
    else:
        out = game.out_list(seats)
    seconds = tournament.seconds_per_move
    timer = None
    if in_progress and plies_at is not None and to_move is not None:
        # The egg timer (section 3): when the seat to move loses her turn.
        timer = clock_payload(timer_clock(game, plies_at, seconds), seconds)
    return {
        "game": game.pk,
        "number": game.number,
        "table": game.table.number,
        "version": game.version,
        "status": game.status,
        "confirmed": game.confirmed,
        "plies": len(game.moves),
        "last": game.moves[-1] if game.moves else None,
        "to_move": to_move,
        "out": out,
        "positions": list(positions),
        "board": board,
        # Seat positions in moving order: the board's seat k is position order[k - 1].
        "order": list(order),
        "clock": timer,
        # Plies refused because another device had recorded a different one: the
        # organiser looks at the table (services/plies.py); the newest MAX_FLAGS.
        "flagged": conflicts or [],
    }


def _games(games: QuerySet[Game]) -> list[Game]:
    return list(
        games.select_related("table__round__tournament").order_by("table__number", "number")
    )


def live_states(*, games: QuerySet[Game]) -> dict[int, dict[str, Any]]:
    """The live state of each game, by game id: four queries however many games."""
    rows = _games(games)
    if not rows:
        return {}
    ids = [g.pk for g in rows]
    seats: dict[int, int] = defaultdict(int)
    for table_id in Seat.objects.filter(table_id__in={g.table_id for g in rows}).values_list(
        "table_id", flat=True
    ):
        seats[table_id] += 1
    times = {
        game_id: (first, last, lost)
        for game_id, first, last, lost in Ply.objects.filter(game_id__in=ids)
        .values_list("game_id")
        # The egg timer reads the server's clock, never a device's (services/plies.py).
        .annotate(**PLY_TIMES)
        .values_list("game_id", "first", "last", "lost")
    }
    conflicts: dict[int, list[dict[str, Any]]] = defaultdict(list)
    newest = Window(
        RowNumber(), partition_by=[F("game_id")], order_by=[F("at").desc(), F("pk").desc()]
    )
    flags = (
        PlyConflict.objects.filter(game_id__in=ids, cleared_at__isnull=True)
        .annotate(newest=newest)
        .filter(newest__lte=MAX_FLAGS)
        .order_by("at", "pk")
    )
    for c in flags:
        conflicts[c.game_id].append(
            {
                "ply": c.number,
                "move": c.move,
                "by": c.by_position,
                "recorded": c.recorded,
                "recorded_by": c.recorded_by_position,
            }
        )
    return {
        g.pk: game_live_state(
            game=g,
            tournament=g.table.round.tournament,
            seats=seats[g.table_id],
            plies_at=times.get(g.pk),
            conflicts=conflicts[g.pk],
        )
        for g in rows
    }


def attach_live(tables: list[TableRow]) -> None:
    """Put the live state on each game of the rows that is being played or flagged (a
    ply that came after its game was decided, docs/offline.md): one query for the
    flags, and four more for the round when a game is in progress or flagged."""
    ids = [g.id for t in tables for g in t.games]
    flagged = set(
        PlyConflict.objects.filter(game_id__in=ids, cleared_at__isnull=True)
        .order_by()
        .values_list("game_id", flat=True)
        .distinct()
        if ids
        else ()
    )
    games = {g.id: g for t in tables for g in t.games if g.in_progress or g.id in flagged}
    states = live_states(games=Game.objects.filter(pk__in=games)) if games else {}
    for game_id, state in states.items():
        games[game_id].live = state


def round_live_states(*, round_: Round) -> dict[int, dict[str, Any]]:
    """Every game of a round that is not a bye."""
    return live_states(games=Game.objects.filter(table__round=round_, table__is_bye=False))


def game_live(*, game_id: int) -> dict[str, Any] | None:
    """One game's live state, read afresh (after a commit)."""
    return live_states(games=Game.objects.filter(pk=game_id)).get(game_id)
