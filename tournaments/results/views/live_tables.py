"""The live tables' settings for a page: the socket to listen on, the small boards'
geometry and the egg timer's words (agon/live_tables.js)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.results.consumers import socket_path


def mini_board_geometry(tournament: Tournament) -> dict[str, Any] | None:
    """What a page needs to draw small live boards (games/static/games/mini_board.js):
    the board's geometry and the piece shape of each seat position; None for games
    without a board page."""
    board = tournament.ruleset.board
    if board is None:
        return None
    return {"geometry": board.geometry(), "shapes": list(board.shapes)}


def live_tables_config(tournament: Tournament) -> dict[str, Any]:
    """What agon/live_tables.js needs (tournaments/results/templates/tournaments/_live_tables_head.html)."""
    return {
        "socket": socket_path(tournament.slug),
        "board": mini_board_geometry(tournament),
        # The egg timer (agon/live_tables.js, tickClocks): paused, or its time up with
        # no lost turn recorded (no device open at the table), never "0 s left".
        "clock": {
            "left": _("%(seconds)s s left"),
            "paused": _("timer paused"),
            "up": _("time is up: waiting for the table"),
        },
    }
