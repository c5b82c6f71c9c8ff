"""Organiser pages: create a tournament, enter players, pair, publish, enter results,
close. Every write goes through a service; its ServiceError becomes a message."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import service_status
from tournaments.core.visibility import seed_seasons, seed_sources
from tournaments.desk.forms import (
    ForbiddenPairForm,
    LateEntryForm,
    PasteEntriesForm,
    SkipForm,
    SwapForm,
    TeamForm,
    TeamsPasteForm,
)
from tournaments.desk.services.pairing_edit import NEW_TABLE, Target, round_edit_preview
from tournaments.models import Entry, ForbiddenPair, Round, Seat, Skip, Tournament
from tournaments.results.selectors.night import round_night
from tournaments.results.selectors.rounds import round_tables
from tournaments.standings.selectors.teams import desk_teams


def _skips_by_entry(tournament: Tournament) -> dict[int, list[tuple[int, bool]]]:
    skips: dict[int, list[tuple[int, bool]]] = {}
    for entry_id, number, bye in (
        Skip.objects.filter(entry__tournament=tournament)
        .order_by("round_number")
        .values_list("entry_id", "round_number", "bye")
    ):
        skips.setdefault(entry_id, []).append((number, bye))
    return skips


def manage_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    """What the organiser's page shows; ``extra`` replaces a part (a form with errors)."""

    entries = tournament.entries.select_related("player").annotate(
        played=Exists(Seat.objects.filter(entry=OuterRef("pk")))
    )
    rounds = list(tournament.rounds.order_by("number"))
    current = rounds[-1] if rounds else None
    context: dict[str, Any] = {
        "tournament": tournament,
        "entries": entries.order_by("seed"),
        # Each entry's announced skips as (round, bye), in one query: prefetching them
        # costs more per entry than the rest of her row (500 players in a big Swiss).
        "skips": _skips_by_entry(tournament),
        "rounds": rounds,
        "current": current,
        "tables": round_tables(round_=current) if current else [],
        # The players' notices and the no-shows of the round being played (docs/results.md).
        "night": round_night(round_=current)
        if current and current.status == Round.Status.PUBLISHED
        else None,
        "paste_form": PasteEntriesForm(),
        "late_form": LateEntryForm(),
        "skip_form": SkipForm(),
        "forbid_form": ForbiddenPairForm(tournament=tournament),
        "seed_sources": seed_sources(tournament) if not rounds else [],
        "seed_seasons": seed_seasons(tournament) if not rounds else [],
        "swap_form": SwapForm(tournament=tournament),
        # Only players seated in the round and not withdrawn can swap or move, and
        # only before it is published: the swap's lists are not loaded after that.
        "seated": list(
            Seat.objects.filter(round=current)
            .exclude(entry__status=Entry.Status.WITHDRAWN)
            .order_by("entry__seed")
            .values_list("entry_id", "entry__player__name")
        )
        if current and current.status == Round.Status.PAIRED
        else [],
        "editor": editor_context(current) if current else None,
        "forbidden": ForbiddenPair.objects.filter(tournament=tournament).select_related(
            "first__player", "second__player"
        ),
        "check_in_used": tournament.entries.filter(checked_in=True).exists(),
        "evening_closed": tournament.kind == Tournament.Kind.EVENING
        and tournament.status == Tournament.Status.FINISHED,
        # A finished tournament or a closed evening is shown as it ended: no entering,
        # withdrawing, skipping or report links (the services refuse them too,
        # services.entries.open_for_entries); only the ways back (add rounds, reopen).
        "read_only": tournament.status == Tournament.Status.FINISHED,
        # Players report while a round is played: no links once it is closed.
        "report_links": current is not None and current.status != Round.Status.CLOSED,
        "next_round": rounds[-1].number + 1 if rounds else 1,
        "skip_entry": None,
    }
    if tournament.is_team_event:
        context.update(
            teams=desk_teams(tournament=tournament),
            teams_paste_form=TeamsPasteForm(),
            team_form=TeamForm(tournament=tournament),
        )
    context.update(extra)
    return context


TYPED_ABOVE = 24


@dataclass
class EditorRow:
    entry_id: int
    name: str
    table: int
    is_bye: bool
    position: int
    choice: str
    # Her place differs from the pairing as proposed; what it proposed for her.
    changed: bool = False
    proposed: str = ""


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
    preview = round_edit_preview(round=round_, moves=[])
    names = {entry_id: name for entry_id, name, *_rest in seats}
    rows = [
        EditorRow(
            entry_id=entry_id,
            name=name,
            table=number,
            is_bye=is_bye,
            position=position,
            choice=posted.get(entry_id, str(number)),
            changed=entry_id in preview.proposed,
            proposed=_proposed_text(preview.proposed.get(entry_id), names),
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
    return Editor(
        rows=rows,
        options=options,
        splittable=[n for n, size in sorted(sizes.items()) if size >= 3],
        current=preview.current,
        **extra,
    )


def _proposed_text(mates: list[int] | None, names: dict[int, str]) -> str:
    """What the pairing proposed for a player whose place changed: her table-mates, or
    the bye. A mate withdrawn since (no row of her own) is looked up."""
    if mates is None:
        return ""
    if not mates:
        return _("proposed: the bye")
    missing = [m for m in mates if m not in names]
    if missing:
        names = {
            **names,
            **dict(Entry.objects.filter(pk__in=missing).values_list("pk", "player__name")),
        }
    return _("proposed: with %(names)s") % {"names": ", ".join(names.get(m, "?") for m in mates)}


def refused_on_run_page(
    request: HttpRequest, tournament: Tournament, exc: ServiceError, **extra: Any
) -> HttpResponse:
    """The organiser's page again, with the message, answering 4xx."""
    messages.error(request, exc.message)
    return render(
        request,
        "tournaments/manage.html",
        manage_context(tournament, **extra),
        status=service_status(exc),
    )
