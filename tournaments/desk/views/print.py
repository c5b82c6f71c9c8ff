"""Printing for the organiser: the round's pairing sheet and one score sheet per table,
with a QR code beside each player's name that opens that player's own report page; and
the list of the tables whose results are still missing, wait for an opponent's
confirmation, or are disputed (the organiser accepts one report with one click)."""

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
from tournaments.core.poll import POLL_MS, poll_etag, poll_page, round_state
from tournaments.core.web import director_required, round_or_404
from tournaments.models import ResultSubmission, Round, Seat, Tournament
from tournaments.results.selectors.rounds import (
    GameRow,
    SeatRow,
    TableRow,
    round_open_reasons,
    round_tables,
)


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``: quartile error correction, so a creased or smudged sheet
    (or a phone's glare on a screen) still scans."""
    return segno.make(url, error="q", micro=False)


def qr_svg(url: str, label: str) -> SafeString:
    """An inline, scalable SVG QR code for ``url``."""
    svg = qr_code(url).svg_inline(scale=1, border=2, omitsize=True, svgclass="qr", title=label)
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


@director_required
def seat_report_qr(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """A seat's report link as an SVG image of its QR code, for the run page's "QR / link"
    of each seat (loaded only when the organiser opens it, to show a player the code on
    the screen). For the tournament's directors only, like the link itself."""
    seat = get_object_or_404(
        Seat.objects.select_related("entry__player", "table"),
        report_token=token[:64],
        round__tournament=tournament,
    )
    url = request.build_absolute_uri(reverse("seat-report", args=[seat.report_token]))
    label = _("%(name)s: report the results of table %(number)s") % {
        "name": seat.entry.player.name,
        "number": seat.table.number,
    }
    # An image of its own needs the namespace, which the inline form leaves out.
    svg = qr_code(url).svg_inline(scale=4, border=2, title=label)
    svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@dataclass
class PlayerLink:
    seat: SeatRow
    url: str
    qr: SafeString


@dataclass
class ScoreSheet:
    table: TableRow
    players: list[PlayerLink]  # each player's own report link, printed beside the name
    games: list[tuple[GameRow, str]]  # each game with who starts, by name


def _starter(table: TableRow, game: GameRow) -> str:
    seat = next((s for s in table.seats if s.position == game.first_position), None)
    return seat.name if seat else str(game.first_position)


@director_required
def round_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = round_or_404(tournament, number)
    tables = round_tables(round_=round_)
    sheets = []
    for table in tables:
        if table.is_bye:
            continue
        players = []
        for seat in table.seats:
            url = request.build_absolute_uri(reverse("seat-report", args=[seat.report_token]))
            label = _("%(name)s: report the results of table %(number)s") % {
                "name": seat.name,
                "number": table.number,
            }
            players.append(PlayerLink(seat, url, qr_svg(url, label)))
        sheets.append(
            ScoreSheet(
                table=table,
                players=players,
                # The match as paired; a decider comes only when the match is tied.
                games=[(game, _starter(table, game)) for game in table.games if not game.decider],
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
            # Colours out (section 22, Table 4) belong to Pentagame; other games of the
            # family only note their result per seat.
            "with_colours": tournament.ruleset.has_colour_letters,
            "target_range": range(tournament.target),
        },
    )


@director_required
def open_tables(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Which tables of a round still miss results, wait for an opponent's confirmation,
    or have players' reports that disagree; each open report can be accepted at once."""
    round_ = round_or_404(tournament, number)
    return poll_page(
        request,
        poll_etag(request, "open-tables", *round_state(round_)),
        lambda etag: _open_tables_page(request, tournament, round_, etag),
    )


def _open_tables_page(
    request: HttpRequest, tournament: Tournament, round_: Round, etag: str
) -> HttpResponse:
    tables = [t for t in round_tables(round_=round_) if not t.is_bye]
    reasons = round_open_reasons(round_=round_)
    reports: dict[int, list[ResultSubmission]] = {}
    for submission in ResultSubmission.objects.filter(
        game__table__round=round_,
        state__in=[ResultSubmission.State.REPORTED, ResultSubmission.State.DISPUTED],
    ).select_related("by_seat__entry__player"):
        reports.setdefault(submission.game_id, []).append(submission)
    still_open = [
        {
            "table": t,
            # A voided decider counts nowhere: nothing of it is missing.
            "missing": [g for g in t.counting_games if not g.played and not g.disputed],
            "awaiting": [
                (g, reports.get(g.id, []))
                for g in t.counting_games
                if g.played and not g.confirmed and not g.disputed
            ],
            "disputed": [(g, reports.get(g.id, [])) for g in t.counting_games if g.disputed],
            # Held offline entries, flags, games in progress: the same reasons as the
            # close refusal's (selectors/rounds.py, round_open_reasons).
            "others": [
                r
                for r in reasons.get(t.number, [])
                if r.reason in ("held", "flagged", "in_progress")
            ],
        }
        for t in tables
        if t.number in reasons
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
            "poll_etag": etag,
            "live_poll": POLL_MS,
        },
    )
