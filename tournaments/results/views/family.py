"""The replay page of the family's other games: Pantarei, Pentamid Twist, Pent-Up and
PentaCosmos.

`/games/<id>/view/?ply=N` replays the stored record with the game's own engine up to
ply N and draws the position server-side (games/pictures/*, an SVG in
tournaments/results/templates/games/family_board.html); stepping is plain links, so the page needs no
JavaScript. A Pentagame game goes to its own board page. Who may look is decided as on
that page: a published round of a tournament the user can see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games import rulesets
from games.pictures import Picture, Shape
from tournaments.core.permissions import can_direct, can_view
from tournaments.models import Game, Round
from tournaments.results.views.board import MAX_PLIES, game_or_404, players_in_moving_order


@dataclass
class Replayed:
    """The position after `ply` plies, who made each legal ply, and the first illegal
    one (a stored record is checked when saved, so only an old or edited one has it)."""

    ply: int
    plies: int  # legal plies in the record
    state: Any
    movers: list[int]
    error: str | None


def replay_to(game: str, record: dict[str, Any], ply: int) -> Replayed:
    """Replay a record with the game's engine; the state after min(ply, legal plies)."""
    start = rulesets.get(game).start
    if start is None:
        raise ValueError(f"no stepping replay for {game!r}")
    run = start(record)
    moves: list[str] = record["moves"]
    movers: list[int] = []
    state = run.state() if ply == 0 else None
    error = None
    for i, text in enumerate(moves):
        who = run.mover()
        try:
            run.apply(text)
        except ValueError as exc:
            error = f"ply {i + 1} `{text}`: {getattr(exc, 'reason', exc)}"
            break
        movers.append(who)
        if i + 1 == ply:
            state = run.state()
    plies = len(movers)
    if state is None:  # ply beyond the legal part
        ply = plies
        state = run.state()
    return Replayed(ply, plies, state, movers, error)


def _record(game: Game, players: int) -> dict[str, Any]:
    # As the results service builds it when the record is saved.
    record: dict[str, Any] = {"players": players, "variant": "standard", **(game.setup or {})}
    record["moves"] = [str(m) for m in game.moves][:MAX_PLIES]
    return record


def _ply(request: HttpRequest, last: int) -> int:
    try:
        return max(0, min(int(request.GET.get("ply", "")), last))
    except ValueError:
        return last


def colour_name(colour: str) -> str:
    """A seat's colour as the games' cores name it ("White"), in the reader's language."""
    names = {
        "white": _("white"),
        "black": _("black"),
        "red": _("red"),
        "blue": _("blue"),
        "yellow": _("yellow"),
        "green": _("green"),
    }
    return names.get(colour.lower(), colour.lower())


def _outcome(picture: Picture, names: list[str], finished_game: bool, at_end: bool) -> str:
    if picture["finished"]:
        winners = picture["winners"]
        if not winners or len(winners) == len(names):
            return _("The game ended in a draw.")
        who = [f"{names[w]} ({colour_name(picture['seats'][w]['colour'])})" for w in winners]
        if len(who) == 1:
            return _("%(who)s wins.") % {"who": who[0]}
        return _("%(who)s win.") % {"who": _(" and ").join(who)}
    if at_end:
        if finished_game:
            return _("The record ends here.")
        return _("The record stops here: the game was not finished.")
    return ""


def _svg_ready(shape: Shape) -> dict[str, Any]:
    """A shape with its points as the SVG attribute."""
    out: dict[str, Any] = dict(shape)
    if "points" in shape:
        out["pts"] = " ".join(f"{x},{y}" for x, y in shape["points"])
    return out


def _steps(ply: int, plies: int) -> list[dict[str, Any]]:
    steps = [
        ("first", _("« Start"), _("To the start"), 0),
        ("prev", _("‹ Back"), _("One move back"), ply - 1),
        ("next", _("Forward ›"), _("One move forward"), ply + 1),
        ("last", _("End »"), _("To the end"), plies),
    ]
    return [
        {
            "key": key,
            "label": label,
            "aria": aria,
            "ply": target,
            "enabled": 0 <= target <= plies and target != ply,
        }
        for key, label, aria, target in steps
    ]


def family_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The position after `?ply=N` plies of a recorded game (the last one by default)."""
    game = game_or_404(pk)
    round_ = game.table.round
    tournament = round_.tournament
    if not can_view(request.user, tournament) or round_.status == Round.Status.PAIRED:
        raise Http404("no such game")
    if tournament.ruleset.has_board_page:  # its own replay on the board
        return redirect("games:replay", pk=game.pk)
    draw = tournament.ruleset.picture
    if draw is None or tournament.ruleset.start is None:
        raise Http404("no viewer for this game")
    players = players_in_moving_order(game)
    record = _record(game, len(players))
    wanted = _ply(request, len(record["moves"]))
    try:
        replayed = replay_to(tournament.game, record, wanted)
    except ValueError as exc:
        # Not a record the engine can read at all: say so instead of drawing a board.
        reason = getattr(exc, "reason", exc)
        return render(
            request,
            "games/family_board.html",
            {
                "game": game,
                "table": game.table,
                "round": round_,
                "tournament": tournament,
                "title": tournament.ruleset.title,
                "problem": _("The stored record cannot be replayed: %(reason)s")
                % {"reason": reason},
            },
        )
    ply = min(wanted, replayed.plies)
    last_move = record["moves"][ply - 1] if ply else None
    picture = draw(replayed.state, last_move)
    names = [p["name"] for p in players]
    seats = [
        {
            **seat,
            "name": names[i] if i < len(names) else _("seat %(number)s") % {"number": i + 1},
            "colour_name": colour_name(seat["colour"]),
            "index": i,
        }
        for i, seat in enumerate(picture["seats"])
    ]
    moves = [
        {
            "ply": i + 1,
            "text": text,
            "seat": seats[replayed.movers[i]] if replayed.movers[i] < len(seats) else None,
        }
        for i, text in enumerate(record["moves"][: replayed.plies])
    ]
    to_move = picture["to_move"]
    return render(
        request,
        "games/family_board.html",
        {
            "game": game,
            "table": game.table,
            "round": round_,
            "tournament": tournament,
            "title": tournament.ruleset.title,
            "picture": picture,
            "shapes": [_svg_ready(s) for s in picture["shapes"]],
            "seats": seats,
            "to_move": seats[to_move] if to_move is not None and to_move < len(seats) else None,
            "moves": moves,
            "ply": ply,
            "plies": replayed.plies,
            "last_move": last_move,
            "steps": _steps(ply, replayed.plies),
            "outcome": _outcome(
                picture,
                names,
                game.status == Game.Status.FINISHED,
                ply == replayed.plies,
            ),
            "error": replayed.error,
            "can_direct": can_direct(request.user, tournament),
            "self_url": reverse("games:view", args=[game.pk]),
        },
    )
