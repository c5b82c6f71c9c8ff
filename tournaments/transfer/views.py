"""A tournament carried whole: exported as a document, imported from one (docs/api.md)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.core import jsonbody
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.visibility import clubs_run_by
from tournaments.core.web import (
    to_run_page,
    viewable_tournament,
)
from tournaments.transfer.services import tournament_export_document, tournament_import_document


@require_GET
def tournament_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament as one JSON document that another installation can import."""
    tournament = viewable_tournament(request, slug)
    document = tournament_export_document(tournament=tournament)
    response = HttpResponse(
        json.dumps(document, indent=1, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


@login_required
def tournament_import(request: HttpRequest) -> HttpResponse:
    clubs = clubs_run_by(request.user)
    if not clubs.exists():
        raise PermissionDenied("only club organisers can import tournaments")
    if request.method == "POST":
        upload = request.FILES.get("document")
        try:
            if upload is None:
                raise ServiceError(_("choose a tournament JSON file"), field="document")
            try:
                document = jsonbody.loads(upload.read().decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise ServiceError(
                    _("not a JSON document: %(exc)s") % {"exc": exc}, field="document"
                ) from None
            chosen = request.POST.get("club", "")
            club = clubs.filter(pk=int(chosen)).first() if chosen.isdigit() else None
            if chosen and club is None:
                raise ServiceError(_("choose one of your clubs"), field="club")
            tournament = tournament_import_document(
                document=document,
                club=club,
                players_by_name=bool(request.POST.get("players_by_name")),
                by=Actor.director(request.user),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(name)s imported.") % {"name": tournament.name})
            return to_run_page(tournament)
    return render(request, "tournaments/import.html", {"clubs": clubs})
