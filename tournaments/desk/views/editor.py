"""The organiser's pairing editor on the round page (before publishing): each seated
player has a "move to" choice (a table, the bye, the new table); the page shows the
warnings of the pairing and of the change, and asks for a reason before saving a change
that creates one. Plain forms; htmx posts the form to the live check on each change and
swaps in the warnings it answers (agon/pairing_editor.js makes the reason required)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.web import director_required
from tournaments.desk.services.pairing_edit import (
    NEW_TABLE,
    PairingWarningsError,
    Target,
    round_edit_preview,
    round_seats_rearrange,
    round_table_split,
)
from tournaments.desk.views.run_page import editor_context, manage_context
from tournaments.models import Entry, Round, Seat, Tournament

REASON_MAX = 500
# More places than this (tables, the bye, the new table) and the editor's "move to" is
# typed rather than chosen from a drop-down.


class _BadInput(Exception):
    def __init__(self, message: str, field_name: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field_name


def _moves(
    round_: Round, post: Any, blank_stays: bool = False
) -> tuple[list[tuple[Entry, Target]], dict[int, str]]:
    """The moves a posted editor form asks for: every `to_<entry>` whose choice differs
    from the player's table. Only players seated in this round and not withdrawn. With
    ``blank_stays`` (the live check) a typed place cleared to type another is no move."""
    seated = {
        s.entry_id: s
        for s in Seat.objects.filter(round=round_)
        .exclude(entry__status=Entry.Status.WITHDRAWN)
        .select_related("entry__player", "table")
    }
    tables = set(round_.tables.values_list("number", flat=True))
    moves: list[tuple[Entry, Target]] = []
    posted: dict[int, str] = {}
    for key in post:
        if not key.startswith("to_"):
            continue
        raw_id, value = key[3:], str(post.get(key, "")).strip().lower()
        if not raw_id.isdigit() or int(raw_id) not in seated:
            raise _BadInput(_("this player has no seat in this round"), "entry")
        seat = seated[int(raw_id)]
        if blank_stays and not value:
            continue
        target: Target
        # Typed (a big round's editor) also in the page's language: "spielfrei", "neu".
        if value in ("bye", _("bye").lower()):
            target = None
        elif value in (NEW_TABLE, pgettext("typed in the pairing editor: the new table", "new")):
            target = NEW_TABLE
        elif value.isdigit() and len(value) <= 4 and int(value) in tables:
            target = int(value)
        else:
            raise _BadInput(
                _("choose a table, the bye or the new table for %(name)s")
                % {"name": seat.entry.player.name},
                "table",
            )
        posted[seat.entry_id] = value
        if target == seat.table.number or (target is None and seat.table.is_bye):
            continue
        moves.append((seat.entry, target))
    return moves, posted


def _reason(post: Any) -> str:
    return str(post.get("override_reason", ""))[:REASON_MAX]


def _refused(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    posted: dict[int, str],
    error: str,
    created: list[str] | None = None,
    status: int = 400,
) -> HttpResponse:

    editor = editor_context(
        round_, posted, error=error, created=created or [], reason=_reason(request.POST)
    )
    if editor is None:
        # Published meanwhile (or a team event): no editor to show the error in.
        messages.error(request, error)
    context = manage_context(tournament, editor=editor)
    return render(request, "tournaments/manage.html", context, status=status)


@require_POST
@director_required
def round_edit(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Save the editor's moves, or split one table (the "split" button)."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    by = Actor.director(request.user)
    reason = _reason(request.POST)
    posted: dict[int, str] = {}
    try:
        split = str(request.POST.get("split", "")).strip()
        if split:
            if not split.isdigit() or len(split) > 4:
                raise _BadInput(_("choose a table to split"), "table")
            round_table_split(round=round_, table=int(split), override_reason=reason, by=by)
            success = _("Table %(table)s split.") % {"table": split}
        else:
            moves, posted = _moves(round_, request.POST)
            if not moves:
                messages.info(request, _("Nothing to change: every player is where she was."))
                return redirect(reverse("tournament-manage", args=[tournament.slug]) + "#editor")
            round_seats_rearrange(round=round_, moves=moves, override_reason=reason, by=by)
            success = _("The pairing of round %(number)s is changed.") % {"number": number}
    except PairingWarningsError as exc:
        return _refused(
            request,
            tournament,
            round_,
            posted,
            _("This change creates warnings: give a reason to save it anyway."),
            exc.warnings,
        )
    except (ServiceError, _BadInput) as exc:
        status = 409 if isinstance(exc, ConflictError) else 400
        return _refused(request, tournament, round_, posted, exc.message, status=status)
    messages.success(request, success)
    return redirect(reverse("tournament-manage", args=[tournament.slug]) + "#editor")


@require_POST
@director_required
def round_edit_check(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The live warnings of the editor's form as it stands (nothing is saved): the
    editor's warnings box, the same template as the page's, a refused choice's message
    in it as a 400 (409 for a conflict). The event `agon:editor-check` tells the page
    whether the change creates a warning (the reason is then required) and which players'
    places differ from the pairing as proposed. A round no longer editable (published
    meanwhile) sends the page to the organiser's page again."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    if round_.status != Round.Status.PAIRED or tournament.is_team_event:
        page = reverse("tournament-manage", args=[tournament.slug]) + "#editor"
        return HttpResponseClientRedirect(page) if request.htmx else redirect(page)
    error, status = "", 200
    try:
        moves, _posted = _moves(round_, request.POST, blank_stays=True)
        check = round_edit_preview(round=round_, moves=moves)
    except (ServiceError, _BadInput) as exc:
        error, status = exc.message, 409 if isinstance(exc, ConflictError) else 400
        check = round_edit_preview(round=round_, moves=[])  # creates nothing
    created = check.created
    response = render(
        request,
        "tournaments/_editor_warnings.html",
        {"editor": {"created": created, "current": check.current}, "check_error": error},
        status=status,
    )
    # The rows whose place the draft changes from the pairing as proposed (the page's
    # script marks them; a refused draft: those of the round as saved).
    return trigger_client_event(
        response,
        "agon:editor-check",
        {"reasonRequired": bool(created), "changed": check.changed},
    )
