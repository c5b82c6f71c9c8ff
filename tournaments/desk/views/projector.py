"""The projector: the current round's tables, then the standings, in large type.

The page renders everything once on the server (so it works without JavaScript) and
`agon/projector.js` keeps it live by polling `projector_data` every few seconds with
If-None-Match; between two results the answer is an empty 304 that costs five small
queries.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import quote_etag
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.core.page_cache import build_stamp, cached_body, store_body
from tournaments.core.poll import etag_matches, round_state
from tournaments.core.web import viewable_tournament
from tournaments.models import Round, Tournament
from tournaments.results.consumers import socket_path
from tournaments.results.rows import match_sentence
from tournaments.results.selectors.rounds import TableRow, round_tables
from tournaments.results.selectors.table_state import round_live_states
from tournaments.results.views.live_tables import mini_board_geometry
from tournaments.standings.selectors.standings import (
    Standings,
    standings_token,
    tournament_standings,
)
from tournaments.standings.selectors.teams import TeamStandings, team_standings

# Labels that reach the templates from models and selectors as plain English; marked
# here so that `makemessages` collects them and templates can `{% translate %}` them.
DISPLAY_LABELS = (
    gettext_noop("Swiss tournament"),
    gettext_noop("Round-robin league"),
    gettext_noop("Club evening"),
    gettext_noop("2-player tables, one 3-player table when odd"),
    gettext_noop("prefer 3-player tables"),
    gettext_noop("2-player tables and a bye when odd"),
    gettext_noop("draft"),
    gettext_noop("running"),
    gettext_noop("finished"),
    gettext_noop("active"),
    gettext_noop("withdrawn"),
    gettext_noop("late entry"),
    gettext_noop("paired (not yet published)"),
    gettext_noop("published"),
    gettext_noop("closed"),
    gettext_noop("not played yet"),
    gettext_noop("unfinished (the turn ended)"),
    gettext_noop("clockwise"),
    gettext_noop("widdershins"),
    gettext_noop("Opp."),
    gettext_noop("Median opp."),
    gettext_noop("Direct"),
    gettext_noop("Wins"),
    gettext_noop("Rating"),
    gettext_noop("Glicko-2"),
    gettext_noop("OpenSkill"),
    gettext_noop("Elo"),
    gettext_noop("New tournament"),
)


def projector_round(tournament: Tournament, number: str | None = None) -> Round | None:
    """The round a projector shows: the one asked for, else the latest published round,
    else the latest closed one. Rounds not yet published are never shown."""
    rounds = tournament.rounds.exclude(status=Round.Status.PAIRED)
    if number and number.isdigit():
        return rounds.filter(number=int(number)).first()
    return (
        rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
        or rounds.order_by("-number").first()
    )


def projector_etag(tournament: Tournament, round_: Round | None) -> str:
    """Changes whenever the standings or any game of the shown round change."""
    parts: list[Any] = [standings_token(tournament), tournament.updated_at, get_language()]
    if round_ is not None:
        parts += round_state(round_)
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:24]


def _table_state(table: TableRow) -> str:
    if table.is_bye or table.complete:
        return "complete"
    if table.awaiting_confirmation:
        return "awaiting"
    return "open"


def projector_payload(tournament: Tournament, round_: Round | None) -> dict[str, Any]:
    tables = round_tables(round_=round_) if round_ is not None else []
    # Games being played: their live state (ply, whose move, pieces out, the board).
    live = round_live_states(round_=round_) if round_ is not None else {}
    # A 2 vs 2 event is ranked by teams (selectors/teams.py); the rows have the same fields.
    standings: Standings | TeamStandings = (
        team_standings(tournament=tournament)
        if tournament.is_team_event
        else tournament_standings(tournament=tournament)
    )
    return {
        "tournament": tournament.name,
        "round": None if round_ is None else {"number": round_.number, "status": round_.status},
        "tables": [
            {
                "number": t.number,
                "bye": t.is_bye,
                "state": _table_state(t),
                "seats": [
                    {"position": s.position, "name": s.name, "score": s.round_score}
                    for s in t.seats
                ],
                # Where the tournament plays deciders: the 3-player match's result.
                "match": match_sentence(t),
                "games": [
                    {
                        "id": g.id,
                        "number": g.number,
                        "decider": g.decider,
                        "status": g.status,
                        # The socket's newer state of the game wins over a late poll's.
                        "version": g.version,
                        "confirmed": g.confirmed,
                        "out": g.out if g.played else None,
                        # A game in progress: the plies recorded so far, not a result.
                        "plies": g.moves if g.in_progress else None,
                        "live": live.get(g.id) if g.in_progress else None,
                    }
                    for g in t.games
                    # A voided decider counts nowhere (services/deciders.py).
                    if not g.voided
                ],
            }
            for t in tables
        ],
        "standings": {
            "rounds_closed": standings.rounds_closed,
            "rows": [
                {
                    "rank": r.rank,
                    "name": r.name,
                    "score": r.score,
                    "rounds": r.rounds,
                    "games": r.games,
                    "per_game": r.per_game,
                    "withdrawn": r.withdrawn,
                }
                for r in standings.rows
            ],
        },
    }


@require_GET
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = viewable_tournament(request, slug)
    round_ = projector_round(tournament, request.GET.get("round"))
    data_url = reverse("projector-data", args=[tournament.slug])
    if "round" in request.GET:
        data_url += f"?round={request.GET['round']}"
    payload = projector_payload(tournament, round_)
    return render(
        request,
        "tournaments/live/projector.html",
        {
            "tournament": tournament,
            "round": round_,
            "data": payload,
            "config": {
                "url": data_url,
                "etag": quote_etag(projector_etag(tournament, round_)),
                "poll": _seconds(request, "poll", 5) * 1000,
                "dwell": _seconds(request, "seconds", 12) * 1000,
                "data": payload,
                # The small live boards: drawn only for games with a board (Pentagame).
                "socket": socket_path(tournament.slug),
                "board": mini_board_geometry(tournament),
                "labels": {
                    "tables": _("Round %(number)s: tables"),
                    "tables_none": _("No round is running"),
                    "in_progress": _("in progress, ply %(ply)s"),
                    "to_move": _("%(name)s to move"),
                    "clock": _("%(seconds)s s left"),
                    # The egg timer paused, or its time up with no lost turn recorded
                    # (no device open at the table): never "0 s left" (issue 42).
                    "clock_paused": _("timer paused"),
                    "clock_up": _("time is up: waiting for the table"),
                    "standings": _("Standings after round %(number)s"),
                    "standings_none": _("Standings"),
                    "page": _("page %(page)s of %(pages)s"),
                    "bye": _("bye"),
                    "open": _("playing"),
                    "awaiting": _("awaiting confirmation"),
                    "complete": _("done"),
                    "unfinished": _("unfinished"),
                    "withdrawn": _("withdrawn"),
                    "no_results": _("No results yet."),
                    "updated": _("Updated %(time)s"),
                    "offline": _("No connection — retrying"),
                    "paused": _("Paused (space bar continues)"),
                    "announce": _("Results updated"),
                    "decider": _("Decider"),
                },
            },
        },
    )


def _seconds(request: HttpRequest, name: str, default: int) -> int:
    try:
        return min(120, max(2, int(request.GET.get(name, default))))
    except ValueError:
        return default


@require_GET
def projector_data(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's data as JSON; 304 when nothing changed since the given ETag."""
    tournament = viewable_tournament(request, slug)
    round_ = projector_round(tournament, request.GET.get("round"))
    etag = quote_etag(projector_etag(tournament, round_))
    response: HttpResponse
    if etag_matches(request.headers.get("If-None-Match"), etag):
        response = HttpResponseNotModified()
    else:
        # The same for everyone who may see it: kept once per ETag (the view has checked
        # who may see the tournament before this).
        key = f"projector:{build_stamp()}:{etag}"
        body = cached_body(key)
        if body is None:
            body = JsonResponse(projector_payload(tournament, round_)).content
            store_body(key, body)
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    # A hidden tournament's data never goes into a shared cache.
    response["Cache-Control"] = "public, no-cache" if tournament.published else "private, no-cache"
    response["Vary"] = "Accept-Language, Cookie"
    return response
