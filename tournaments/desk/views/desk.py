"""The organiser's desk: entering and correcting players, withdrawing and re-admitting
them, announced byes and absences, check-in at the door, and taking back a step (a
finished tournament's extra rounds, a closed evening). Every write is a service call;
a refused one answers 4xx with its message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import service_status
from tournaments.core.web import confirmed, director_required, form_problems, to_run_page
from tournaments.desk.forms import EntryForm, LateEntryForm, PasteEntriesForm, SkipForm
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services import rounds as round_services
from tournaments.desk.services import tournaments as tournament_services
from tournaments.desk.services.entries import NamesInDoubt, PasteError
from tournaments.desk.services.evenings import evening_reopen
from tournaments.desk.views.run_page import manage_context, refused_on_run_page
from tournaments.models import Entry, Round, Tournament


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    if entry_id >= 2**63:  # a typed-in id no database integer holds
        raise Http404("no such entry")
    return get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, pk=entry_id
    )


def paste_list(
    request: HttpRequest,
    tournament: Tournament,
    form: forms.Form,
    *,
    field: str,
    form_key: str,
    empty: str,
    paste: Callable[..., list[Any]],
    entered: str,
    anchor: str,
    ask: Callable[[NamesInDoubt], HttpResponse] | None = None,
) -> HttpResponse:
    """A pasted list (players, or teams): entered whole, or refused whole with the text
    kept in its box and every bad line named, so nothing typed is lost."""
    if not form.is_valid():
        return refused_on_run_page(
            request, tournament, ServiceError(empty, field=field), **{form_key: form}
        )
    try:
        done = paste(
            tournament=tournament, text=form.cleaned_data[field], by=Actor.director(request.user)
        )
    except PasteError as exc:
        for problem in exc.problems:
            form.add_error(field, problem)
        return render(
            request,
            "tournaments/manage.html",
            manage_context(tournament, **{form_key: form}),
            status=400,
        )
    except ServiceError as exc:
        if ask is not None and isinstance(exc, NamesInDoubt):
            return ask(exc)
        form.add_error(field, exc.message)
        return refused_on_run_page(request, tournament, exc, **{form_key: form})
    messages.success(request, entered % {"count": len(done)})
    return to_run_page(tournament, anchor)


def _choice(raw: str) -> entry_services.Choice | None:
    """A posted answer to a doubtful name: a player's id, or "new"; None if not one."""
    if raw == "new":
        return raw
    if raw.isascii() and raw.isdigit() and len(raw) < 19:
        return int(raw)
    return None


def _paste_choices(request: HttpRequest) -> dict[int, entry_services.Choice]:
    choices: dict[int, entry_services.Choice] = {}
    for key, raw in request.POST.items():
        number = key.removeprefix("line-")
        choice = _choice(raw)
        if number != key and number.isascii() and number.isdigit() and choice is not None:
            choices[int(number[:6])] = choice
    return choices


@require_POST
@director_required
def entries_paste(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A pasted list. A line that names a player of the club written otherwise, or that
    may be one (a near name, two players of that name), is shown on a confirmation page
    first, where the organiser chooses; a list of plain new and known names is entered
    at once."""
    form = PasteEntriesForm(request.POST)
    choices = _paste_choices(request)
    again = confirmed(request)

    def ask(exc: NamesInDoubt) -> HttpResponse:
        context = {
            "tournament": tournament,
            "action": "paste",
            "lines": exc.lines,
            "text": form.cleaned_data["players"],
            "undecided": again,
        }
        return render(
            request, "tournaments/entry_confirm.html", context, status=409 if again else 200
        )

    return paste_list(
        request,
        tournament,
        form,
        field="players",
        form_key="paste_form",
        empty=_("Paste at least one player's name."),
        paste=lambda **kwargs: entry_services.entries_paste(
            choices=choices, confirm_matches=not again, **kwargs
        ),
        entered=_("%(count)s players entered."),
        anchor="#players",
        ask=ask,
    )


@require_POST
@director_required
def entry_add_late(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One player, with the points for each round they missed (the organiser's choice).
    A name only near a player of the club, or matching two, asks whom it means first."""
    form = LateEntryForm(request.POST)
    if not form.is_valid():
        return refused_on_run_page(
            request, tournament, ServiceError(form_problems(form)), late_form=form
        )
    data = form.cleaned_data
    try:
        entry = entry_services.entry_add(
            tournament=tournament,
            name=data["name"],
            rating=data["rating"],
            missed_round_score=data["missed_round_score"],
            player_choice=_choice(request.POST.get("player_choice", "")),
            by=Actor.director(request.user),
        )
    except NamesInDoubt as exc:
        return render(
            request,
            "tournaments/entry_confirm.html",
            {
                "tournament": tournament,
                "action": "choose",
                "lines": exc.doubts,
                "data": data,
                "next": request.POST.get("next", ""),
            },
            status=200,
        )
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc, late_form=form)
    messages.success(request, _("%(name)s entered.") % {"name": entry.player.name})
    return _check_in_back(request, tournament)


@director_required
def entry_edit(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    late = entry.joined_round > 1
    initial = {
        "name": entry.player.name,
        "rating": entry.rating,
        "missed_round_score": entry.missed_round_score,
    }
    form = EntryForm(request.POST or None, initial=initial, late=late)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            changes = {"name": data["name"], "rating": data["rating"]}
            if late:
                changes["missed_round_score"] = data["missed_round_score"]
            try:
                entry_services.entry_update(entry=entry, by=Actor.director(request.user), **changes)
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
                status = service_status(exc)
            else:
                messages.success(request, _("%(name)s saved.") % {"name": data["name"]})
                return to_run_page(tournament, "#players")
        else:
            status = 400
    return render(
        request,
        "tournaments/entry_edit.html",
        {"tournament": tournament, "entry": entry, "form": form},
        status=status,
    )


@director_required
def entry_withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Asks first (a page with the consequences and one button), then withdraws."""
    entry = _entry(tournament, entry_id)
    if not confirmed(request):
        return render(
            request,
            "tournaments/entry_confirm.html",
            {"tournament": tournament, "entry": entry, "action": "withdraw"},
        )
    try:
        entry_services.entry_withdraw(entry=entry, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(
        request,
        _("%(name)s withdrawn; they will not be paired again.") % {"name": entry.player.name},
    )
    return to_run_page(tournament, "#players")


@director_required
def entry_delete(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    if not confirmed(request):
        return render(
            request,
            "tournaments/entry_confirm.html",
            {"tournament": tournament, "entry": entry, "action": "delete"},
        )
    name = entry.player.name
    try:
        entry_services.entry_delete(entry=entry, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, _("%(name)s removed from the list.") % {"name": name})
    return to_run_page(tournament, "#players")


@require_POST
@director_required
def entry_readmit(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    try:
        entry_services.entry_readmit(entry=entry, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(
        request, _("%(name)s is back and paired from the next round.") % {"name": entry.player.name}
    )
    return to_run_page(tournament, "#players")


@require_POST
@director_required
def entry_skip(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    return _skip(request, tournament, _entry(tournament, entry_id))


@require_POST
@director_required
def entries_skip(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players list's one form for announced byes and absences: the player is a
    field of the form (one form for the list, not one per row)."""
    raw = request.POST.get("entry", "")
    if not raw.isascii() or not raw.isdigit():
        return refused_on_run_page(
            request,
            tournament,
            ServiceError(_("choose a player"), field="entry"),
            skip_form=SkipForm(request.POST),
        )
    return _skip(request, tournament, _entry(tournament, int(raw)))


def _skip(request: HttpRequest, tournament: Tournament, entry: Entry) -> HttpResponse:
    form = SkipForm(request.POST)
    # A refused form comes back as typed, the player still chosen.
    kept = {"skip_form": form, "skip_entry": entry.pk}
    if not form.is_valid():
        return refused_on_run_page(request, tournament, ServiceError(form_problems(form)), **kept)
    number, bye = form.cleaned_data["round_number"], form.cleaned_data["bye"]
    try:
        entry_services.entry_skip(
            entry=entry, round_number=number, bye=bye, by=Actor.director(request.user)
        )
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc, **kept)
    done = (
        _("%(name)s has a requested bye in round %(number)s.")
        if bye
        else _("%(name)s skips round %(number)s.")
    )
    messages.success(request, done % {"name": entry.player.name, "number": number})
    return to_run_page(tournament, "#players")


@require_POST
@director_required
def entry_unskip(
    request: HttpRequest, tournament: Tournament, entry_id: int, number: int
) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    try:
        entry_services.entry_unskip(
            entry=entry, round_number=number, by=Actor.director(request.user)
        )
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(
        request,
        _("%(name)s plays round %(number)s.") % {"name": entry.player.name, "number": number},
    )
    return to_run_page(tournament, "#players")


def _check_in_back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return to_run_page(tournament, "#players")


def _check_in_entries(tournament: Tournament) -> list[Entry]:
    return list(
        tournament.entries.select_related("player")
        .exclude(status=Entry.Status.WITHDRAWN)
        .order_by("player__name")
    )


@require_POST
@director_required
def entry_check_in(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """One tap: here, or not after all. The check-in page's tap (htmx) is answered with
    the player's row as it now is and the count swapped in beside it, a refused one (a
    closed evening, a withdrawn player) with the row showing why, as a 400 or 409;
    without JavaScript the form posts and the page comes back."""
    entry = _entry(tournament, entry_id)
    present = request.POST.get("present", "1") == "1"
    error: ServiceError | None = None
    try:
        entry = entry_services.entry_check_in(
            entry=entry, present=present, by=Actor.director(request.user)
        )
    except ServiceError as exc:
        if not request.htmx:
            return refused_on_run_page(request, tournament, exc)
        error = exc
    if not request.htmx:
        return _check_in_back(request, tournament)
    at_the_door = tournament.entries.exclude(status=Entry.Status.WITHDRAWN)
    context = {
        "tournament": tournament,
        "entry": entry,
        "error": error.message if error else "",
        "checked": at_the_door.filter(checked_in=True).count(),
        "total": at_the_door.count(),
        "oob": True,
    }
    status = 200 if error is None else service_status(error)
    return render(request, "tournaments/_check_in_answer.html", context, status=status)


@director_required
def check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The door: every entered player, a search as you type, one tap each."""
    entries = _check_in_entries(tournament)
    return render(
        request,
        "tournaments/check_in.html",
        {
            "tournament": tournament,
            "entries": entries,
            "checked": sum(1 for e in entries if e.checked_in),
            "total": len(entries),
            "late_form": LateEntryForm(),
        },
    )


@require_POST
@director_required
def entries_check_in_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        count = entry_services.entries_check_in_all(
            tournament=tournament, by=Actor.director(request.user)
        )
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, _("%(count)s players checked in.") % {"count": count})
    return redirect(reverse("check-in", args=[tournament.slug]))


@require_POST
@director_required
def rounds_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    raw = request.POST.get("count", "1")
    count = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0
    try:
        tournament_services.tournament_add_rounds(
            tournament=tournament, count=count, by=Actor.director(request.user)
        )
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, _("%(count)s more rounds planned.") % {"count": count})
    return to_run_page(tournament, "#round")


@require_POST
@director_required
def evening_reopen_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        evening_reopen(tournament=tournament, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, _("The evening is open again; its rating is taken back."))
    return to_run_page(tournament)


def _round_undo(
    request: HttpRequest,
    tournament: Tournament,
    number: int,
    service: Callable[..., Round],
    done: str,
) -> HttpResponse:
    """Reopen or take back round ``number`` through its service; ``done`` is the
    message on success (with ``%(number)s``)."""
    if number > 10_000:
        raise Http404("no such round")
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        service(round=round_, by=Actor.director(request.user))
    except ServiceError as exc:
        return refused_on_run_page(request, tournament, exc)
    messages.success(request, done % {"number": number})
    return to_run_page(tournament, "#round")


@require_POST
@director_required
def round_reopen(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    return _round_undo(
        request,
        tournament,
        number,
        round_services.round_reopen,
        _("Round %(number)s reopened: results can be changed; close it again."),
    )


@require_POST
@director_required
def round_unpublish(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    return _round_undo(
        request,
        tournament,
        number,
        round_services.round_unpublish,
        _("Round %(number)s taken back: check it and publish it again."),
    )
