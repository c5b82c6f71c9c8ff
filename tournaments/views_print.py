"""Printing for the organiser: the round's pairing sheet and one score sheet per table,
each with a QR code that opens the table's self-report page; and the list of the
tables whose results are still missing or wait for an opponent's confirmation."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.letters import COLOURS

from .models import Round, Tournament
from .selectors.rounds import GameRow, TableRow, round_tables
from .views_manage import director_required


def qr_svg(url: str, label: str) -> SafeString:
    """An inline, scalable SVG QR code for ``url`` (quartile error correction, so a
    creased or smudged sheet still scans)."""
    svg = segno.make(url, error="q", micro=False).svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", title=label
    )
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


@dataclass
class ScoreSheet:
    table: TableRow
    url: str
    qr: SafeString
    games: list[tuple[GameRow, str]]  # each game with who starts, by name


def _starter(table: TableRow, game: GameRow) -> str:
    seat = next((s for s in table.seats if s.position == game.first_position), None)
    return seat.name if seat else str(game.first_position)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


@director_required
def round_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = _round(tournament, number)
    tables = round_tables(round_=round_)
    sheets = []
    for table in tables:
        if table.is_bye:
            continue
        url = request.build_absolute_uri(reverse("table-report", args=[table.report_token]))
        label = _("Report the results of table %(number)s") % {"number": table.number}
        sheets.append(
            ScoreSheet(
                table=table,
                url=url,
                qr=qr_svg(url, label),
                games=[(game, _starter(table, game)) for game in table.games],
            )
        )
    return render(
        request,
        "tournaments/sheets.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": tables,
            "sheets": sheets,
            "colours": COLOURS,
            # Colours out (section 22) belong to Pentagame; other games of the family
            # only note their result per seat.
            "with_colours": getattr(tournament, "game", "pentagame") == "pentagame",
            "target_range": range(tournament.target),
        },
    )


@director_required
def open_tables(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Which tables of a round still miss results or wait for an opponent's confirmation."""
    round_ = _round(tournament, number)
    tables = [t for t in round_tables(round_=round_) if not t.is_bye]
    still_open = [
        {
            "table": t,
            "missing": [g for g in t.games if not g.played],
            "awaiting": [
                (g, next((s.name for s in t.seats if s.position == g.reported_by), ""))
                for g in t.games
                if g.played and not g.confirmed
            ],
            "report_url": reverse("table-report", args=[t.report_token]),
        }
        for t in tables
        if not t.complete
    ]
    return render(
        request,
        "tournaments/open_tables.html",
        {
            "tournament": tournament,
            "round": round_,
            "open": still_open,
            "total": len(tables),
            "done": len(tables) - len(still_open),
        },
    )
