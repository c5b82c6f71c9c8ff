"""A club's webhooks on its pages (docs/league.md, "Webhooks"): the organisers add an
endpoint (its secret shown once, on the answer to the form), send it a test, disable,
enable or delete it. The list and the log are on the club's page (desk/views/clubs.py,
selectors.club_webhooks). Only the club's organisers: everyone else is refused (403)
and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import can_organise
from tournaments.core.throttles import write_throttled
from tournaments.models import Club, WebhookEndpoint
from tournaments.webhooks import services
from tournaments.webhooks.forms import WebhookForm


def _club(request: HttpRequest, club_slug: str) -> Club:
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise Http404(_("no such club"))
    if not can_organise(request.user, club):
        raise PermissionDenied(_("only this club's organisers may do that"))
    return club


def _endpoint(request: HttpRequest, club_slug: str, endpoint_id: int) -> WebhookEndpoint:
    club = _club(request, club_slug)
    endpoint = WebhookEndpoint.objects.filter(pk=endpoint_id, club=club).first()
    if endpoint is None:
        raise Http404(_("no such webhook"))
    endpoint.club = club
    return endpoint


def _back(club_slug: str) -> HttpResponse:
    return redirect(reverse("club-detail", args=[club_slug]) + "#webhooks")


@login_required
@write_throttled
def webhook_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _club(request, club_slug)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            endpoint, secret = services.webhook_endpoint_create(
                club=club, by=Actor.director(request.user), **form.cleaned_data
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            # The secret is shown here once; it is never shown again (the receiver keeps it).
            return render(
                request,
                "tournaments/webhook_created.html",
                {"club": club, "endpoint": endpoint, "secret": secret},
            )
    status = 400 if request.method == "POST" else 200
    return render(
        request, "tournaments/webhook_form.html", {"club": club, "form": form}, status=status
    )


@login_required
@require_POST
@write_throttled
def webhook_test(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    endpoint = _endpoint(request, club_slug, endpoint_id)
    services.webhook_test_send(endpoint=endpoint, by=Actor.director(request.user))
    messages.success(request, _("A test message is on its way; its answer shows in the log."))
    return _back(club_slug)


@login_required
@require_POST
@write_throttled
def webhook_active(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    endpoint = _endpoint(request, club_slug, endpoint_id)
    active = request.POST.get("active") == "yes"
    services.webhook_endpoint_set_active(
        endpoint=endpoint, active=active, by=Actor.director(request.user)
    )
    messages.success(request, _("Webhook enabled.") if active else _("Webhook disabled."))
    return _back(club_slug)


@login_required
@require_POST
@write_throttled
def webhook_delete(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    endpoint = _endpoint(request, club_slug, endpoint_id)
    services.webhook_endpoint_delete(endpoint=endpoint, by=Actor.director(request.user))
    messages.success(request, _("Webhook deleted."))
    return _back(club_slug)
