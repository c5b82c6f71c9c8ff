"""2 vs 2 team events: the organiser's teams (formed from entered players or pasted as a
list, renamed, withdrawn and re-admitted, dissolved before their first round) and the
public team standings. Every write is a service call (services/teams.py); a refused
one answers 4xx with its message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.core.actor import Actor
from tournaments.core.csv_export import SafeWriter
from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import service_status
from tournaments.core.poll import POLL_MS, poll_etag, poll_page
from tournaments.core.web import (
    confirmed,
    director_required,
    form_problems,
    to_run_page,
    viewable_tournament,
)
from tournaments.desk.forms import TeamForm, TeamNameForm, TeamsPasteForm
from tournaments.desk.services import teams as team_services
from tournaments.desk.views.desk import paste_list
from tournaments.desk.views.run_page import refused_on_run_page
from tournaments.models import Team, Tournament
from tournaments.standings.selectors.standings import standings_state, tournament_standings
from tournaments.standings.selectors.teams import team_standings


def _team(tournament: Tournament, team_id: int) -> Team:
    if team_id >= 2**63:  # a typed-in id no database integer holds
        raise Http404("no such team")
    if not tournament.is_team_event:
        raise Http404("not a team event")
    return get_object_or_404(
        Team.objects.select_related("first__player", "second__player"),
        tournament=tournament,
        pk=team_id,
    )


@require_POST
@director_required
def teams_paste(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return paste_list(
        request,
        tournament,
        TeamsPasteForm(request.POST),
        field="teams",
        form_key="teams_paste_form",
        empty=_("Paste at least one team."),
        paste=team_services.teams_paste,
        entered=_("%(count)s teams entered."),
        anchor="#teams",
    )


@require_POST
@director_required
def team_form(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Two players already entered, and in no team, become a team."""
    form = TeamForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return refused_on_run_page(
            request, tournament, ServiceError(form_problems(form)), team_form=form
        )
    data = form.cleaned_data
    try:
        team = team_services.team_form(
            tournament=tournament,
            name=data["name"],
            first=data["first"],
            second=data["second"],
            by=Actor.director(request.user),
        )
    except ServiceError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        return refused_on_run_page(request, tournament, exc, team_form=form)
    messages.success(request, _("Team %(name)s entered.") % {"name": team.name})
    return to_run_page(tournament, "#teams")


@director_required
def team_edit(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    team = _team(tournament, team_id)
    form = TeamNameForm(request.POST or None, initial={"name": team.name})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                team_services.team_rename(
                    team=team, name=form.cleaned_data["name"], by=Actor.director(request.user)
                )
            except ServiceError as exc:
                form.add_error("name", exc.message)
                status = service_status(exc)
            else:
                messages.success(request, _("Team %(name)s saved.") % {"name": team.name})
                return to_run_page(tournament, "#teams")
        else:
            status = 400
    return render(
        request,
        "tournaments/team_edit.html",
        {"tournament": tournament, "team": team, "form": form},
        status=status,
    )


def _confirm_or(
    request: HttpRequest, tournament: Tournament, team: Team, action: str
) -> HttpResponse | None:
    """The page asking first (with the consequences and one button), or None once the
    organiser has confirmed."""
    if confirmed(request):
        return None
    return render(
        request,
        "tournaments/team_confirm.html",
        {"tournament": tournament, "team": team, "action": action},
    )


def _confirmed_team_action(
    request: HttpRequest,
    tournament: Tournament,
    team_id: int,
    action: str,
    service: Callable[..., object],
    done: str,
) -> HttpResponse:
    """Withdraw or dissolve: asked first on a page of its own, then done by the service."""
    team = _team(tournament, team_id)
    asking = _confirm_or(request, tournament, team, action)
    if asking is not None:
        return asking
    try:
        service(team=team, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, done % {"name": team.name})
    return to_run_page(tournament, "#teams")


@director_required
def team_withdraw(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    return _confirmed_team_action(
        request,
        tournament,
        team_id,
        "withdraw",
        team_services.team_withdraw,
        _("%(name)s withdrawn; the team will not be paired again."),
    )


@require_POST
@director_required
def team_readmit(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    team = _team(tournament, team_id)
    try:
        team_services.team_readmit(team=team, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(
        request, _("%(name)s is back and paired from the next round.") % {"name": team.name}
    )
    return to_run_page(tournament, "#teams")


@director_required
def team_dissolve(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    return _confirmed_team_action(
        request,
        tournament,
        team_id,
        "dissolve",
        team_services.team_dissolve,
        _("Team %(name)s dissolved; its players stay entered."),
    )


def _team_standings_csv(tournament: Tournament) -> HttpResponse:
    standings = team_standings(tournament=tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-teams.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        ["rank", "team", "player", "player", "score", "rounds", "games", "per game", "per match"]
        + list(standings.tiebreak_labels)
    )
    for row in standings.rows:
        writer.writerow(
            [row.rank, row.name, *row.players, row.score, row.rounds, row.games]
            + [row.per_game, row.per_match, *row.tiebreaks]
        )
    # Below them, without rank or score, the teams that did not play (not ranked).
    blank = [""] * len(standings.tiebreak_labels)
    for row in standings.not_ranked:
        writer.writerow(["", row.name, *row.players, "", row.rounds, row.games, "", "", *blank])
    return response


@require_GET
def team_standings_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The teams' standings, and the players' below them (a player scores her team's
    dropped score in every game). Live like the players' standings page."""
    tournament = viewable_tournament(request, slug)
    if not tournament.is_team_event:
        raise Http404("not a team event")
    fmt = request.GET.get("format")
    if fmt == "csv":
        return _team_standings_csv(tournament)
    teams = team_standings(tournament=tournament)
    if fmt == "json":
        return JsonResponse(teams.as_json())
    return poll_page(
        request,
        poll_etag(request, "team standings", standings_state(tournament)),
        lambda etag: render(
            request,
            "tournaments/team_standings.html",
            {
                "tournament": tournament,
                "teams": teams,
                "standings": tournament_standings(tournament=tournament),
                "poll_etag": etag,
                "live_poll": POLL_MS,
            },
        ),
    )
