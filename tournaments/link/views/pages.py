"""The link's pages (docs/venue.md). On the club's site: the club's venue tokens, and an
event's page saying it is run at a venue, with "take over here" and "hand back". On the
venue: the club's link to its site, and an event's page publishing it there; the run
page shows the link's state in a line of its own (`event_link_line`)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_direct, can_organise
from tournaments.core.throttles import write_throttled
from tournaments.core.web import viewable_tournament
from tournaments.link import services
from tournaments.link.selectors import club_venue_tokens, event_link, link_state
from tournaments.models import Club, Tournament, VenueToken


def _club(request: HttpRequest, club_slug: str) -> Club:
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise Http404(_("there is no club at this address"))
    if not can_organise(request.user, club):
        raise PermissionDenied(_("only the club's organisers manage its link"))
    return club


@login_required
@write_throttled
def venue_tokens(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's venue tokens; a new one is shown once, on the answer to its form."""
    club = _club(request, club_slug)
    secret = None
    if request.method == "POST":
        try:
            _token, secret = services.venue_token_create(
                club=club, name=request.POST.get("name", ""), by=Actor.director(request.user)
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
    response = render(
        request,
        "tournaments/link/venue_tokens.html",
        {"club": club, "tokens": club_venue_tokens(club=club), "secret": secret},
    )
    response["Cache-Control"] = "no-store"  # the new token is on this page once
    return response


@login_required
@require_POST
@write_throttled
def venue_token_revoke(request: HttpRequest, club_slug: str, token_id: int) -> HttpResponse:
    club = _club(request, club_slug)
    token = VenueToken.objects.filter(pk=token_id, club=club).first()
    if token is None:
        raise Http404(_("there is no such token"))
    services.venue_token_revoke(token=token, by=Actor.director(request.user))
    messages.success(request, _("The token %(name)s is revoked.") % {"name": token.name})
    return redirect("venue-tokens", club_slug=club.slug)


@login_required
@write_throttled
def site_link(request: HttpRequest, club_slug: str) -> HttpResponse:
    """On the venue: the club's site and its token, entered once. Only the venue's
    server (config/bin/venue) links to another site: the club's site itself never
    sends requests to an address its organisers type."""
    if not settings.VENUE:
        raise Http404(_("a venue's link is made on the venue's laptop"))
    club = _club(request, club_slug)
    if request.method == "POST":
        try:
            services.site_link_set(
                club=club,
                site_url=request.POST.get("site_url", ""),
                token=request.POST.get("token", ""),
                by=Actor.director(request.user),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The club is linked to its site."))
            return redirect("site-link", club_slug=club.slug)
    return render(
        request, "tournaments/link/site_link.html", {"club": club, "state": link_state(club=club)}
    )


def _event(request: HttpRequest, slug: str) -> Tournament:
    tournament = viewable_tournament(request, slug)
    if not can_direct(request.user, tournament):
        raise PermissionDenied(_("only this tournament's directors may do that"))
    return tournament


@login_required
@write_throttled
def event_link_page(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's side of the link, and its actions: publish to the club's site, push
    now (the venue); take over here, hand back (the club's site)."""
    tournament = _event(request, slug)
    if request.method == "POST":
        by = Actor.director(request.user)
        action = request.POST.get("action", "")
        try:
            if action in ("publish", "push") and not settings.VENUE:
                raise ServiceError(_("a venue's link is made on the venue's laptop"))
            if action == "publish":
                services.event_publish(tournament=tournament, by=by)
                outcome = services.event_push(tournament=tournament, by=by)
                _told(request, outcome)
            elif action == "push":
                _told(request, services.event_push(tournament=tournament, by=by))
            elif action == "take_over":
                services.event_take_over(tournament=tournament, by=by)
                messages.success(request, _("The event is run on this site now."))
            elif action == "hand_back":
                services.event_hand_back(tournament=tournament, by=by)
                messages.success(request, _("The event is handed back to its venue."))
            else:
                raise ServiceError(_("choose an action"), field="action")
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("event-link", slug=tournament.slug)
    return render(
        request,
        "tournaments/link/event_link.html",
        {"tournament": tournament, **event_link(tournament=tournament)},
    )


def _told(request: HttpRequest, outcome: services.PushOutcome) -> None:
    if outcome.state == "failed":
        messages.error(
            request, _("The club's site did not answer: %(why)s") % {"why": outcome.message}
        )
    elif outcome.state == "refused":
        messages.error(
            request, _("The club's site refused the event: %(why)s") % {"why": outcome.message}
        )
    elif outcome.state == "no_link":
        messages.error(request, _("link the club to its site first"))
    elif outcome.state == "handed_over":
        messages.warning(request, _("The event was taken over on the club's site."))
    else:
        messages.success(request, _("The club's site has the event as it is here."))


@require_GET
def event_link_line(request: HttpRequest, slug: str) -> HttpResponse:
    """The run page's line about the link, loaded and refreshed by the page (htmx)."""
    tournament = viewable_tournament(request, slug)
    if not can_direct(request.user, tournament):
        return HttpResponse(status=204)
    return render(
        request,
        "tournaments/link/_event_link_line.html",
        {
            "tournament": tournament,
            "event_link_url": reverse("event-link", args=[tournament.slug]),
            **event_link(tournament=tournament),
        },
    )
