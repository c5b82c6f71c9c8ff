"""The Pentagame board page: record a game by tapping it, or replay a recorded one.

The page draws the board from `board_geometry()` and asks `position` for the position
and the legal moves after each ply, so every rule stays in the engine. Saving goes
through the results service like every other way of entering a result.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from games import pentagame
from games.pentagame.board import (
    CHORDS,
    COLOURS,
    CORNERS,
    CROSSINGS,
    LINES,
    N_STOPS,
    STOP_NAMES,
    corner,
)
from games.pentagame.notation import Move
from games.pentagame.replay import check_record, start_game
from games.pentagame.rules import BLACK_BASE, GREY_BASE, OUT
from games.pentagame.rules import Game as EngineGame
from tournaments import jsonbody
from tournaments.json_errors import error_response, service_error_response
from tournaments.models import Game, Round, Seat
from tournaments.permissions import can_direct, can_view
from tournaments.services.errors import ServiceError
from tournaments.services.results import Actor, game_record_moves

# A player's set is told apart by its shape (book §1: "stars ... moons ... circles,
# triangles, or squares"); the fifth only matters at a five-player table.
SHAPES = ("circle", "triangle", "square", "star", "diamond")
# Far above any real game; keeps one anonymous request from replaying a flood of moves.
MAX_PLIES = 2000

# --- geometry (book §15, "Solving the board") ------------------------------------------

PHI = (1 + math.sqrt(5)) / 2
STOP_R = 1.0  # s: the stops on the lines are the unit
CORNER_R = math.sqrt(5)  # c = 1/sin(18°) - 1, equation (10)
# j from the first condition, c + j + 2l = φ(2j + 2k) with k = 3, l = 6. (The book
# prints 2.02606 beside equation (11); the equation itself gives 2.0249, and only that
# value makes long and short lines meet in the golden proportion.)
CROSSING_R = (9 - 2 * math.sqrt(5)) / math.sqrt(5)
CHORD = 2 * (CORNER_R + 12 + CROSSING_R) + (2 * CROSSING_R + 6)  # d, equation (12)
RIM_R = CHORD / math.sqrt(PHI + 2)  # r, equation (13): the circle through the corners
BOARD_R = RIM_R + CORNER_R  # R, equation (15)


def _angle(k: float) -> float:
    """Corner k's direction: W at the top, then clockwise on screen (y points down)."""
    return math.radians(-90 + 72 * k)


def _node_xy(node: int) -> tuple[float, float]:
    if node in CORNERS:
        a = _angle(node)
        return RIM_R * math.cos(a), RIM_R * math.sin(a)
    # A crossing lies exactly opposite the corner of its colour, on the inner pentagon,
    # whose corners are r/φ² from the centre.
    a = _angle(node - CROSSINGS[0])
    inner = RIM_R / PHI**2
    return -inner * math.cos(a), -inner * math.sin(a)


def _node_r(node: int) -> float:
    return CORNER_R if node in CORNERS else CROSSING_R


@lru_cache(maxsize=1)
def board_geometry() -> dict[str, Any]:
    """Every stop's centre and radius in units of a line stop's radius, for the SVG."""
    xy: dict[int, tuple[float, float]] = {n: _node_xy(n) for n in range(10)}
    for li, (a, b, n) in enumerate(LINES):
        base = 10 + sum(k for _, _, k in LINES[:li])
        if a in CORNERS and b in CORNERS:
            # The rim: n equal stops on the arc between two corners, clockwise from a.
            for k in range(1, n + 1):
                t = _angle(a + k / (n + 1))
                xy[base + k - 1] = RIM_R * math.cos(t), RIM_R * math.sin(t)
            continue
        # Straight lines: the stops touch each other and both nodes, so the k-th centre
        # is the first node's radius plus 2k - 1 unit radii along the line.
        (ax, ay), (bx, by) = xy[a], xy[b]
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        for k in range(1, n + 1):
            d = _node_r(a) + (2 * k - 1) * STOP_R
            xy[base + k - 1] = ax + d * ux, ay + d * uy
    stops = []
    for s in range(N_STOPS):
        x, y = xy[s]
        kind = "corner" if s in CORNERS else "crossing" if s in CROSSINGS else "stop"
        colour = COLOURS[s % 5] if s < 10 else None
        stops.append(
            {
                "id": s,
                "name": STOP_NAMES[s],
                "x": round(x, 3),
                "y": round(y, 3),
                "r": round(_node_r(s) if s < 10 else STOP_R, 3),
                "kind": kind,
                "colour": colour,
            }
        )
    chords = [
        [[round(v, 3) for v in xy[chord[0]]], [round(v, 3) for v in xy[chord[-1]]]]
        for chord in CHORDS
    ]
    edge = round(BOARD_R + 0.6, 3)  # room for the outline of the corner stops
    return {
        "viewbox": f"{-edge} {-edge} {2 * edge} {2 * edge}",
        "rim": round(RIM_R, 3),
        "size": round(BOARD_R, 3),
        "stops": stops,
        "chords": chords,
        "corners": [corner(i) for i in range(5)],
    }


# --- positions and legal moves --------------------------------------------------------


def _position(state: pentagame.State) -> dict[str, Any]:
    rules = state.rules
    pieces = [
        {
            "id": p,
            "seat": rules.owner[p] + 1,
            "colour": COLOURS[rules.colour[p]],
            "stop": None if stop == OUT else stop,
        }
        for p, stop in enumerate(state.pieces)
    ]
    # Turns go round strictly (a lost turn is a ply too), so ply k was seat (k-1) % n's.
    last = state.last[(state.ply - 1) % state.players] if state.ply else None
    return {
        "ply": state.ply,
        "last": None if last is None else [last[1], last[2]],
        "pieces": pieces,
        "black": list(state.black),
        "grey": [None if g == OUT else g for g in state.grey],
        "to_move": state.to_move,
        "finished": state.finished,
        "out": [[COLOURS[c] for c in seat] for seat in state.out],
    }


def _mover(game: EngineGame, move: Move) -> int:
    r = game.rules
    own = [
        p
        for p in r.seat_pieces[game.seat]
        if game.pos[p] == move.frm and (move.piece is None or r.colour[p] == move.piece)
    ]
    return own[0]


def _free_after(state: pentagame.State, move: Move) -> dict[str, Any] | None:
    """What a move still needs besides from and to: where a taken black block goes, where
    the grey block goes when the piece goes out, and which grey block moves when the
    reserve is empty. None when the move is complete as it stands.

    The stops offered are found by the engine itself: the move is applied once with
    probe stops, and every stop empty afterwards (plus the probes) is a stop the block
    could have gone on. The page only has to keep the two blocks off one stop.
    """
    game = EngineGame(state)
    r = game.rules
    thing = game.cell[move.to] if move.to >= 0 and game.cnt[move.to] == 1 else -1
    takes_black = move.kind == "x" and BLACK_BASE <= thing < GREY_BASE
    takes_grey = move.kind == "x" and thing >= GREY_BASE
    goes_out = move.kind == "z" or r.goal[_mover(game, move)] == move.to
    if not takes_black and not goes_out:
        return None
    moves_grey = goes_out and OUT not in game.grey and not takes_grey
    empty = [s for s in range(N_STOPS) if game.cnt[s] == 0 and s != move.to]
    black_probes: list[int | None] = [*empty, move.frm] if takes_black else [None]
    sources = [g for g in game.grey if g != OUT] if moves_grey else [None]
    for black in black_probes:
        for grey in [s for s in empty if s != black] if goes_out else [None]:
            probe = move._replace(black=black, grey=grey, grey_from=sources[0])
            after = EngineGame(state)
            try:
                after.apply(probe)
            except pentagame.PentagameError:
                continue
            free = {s for s in range(N_STOPS) if after.cnt[s] == 0}
            free |= {s for s in (black, grey) if s is not None}
            free.discard(sources[0])  # it held a grey block while the move was made
            return {
                "black": takes_black,
                "out": goes_out,
                "grey_from": sources if moves_grey else None,
                "free": sorted(free),
            }
    return None  # pragma: no cover - a generated legal move always has some completion


def _legal(state: pentagame.State) -> list[dict[str, Any]]:
    out = []
    for move in pentagame.legal_moves(state):
        entry: dict[str, Any] = {
            "text": pentagame.format_move(move),
            "kind": move.kind,
            "from": None if move.frm < 0 else move.frm,
            "to": None if move.to < 0 else move.to,
        }
        if move.kind != "pass":
            needs = _free_after(state, move)
            if needs:
                entry.update(needs)
        out.append(entry)
    return out


def position_payload(record: dict[str, Any]) -> dict[str, Any]:
    """The position after a record and the legal moves from it; raises RecordError."""
    result = pentagame.replay(record)
    payload = _position(result.state)
    payload.update(
        ok=result.ok,
        plies=result.plies,
        moves=list(record["moves"][: result.plies]),
        winners=list(result.winners),
        error=None
        if result.error is None
        else {"ply": result.error.ply, "move": result.error.move, "reason": result.error.reason},
        legal=_legal(result.state) if result.ok else [],
    )
    return payload


def replay_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The position before the first ply and after each legal ply of a record."""
    players, variant, moves = check_record(record)
    game = start_game(players, variant)
    frames = [_position(game.state())]
    for text in moves:
        try:
            game.apply(pentagame.parse_move(text))
        except pentagame.PentagameError:
            break
        frames.append(_position(game.state()))
    return frames


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
    try:
        return JsonResponse(position_payload(record))
    except pentagame.PentagameError as exc:
        return error_response(exc, field="moves")


# --- pages ------------------------------------------------------------------------------


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
        "restore": _("Restore the unsaved record (%(count)s moves)"),
    }


def _load(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table__round__tournament__club"),
        pk=pk,
        table__is_bye=False,
    )


def _players(game: Game) -> list[dict[str, Any]]:
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
            "shape": SHAPES[pos - 1],
            "shapes": shapes[SHAPES[pos - 1]],
        }
        for i, pos in enumerate(order)
    ]


def _record(game: Game, players: list[dict[str, Any]]) -> dict[str, Any]:
    # The results service stores every record as the standard game for the table's size.
    return {"players": len(players), "variant": "standard", "moves": list(game.moves)}


def _page(request: HttpRequest, game: Game, mode: str, **extra: Any) -> HttpResponse:
    players = _players(game)
    record = _record(game, players)
    data: dict[str, Any] = {
        "mode": mode,
        "board": board_geometry(),
        "players": players,
        "record": record,
        "urls": {
            "position": reverse("games:position"),
            "replay": reverse("games:replay", args=[game.pk]),
        },
        **extra,
    }
    if mode == "replay":
        data["frames"] = replay_frames(record)
        data["moves"] = record["moves"][: len(data["frames"]) - 1]
        try:
            data["ply"] = max(0, min(int(request.GET.get("ply", "")), len(data["moves"])))
        except ValueError:
            data["ply"] = len(data["moves"])
    else:
        data["position"] = position_payload(record)
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
    game = _load(pk)
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
def record_view(request: HttpRequest, pk: int, token: str | None = None) -> HttpResponse:
    """Record a game move by move; a POST of {moves, version[, position]} saves it.

    Directors come in logged in; players come through their own private report link,
    and report as that seat only, so that an opponent confirms the result.
    """
    game = _load(pk)
    tournament = game.table.round.tournament
    by: Actor | None = None
    if token is not None:
        seat = Seat.objects.filter(report_token=token, table_id=game.table_id).first()
        if seat is None:
            raise Http404("no such game")
        by = Actor.player(seat)
    elif not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    elif not can_direct(request.user, tournament):
        raise PermissionDenied("only the tournament's directors can record this game")
    if request.method == "POST":
        return _save(request, game, by=by or Actor.director(request.user))
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
        by_player=by is not None,
        # A player's link records as their own seat; there is nothing to choose.
        player_position=by.seat.position if by is not None and by.seat is not None else None,
        version=game.version,
    )


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


def _save(request: HttpRequest, game: Game, *, by: Actor) -> JsonResponse:
    try:
        moves, version, reporter = _save_request(jsonbody.loads(request.body or b"null"))
    except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        return error_response(_("send {moves: [...], version: N} as JSON"))
    try:
        if by.seat is not None and reporter is not None and reporter != by.seat.position:
            # A player's link acts as that player only.
            raise ServiceError(
                _("this link belongs to seat %(seat)s, not seat %(other)s")
                % {"seat": by.seat.position, "other": reporter},
                field="position",
            )
        saved = game_record_moves(game=game, moves=moves, version=version, by=by)
    except ServiceError as exc:
        return service_error_response(exc)
    return JsonResponse(
        {
            "ok": True,
            "version": saved.version,
            "status": saved.status,
            "confirmed": saved.confirmed,
            "out": saved.out_list(saved.table.seats.count()),
            "replay_url": reverse("games:replay", args=[saved.pk]),
        }
    )
