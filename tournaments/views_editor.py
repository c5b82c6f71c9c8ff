"""The organiser's pairing editor on the round page (before publishing): each seated
player has a "move to" choice (a table, the bye, the new table); the page shows the
warnings of the pairing and of the change, and asks for a reason before saving a change
that creates one. Plain forms; agon/pairing_editor.js only shows the warnings live."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from .json_errors import error_response
from .models import Entry, Round, Seat, Tournament
from .services.errors import ConflictError, ServiceError
from .services.pairing_edit import (
    NEW_TABLE,
    PairingWarningsError,
    Target,
    round_edit_preview,
    round_seats_rearrange,
    round_table_split,
)
from .services.results import Actor
from .views_manage import director_required

REASON_MAX = 500
# More places than this (tables, the bye, the new table) and the editor's "move to" is
# typed rather than chosen from a drop-down.
TYPED_ABOVE = 24


@dataclass
class EditorRow:
    entry_id: int
    name: str
    table: int
    is_bye: bool
    position: int
    choice: str


@dataclass
class Editor:
    rows: list[EditorRow]
    options: list[tuple[str, str]]
    splittable: list[int]
    current: list[str]
    created: list[str] = field(default_factory=list)
    error: str = ""
    reason: str = ""

    @property
    def typed(self) -> bool:
        """Many places (a big Swiss): each "move to" is a typed field with one shared list
        of suggestions, as a drop-down per player would repeat every table for every
        player (250 tables × 500 players = 125,000 options, megabytes of page)."""
        return len(self.options) > TYPED_ABOVE


def _value(target: Target) -> str:
    return "bye" if target is None else str(target)


def editor_context(
    round_: Round, posted: dict[int, str] | None = None, **extra: Any
) -> Editor | None:
    """The editor for an unpublished round of a tournament that is not a team event;
    ``posted`` keeps the choices of a refused form."""
    if round_.status != Round.Status.PAIRED or round_.tournament.is_team_event:
        return None
    # Plain rows, not model instances: a big Swiss seats 500 players.
    seats = (
        Seat.objects.filter(round=round_)
        .exclude(entry__status=Entry.Status.WITHDRAWN)
        .order_by("table__number", "position")
        .values_list(
            "entry_id", "entry__player__name", "table__number", "table__is_bye", "position"
        )
    )
    posted = posted or {}
    rows = [
        EditorRow(
            entry_id=entry_id,
            name=name,
            table=number,
            is_bye=is_bye,
            position=position,
            choice=posted.get(entry_id, str(number)),
        )
        for entry_id, name, number, is_bye, position in seats
    ]
    tables = list(round_.tables.order_by("number").values_list("number", "is_bye"))
    options: list[tuple[str, str]] = []
    for number, is_bye in tables:
        label = (
            _("table %(number)s (bye)") % {"number": number}
            if is_bye
            else _("table %(number)s") % {"number": number}
        )
        options.append((str(number), label))
    options += [("bye", _("the bye")), (NEW_TABLE, _("the new table"))]
    sizes: dict[int, int] = {}
    for row in rows:
        if not row.is_bye:
            sizes[row.table] = sizes.get(row.table, 0) + 1
    current = round_edit_preview(round=round_, moves=[]).current
    return Editor(
        rows=rows,
        options=options,
        splittable=[n for n, size in sorted(sizes.items()) if size >= 3],
        current=current,
        **extra,
    )


class _BadInput(Exception):
    def __init__(self, message: str, field_name: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field_name


def _moves(round_: Round, post: Any) -> tuple[list[tuple[Entry, Target]], dict[int, str]]:
    """The moves a posted editor form asks for: every `to_<entry>` whose choice differs
    from the player's table. Only players seated in this round and not withdrawn."""
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
    from .views_manage import manage_context

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
    """The live warnings of the editor's form as it stands (nothing is saved)."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        moves, _posted = _moves(round_, request.POST)
        check = round_edit_preview(round=round_, moves=moves)
    except (ServiceError, _BadInput) as exc:
        return error_response(exc.message, field=exc.field)
    return JsonResponse({"current": check.current, "after": check.after, "created": check.created})
