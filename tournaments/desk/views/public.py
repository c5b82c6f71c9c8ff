"""Public pages: published tournaments, their rounds, standings and players; exports."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournaments.core.csv_export import SafeWriter
from tournaments.core.page_cache import public_page, ready_page
from tournaments.core.permissions import can_direct
from tournaments.core.poll import POLL_MS, poll_etag, recent_games_state, round_state
from tournaments.core.visibility import tournaments_visible_to
from tournaments.core.web import viewable_tournament
from tournaments.desk.rows import attach_why, table_why
from tournaments.desk.selectors.explanations import round_why
from tournaments.desk.selectors.pre_round import pre_round_view
from tournaments.models import Club, Entry, Game, Round, Seat, Tournament
from tournaments.results.selectors.rounds import round_tables
from tournaments.results.selectors.table_state import attach_live
from tournaments.results.views.live_tables import live_tables_config
from tournaments.standings.selectors.standings import (
    standings_token,
    tournament_standings,
    version_token,
)
from tournaments.standings.selectors.teams import team_standings


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = (
        tournaments_visible_to(request.user)
        .select_related("club")
        .annotate(players=Count("entries", distinct=True))
        .order_by("-date", "-created_at")
    )
    clubs = Club.objects.annotate(members=Count("players")).order_by("name")
    return render(request, "home.html", {"tournaments": tournaments, "clubs": clubs})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and the test command: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True, "database": connection.vendor})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = viewable_tournament(request, slug)
    rounds = tournament.rounds.order_by("number")
    if not can_direct(request.user, tournament):
        rounds = rounds.exclude(status=Round.Status.PAIRED)
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "can_direct": can_direct(request.user, tournament),
    }
    if tournament.is_team_event:
        # A 2 vs 2 event is a contest of teams: its page leads with their standings.
        context["teams"] = team_standings(tournament=tournament)
    else:
        context["standings"] = tournament_standings(tournament=tournament)
    return render(request, "tournaments/detail.html", context)


@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    if not request.user.is_authenticated and request.META.get("QUERY_STRING", "") in ROUND_QUERIES:
        early = _round_from_cache(request, slug, number)
        if early is not None:
            return early
    tournament = viewable_tournament(request, slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    director = can_direct(request.user, tournament)
    if round_.status == Round.Status.PAIRED and not director:
        raise Http404("this round is not published yet")
    fmt = request.GET.get("format")
    if fmt in {"csv", "json"}:
        return _pairings_export(tournament, round_, round_tables(round_=round_), fmt)

    def page(etag: str) -> HttpResponse:
        tables = round_tables(round_=round_)
        attach_live(tables)
        # Each table's "why?" (docs/pairing.md, "Explanations").
        why = round_why(round_)
        attach_why(tables, why)
        return render(
            request,
            "tournaments/round.html",
            {
                "tournament": tournament,
                "round": round_,
                "tables": tables,
                # Round 1 of a Swiss with a pre-round says so (docs/pairing.md).
                "pre_round": pre_round_view(round_),
                "can_direct": director,
                "print": "print" in request.GET,
                "poll_etag": etag,
                "live_poll": POLL_MS,
                "live_tables": live_tables_config(tournament),
                "why": why,
            },
        )

    etag = _round_etag(
        request, director, standings_token(tournament), tournament.updated_at, round_state(round_)
    )
    return public_page(request, etag, page, shared_queries=ROUND_QUERIES)


# The round page's query strings whose page is kept for every visitor.
ROUND_QUERIES = ("", "print")


def _round_etag(
    request: HttpRequest, director: bool, token: str, updated_at: datetime, state: list[Any]
) -> str:
    """What the round page shows: the round's games (`round_state`), the names, scores and
    settings behind the standings' version (which rating jobs bump for events being
    played, as the chances come from the ratings), the tournament row itself, and who
    looks."""
    return poll_etag(request, "round", director, token, updated_at.timestamp(), *state)


# The round page's early read: plain SQL, as building the ORM's query took several
# times longer than running it (as for the standings' polls, standings/middleware.py).
# Its games' part comes from `recent_games_state`.
_ROUND_SQL = (
    "SELECT r.id, r.status, t.id, t.created_at, t.standings_version, t.updated_at "
    f"FROM {Tournament._meta.db_table} t "
    f"JOIN {Round._meta.db_table} r ON r.tournament_id = t.id "
    "WHERE t.slug = %s AND t.published AND r.number = %s AND r.status <> %s LIMIT 1"
)


def _aware(value: datetime) -> datetime:
    # SQLite hands plain SQL naive datetimes (stored in UTC); PostgreSQL aware ones.
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


def _round_from_cache(request: HttpRequest, slug: str, number: int) -> HttpResponse | None:
    """A visitor's round page of a published tournament from one small query (the
    tournament's versions, the round's status) and its games' `recent_games_state`: a 304 or
    the page kept in the cache; None sends the request the whole way (a render, a
    director, a hidden tournament or round, a 404)."""
    with connection.cursor() as cursor:
        cursor.execute(_ROUND_SQL, [slug, number, Round.Status.PAIRED.value])
        row = cursor.fetchone()
    if row is None:
        return None
    round_id, status, tournament_id, created_at, version, updated_at = row
    token = version_token(tournament_id, _aware(created_at), version)
    # The same list as round_state(round_), its games' part read at most once per lag.
    state = [round_id, status, *recent_games_state(round_id)]
    etag = _round_etag(request, False, token, _aware(updated_at), state)
    return ready_page(request, etag, shared_queries=ROUND_QUERIES)


def _pairings_export(
    tournament: Tournament,
    round_: Round,
    tables: list,
    fmt: str,  # type: ignore[type-arg]
) -> HttpResponse:
    data = [
        {
            "table": t.number,
            "bye": t.is_bye,
            "players": [s.name for s in t.seats],
            "round_scores": [s.round_score for s in t.seats],
        }
        for t in tables
    ]
    if fmt == "json":
        return JsonResponse({"tournament": tournament.slug, "round": round_.number, "tables": data})
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-round-{round_.number}.csv"'
    )
    writer = SafeWriter(response)
    writer.writerow(["table", "seat", "player", "round score"])
    for row in data:
        for seat, (name, score) in enumerate(
            zip(row["players"], row["round_scores"], strict=True), start=1
        ):
            writer.writerow(["bye" if row["bye"] else row["table"], seat, name, score])
    return response


@require_GET
def entry_detail(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = viewable_tournament(request, slug)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, pk=entry_id
    )
    visible_rounds = Round.objects.filter(tournament=tournament)
    if not can_direct(request.user, tournament):
        visible_rounds = visible_rounds.exclude(status=Round.Status.PAIRED)
    seats = (
        Seat.objects.filter(entry=entry, round__in=visible_rounds)
        .select_related("table", "round")
        .prefetch_related(
            Prefetch("table__seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch("table__games", queryset=Game.objects.order_by("number")),
        )
        .order_by("round__number")
    )
    seats = list(seats)
    # Why she sits at her latest table (docs/pairing.md, "Explanations"): one round's.
    why = table_why(seats[-1].round, seats[-1].table.number) if seats else []
    standings = tournament_standings(tournament=tournament)
    row = next((r for r in standings.rows if r.entry_id == entry.pk), None)
    apart = next((r for r in standings.not_ranked if r.entry_id == entry.pk), None)
    return render(
        request,
        "tournaments/entry.html",
        {
            "tournament": tournament,
            "entry": entry,
            "seats": seats,
            "row": row,
            "apart": apart,
            "why": why,
            "why_round": seats[-1].round if seats else None,
        },
    )
