"""The Pentagame board page: record a game by tapping it, or replay a recorded one.

The page draws the board from `board_geometry()` and asks `position` for the position
and the legal moves after each ply, so every rule stays in the engine. The replay gets
the record only and finds each position with the browser's port of the engine
(games/static/games/pentagame.js, checked against this one ply by ply): a position per
ply made a long game's page many times larger. Saving goes through the results service
like every other way of entering a result.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import rulesets
from games.pictures.shapes import SEAT_SHAPES
from games.rulesets import Board
from tournaments.core import jsonbody
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import error_response, service_error_response
from tournaments.core.permissions import can_direct, can_view
from tournaments.core.throttles import write_throttled
from tournaments.models import Game, Round, Seat
from tournaments.results.consumers import socket_path
from tournaments.results.egg_timer import Clock
from tournaments.results.offline import idempotent, outcome_response, queued_at
from tournaments.results.selectors.table_state import game_clock, timer_clock
from tournaments.results.services.plies import game_timer_pause, game_timer_resume
from tournaments.results.services.result_path import (
    PlyEntry,
    ResultEntry,
    game_confirm_sync,
    game_result_sync,
)

# Far above any real game; keeps one anonymous request from replaying a flood of moves.
MAX_PLIES = 2000


@csrf_exempt  # read-only and open to anyone, like the rules API
@require_POST
def position(request: HttpRequest) -> JsonResponse:
    """POST {players, variant, moves}: the position after the moves and the legal moves."""
    try:
        record = jsonbody.loads(request.body or b"null")
    except (UnicodeDecodeError, ValueError):
        return error_response("the body must be JSON")
    moves = record.get("moves") if isinstance(record, dict) else None
    if isinstance(moves, list) and len(moves) > MAX_PLIES:
        return error_response(f"a record has at most {MAX_PLIES} moves", field="moves")
    board = rulesets.board_game().board
    assert board is not None
    try:
        return JsonResponse(board.position(record, None))
    except board.refused as exc:
        return error_response(exc, field="moves")


# --- pages ------------------------------------------------------------------------------


def _board_of(game: Game) -> Board:
    """The board of the game's ruleset; a game without a board page has no such page
    (game_or_404 refuses it before)."""
    board = game.table.round.tournament.ruleset.board
    if board is None:
        raise Http404("this game has no board page")
    return board


def _shape_names() -> dict[str, str]:
    """A player's pieces by their shape, plural, for the page's text."""
    return {
        "circle": pgettext("pieces", "circles"),
        "triangle": pgettext("pieces", "triangles"),
        "square": pgettext("pieces", "squares"),
        "star": pgettext("pieces", "stars"),
        "diamond": pgettext("pieces", "diamonds"),
    }


def board_text() -> dict[str, Any]:
    """What board.js writes on the page, in the reader's language. The script fills the
    %(name)s places itself; the page carries this as a JSON block (no inline script)."""
    return {
        "colours": {
            "w": _("white"),
            "b": _("blue"),
            "r": _("red"),
            "y": _("yellow"),
            "g": _("green"),
        },
        "kinds": {"corner": _("corner"), "goal": _("goal"), "crossing": _("crossing")},
        "shapes": _shape_names(),
        "piece": _("%(name)s's %(colour)s piece"),
        "black_block": _("black block"),
        "grey_block": _("grey block"),
        "stop_on": _("%(stop)s, %(colour)s %(kind)s"),
        "stop_holds": _("%(stop)s: %(what)s"),
        "empty": _("empty"),
        "out": _("%(count)s out"),
        "out_colours": _("%(count)s out: %(colours)s"),
        "to_move": _("%(name)s to move"),
        "game_over": _("game over"),
        "start": _("Start position; %(who)s."),
        "after": _("After %(ply)s. %(move)s; %(who)s."),
        "record_stops": _("The record stops being legal at ply %(ply)s: %(move)s"),
        "not_legal": _("The record is not legal at ply %(ply)s: %(reason)s. Undo to go back."),
        "over": _("Game over after %(count)s moves. Save the record."),
        # A live record is saved ply by ply: there is nothing to save at its end.
        "over_live": _("Game over after %(count)s moves."),
        "no_piece": _("No piece of %(name)s's can move from %(stop)s: choose a marked one."),
        "clock_paused": _("Egg timer paused: %(seconds)s s left for this move"),
        "clock_up": _("Time is up: waiting for the table"),
        "pause": _("Pause the egg timer"),
        "resume": _("Resume the egg timer"),
        "no_signal": _("No signal: try again"),
        # The end of a live game, for each seat: who confirms the result, then that it counts.
        "end_confirm": _(
            "%(name)s reported the result (%(status)s, pieces out %(out)s): confirm it if it is right."
        ),
        "end_awaiting": _(
            "Result (%(status)s, pieces out %(out)s): awaiting %(names)s's confirmation."
        ),
        "end_confirmed": _("Result confirmed (%(status)s, pieces out %(out)s)."),
        "or": _(" or "),
        "must_pass": _("%(name)s cannot move: pass."),
        "choose_piece": _("%(name)s (%(shapes)s) to move: choose a piece."),
        "choose_target": _("%(name)s: choose where the piece on %(stop)s goes."),
        "choose_move": _("%(name)s: choose which move you mean."),
        "choose_black": _("%(move)s: choose the free stop where the black block goes."),
        "choose_grey_from": _(
            "%(move)s: the piece goes out and no grey block is left; choose the grey block to move."
        ),
        "choose_grey": _(
            "%(move)s: the piece goes out; choose the free stop where the grey block goes."
        ),
        "illegal_ply": _("ply %(ply)s %(move)s: %(reason)s"),
        "unchecked": _("The move could not be checked: %(error)s"),
        "saving": _("Saving…"),
        "saved": _("Saved (%(status)s, pieces out %(out)s)."),
        "saved_unconfirmed": _(
            "Saved (%(status)s, pieces out %(out)s); "
            "an opponent confirms it through their own link."
        ),
        "status": {
            "finished": _("finished"),
            "unfinished": _("unfinished"),
            "pending": _("not played yet"),
            "in_progress": _("in progress"),
        },
        "replay_it": _("Replay it"),
        "not_saved": _("Not saved: %(error)s"),
        "saved_ply": _("Saved: %(ply)s moves so far."),
        # A queued undo as the status line names it ("Ply 12 (a1-b2) taken back: …").
        "undo_label": _("Ply %(ply)s (%(move)s) taken back"),
        "retrying": _("No answer (%(error)s); sending the move again…"),
        "clock": _("Egg timer: %(seconds)s s left for this move"),
        "restore": _("Restore the unsaved record (%(count)s moves)"),
    }


# The fields of a player's link's seat read with its game (`game_or_404`).
_LINK_SEAT = ("id", "position", "entry_id", "round_id")


def game_or_404(pk: int, token: str | None = None) -> Game:
    """The game with its table, round, tournament and club. With a player's link's
    ``token`` the link's seat at the game's table comes in the same statement
    (`link_seat`, None for a link of another table): a ply from a seat's link reads the
    game and the seat once."""
    games = Game.objects.select_related("table__round__tournament__club")
    if token is not None:
        seat = Seat.objects.filter(report_token=token, table_id=OuterRef("table_id"))
        games = games.annotate(
            **{f"link_seat_{name}": Subquery(seat.values(name)[:1]) for name in _LINK_SEAT}
        )
    game = get_object_or_404(games, pk=pk, table__is_bye=False)
    if token is not None:
        values = {name: getattr(game, f"link_seat_{name}") for name in _LINK_SEAT}
        game.link_seat = (
            None
            if values["id"] is None
            else Seat(table_id=game.table_id, report_token=token, **values)
        )
    return game


def players_in_moving_order(game: Game) -> list[dict[str, Any]]:
    """The table's players in the order they move in this game (engine seat 1, 2, ...)."""
    seats = {
        s.position: s.entry.player.name
        for s in Seat.objects.filter(table_id=game.table_id).select_related("entry__player")
    }
    order = game.moving_order(len(seats))
    shapes = _shape_names()
    return [
        {
            "seat": i + 1,
            "position": pos,
            "name": seats[pos],
            "shape": SEAT_SHAPES[pos - 1],
            "shapes": shapes[SEAT_SHAPES[pos - 1]],
        }
        for i, pos in enumerate(order)
    ]


def _record(game: Game, players: int) -> dict[str, Any]:
    # The results service stores every record as the standard game for the table's size.
    return {"players": players, "variant": "standard", "moves": list(game.moves)}


def _page(request: HttpRequest, game: Game, mode: str, **extra: Any) -> HttpResponse:
    players = players_in_moving_order(game)
    record = _record(game, len(players))
    data: dict[str, Any] = {
        "mode": mode,
        "board": _board_of(game).geometry(),
        "players": players,
        "record": record,
        "urls": {
            "position": reverse("games:position"),
            "replay": reverse("games:replay", args=[game.pk]),
            "state": reverse("games:state", args=[game.pk]),
            # The queue sends plies waiting there many at once (views/batch.py).
            "batch": reverse("games:batch"),
            "socket": socket_path(game.table.round.tournament.slug),
        },
        "game": game.pk,
        "version": game.version,
        # The page follows the game as it is played (another device, a spectator).
        "live": game.status in Game.WITHOUT_RESULT,
        # A game played live that has its result: the board says who confirms it.
        "ended": game.status not in Game.WITHOUT_RESULT and game.plies.exists(),
        "clock": game.table.round.tournament.seconds_per_move,
        **{
            k: v
            for k, v in game_state(game, legal=False).items()
            if k
            in (
                "last_by",
                "deadline",
                "paused",
                "left",
                "status",
                "confirmed",
                "reported_by",
                "out",
            )
        },
        **extra,
    }
    if mode == "replay":
        # The record only, no position per ply: board.js replays it with the browser's
        # engine, up to the first ply that engine refuses (if one is), and clamps `ply`.
        plies = len(record["moves"])
        try:
            data["ply"] = max(0, min(int(request.GET.get("ply", "")), plies))
        except ValueError:
            data["ply"] = plies
    else:
        data["position"] = _board_of(game).position(record, game.position)
    table = game.table
    return render(
        request,
        "games/board.html",
        {
            "game": game,
            "table": table,
            "round": table.round,
            "tournament": table.round.tournament,
            "players": players,
            "mode": mode,
            "board": data["board"],
            "data": data,
            "text": board_text(),
        },
    )


def replay_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a recorded game; `?ply=N` links to the position after N plies."""
    game = game_or_404(pk)
    tournament = game.table.round.tournament
    if not can_view(request.user, tournament) or game.table.round.status == Round.Status.PAIRED:
        raise Http404("no such game")
    can_record = can_direct(request.user, tournament)
    return _page(
        request,
        game,
        "replay",
        record_url=reverse("games:record", args=[game.pk]) if can_record else None,
    )


@require_http_methods(["GET", "POST"])
@write_throttled
@idempotent
def record_view(request: HttpRequest, pk: int, token: str | None = None) -> HttpResponse:
    """Record a game move by move; a POST of {moves, version[, position]} saves it.

    Directors come in logged in; players come through their own private report link,
    and report as that seat only, so that an opponent confirms the result.
    """
    game = game_or_404(pk, token)
    if token is None and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    by = board_actor(request, game, token)
    if request.method == "POST":
        return _save(request, game, by=by)
    save_url = (
        reverse("games:record-token", args=[game.pk, token])
        if token
        else reverse("games:record", args=[game.pk])
    )
    return _page(
        request,
        game,
        "record",
        save_url=save_url,
        by_player=by.is_player,
        # A player's link records as their own seat; there is nothing to choose.
        player_position=by.seat.position if by.seat is not None else None,
        version=game.version,
    )


def board_actor(request: HttpRequest, game: Game, token: str | None) -> Actor:
    """Who records ``game`` by this request: the seat of a player's link (``token``), at
    that game's table, or a director of its tournament signed in. Raises Http404 (a link
    of another table, the third player of a decider) or PermissionDenied. The board's
    batch door (views/batch.py) checks each item alike."""
    if token is not None:
        seat = (
            game.link_seat
            if hasattr(game, "link_seat")
            else Seat.objects.filter(report_token=token, table_id=game.table_id).first()
        )
        # A decider is the two leaders' game: the third player's link does not record it.
        if seat is None or (game.leaders is not None and seat.position not in game.leaders):
            raise Http404("no such game")
        return Actor.player(seat)
    if not request.user.is_authenticated or not can_direct(
        request.user, game.table.round.tournament
    ):
        raise PermissionDenied("only the tournament's directors can record this game")
    return Actor.director(request.user)


def ply_request(body: Any) -> PlyEntry | None:
    """A ply sent from the table: {ply: N, move, key[, timeout]} or {undo: N}; None for
    a whole record. Raises ValueError or TypeError on a malformed body."""
    if not isinstance(body, dict) or not ({"ply", "undo"} & set(body)):
        return None
    undo = "undo" in body
    number = body["undo" if undo else "ply"]
    if type(number) is not int or not 1 <= number < 2**31:
        raise TypeError("ply and undo are whole numbers from 1")
    move, key, timeout = body.get("move", ""), body.get("key", ""), body.get("timeout", False)
    if not isinstance(move, str) or not isinstance(key, str) or not isinstance(timeout, bool):
        raise TypeError("move and key are strings, timeout true or false")
    return PlyEntry(number=number, move=move, key=key, undo=undo, timeout=timeout)


def _save_request(body: Any) -> tuple[list[str], int | None, int | None]:
    """moves, version and the seat named by a save; raises ValueError or TypeError."""
    moves = body["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise TypeError("moves must be a list of strings")
    version = body.get("version")
    reporter = body.get("position")
    for value in (version, reporter):
        # Whole numbers only: int(1e999) would overflow, int(2.7) would round silently.
        if value is not None and (type(value) is not int or not 0 <= value < 2**31):
            raise TypeError("version and position are whole numbers")
    return moves, version, reporter


# A board's other writes beside plies and records: {timer: "pause" | "resume"} lays the
# egg timer on its side or sets it running; {confirm: true} confirms the result the other
# seat's last ply reported (services/results.py, `game_confirm`).
TIMER = {"pause": game_timer_pause, "resume": game_timer_resume}


def _other_write(body: Any, game: Game, by: Actor) -> JsonResponse | None:
    if not isinstance(body, dict) or not ({"timer", "confirm"} & set(body)):
        return None
    if "timer" in body and body["timer"] not in TIMER:
        return error_response(_('timer is "pause" or "resume"'), field="timer")
    if "confirm" in body and body["confirm"] is not True:
        return error_response(_("confirm is true"), field="confirm")
    try:
        if "timer" in body:
            saved = TIMER[body["timer"]](game=game, by=by)
        else:
            saved = game_confirm_sync(game=game, by=by).game
    except ServiceError as exc:
        return service_error_response(exc)
    saved.refresh_from_db()
    return JsonResponse(game_state(saved, legal=False))


def _save(request: HttpRequest, game: Game, *, by: Actor) -> JsonResponse:
    try:
        body = jsonbody.loads(request.body or b"null")
        other = _other_write(body, game, by)
        if other is not None:
            return other
        ply = ply_request(body)
        entry = ResultEntry(ply=ply)
        version = None
        if ply is None:
            moves, version, reporter = _save_request(body)
            entry = ResultEntry(moves=moves, position=reporter)
        # A director's deliberate correction of a closed round (services/results.py).
        correction = isinstance(body, dict) and body.get("correction") is True
    except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        return error_response(
            _("send {ply: N, move: ..., key: ...}, {undo: N} or {moves: [...], version: N} as JSON")
        )
    try:
        outcome = game_result_sync(
            game=game,
            entry=entry,
            version=version,
            by=by,
            queued_at=queued_at(request),
            correction=correction,
        )
    except ServiceError as exc:
        return service_error_response(exc)
    if outcome.kept:
        # Sent from an offline queue and kept for the organiser (docs/offline.md).
        return outcome_response(outcome)
    return JsonResponse(game_state(outcome.game, legal=ply is not None))


def game_state(game: Game, *, legal: bool = True) -> dict[str, Any]:
    """A game's record as the board pages use it: version, status, moves, who sent the
    last ply, and (``legal``) the position with the legal moves to go on from."""
    # A ply just stored brings what its answer needs (services/plies.py, `PlyRecorded`):
    # nothing is read again, so a ply's cost does not grow with its game.
    recorded = getattr(game, "recorded", None)
    in_progress = game.status == Game.Status.IN_PROGRESS
    timer: Clock | None
    if recorded is not None:
        players_count = len(game.moving_order(recorded.seats))
        last_by = recorded.by_position
        seconds = game.table.round.tournament.seconds_per_move
        timer = timer_clock(game, recorded.times, seconds) if in_progress else None
    else:
        players_count = len(players_in_moving_order(game))
        last = game.plies.order_by("-number").first()
        last_by = last.by_position if last is not None and last.number == len(game.moves) else None
        # The egg timer reads the server's clock, never a device's (services/plies.py).
        timer = game_clock(game) if in_progress else None
    record = _record(game, players_count)
    state: dict[str, Any] = {
        "ok": True,
        "version": game.version,
        "status": game.status,
        "confirmed": game.confirmed,
        # Whose report waits for another seat's confirmation (None: a director's).
        "reported_by": game.reported_by_position,
        "moves": record["moves"],
        "out": game.out_list(players_count),
        "last_by": last_by,
        # The egg timer: when the seat to move loses her turn (None: no timer running,
        # or paused), whether it is paused, and the seconds left to her.
        "deadline": timer.deadline.isoformat() if timer and timer.deadline else None,
        "paused": game.timer_paused_at is not None,
        "left": max(0, math.ceil(timer.left.total_seconds())) if timer else None,
        "replay_url": reverse("games:replay", args=[game.pk]),
    }
    if legal:
        state["position"] = _board_of(game).position(record, game.position)
    return state


@require_GET
def state_view(request: HttpRequest, pk: int) -> JsonResponse:
    """A game's record now, for a board page that missed a change (a reconnect, another
    device's ply): `?legal=0` leaves out the position and its legal moves (the replay
    page finds its positions itself; the legal moves are most of the work here)."""
    game = game_or_404(pk)
    tournament = game.table.round.tournament
    if not can_view(request.user, tournament) or game.table.round.status == Round.Status.PAIRED:
        raise Http404("no such game")
    response = JsonResponse(game_state(game, legal=request.GET.get("legal") != "0"))
    response["Cache-Control"] = "no-cache"
    return response
