"""Results: the organiser's results screen (one row per game, saved as she leaves it)
and a player's private link (report, confirm). Both send what was typed through the one
result path (services/result_path.py); a refused result names its field."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.json_errors import service_error_response, service_status
from tournaments.core.poll import POLL_MS, poll_etag, poll_page, round_state
from tournaments.core.throttles import write_throttled
from tournaments.core.web import director_required, posted_game, round_or_404, run_action
from tournaments.models import Game, ResultSubmission, Round, Seat, SeatNotice, Tournament
from tournaments.results.forms import ResultForm
from tournaments.results.offline import idempotent, outcome_response, queued_at, wants_json
from tournaments.results.rows import (
    EntryHints,
    Refusal,
    result_match_rows,
    result_row,
)
from tournaments.results.selectors.night import RoundNight, night_state, round_night
from tournaments.results.selectors.rounds import (
    round_progress,
    round_progress_counted,
    round_still_open_text,
    round_tables,
    round_trails,
)
from tournaments.results.selectors.table_state import attach_live
from tournaments.results.services.plies import ply_conflicts_clear
from tournaments.results.services.result_path import Outcome, game_confirm_sync, game_result_sync
from tournaments.results.services.results import game_confirm, result_accept, result_held_set_aside
from tournaments.results.views.live_tables import live_tables_config
from tournaments.standings.selectors.standings import standings_state


def _game_label(game: Game) -> str:
    """A game as a message names it: "Table 3, game 2", or the table's decider."""
    if game.decider:
        return _("Table %(table)s, decider") % {"table": game.table.number}
    return _("Table %(table)s, game %(game)s") % {"table": game.table.number, "game": game.number}


def _saved_message(game: Game, by: Actor, label: str) -> tuple[Any, str]:
    """What a saved result became, as the page says it after the redirect and as the
    page's queue lists it (one wording for both): counted, disputed or awaiting the
    opponent for a player; saved for the organiser."""
    state = (
        ResultSubmission.objects.filter(game=game, by_seat=by.seat)
        .values_list("state", flat=True)
        .first()
        if by.is_player
        else None
    )
    if state == ResultSubmission.State.CONFIRMED:
        return messages.success, _(
            "%(label)s: your report agrees with your opponent's; it counts."
        ) % {"label": label}
    if state == ResultSubmission.State.DISPUTED:
        return messages.warning, _(
            "%(label)s: your report differs from your opponent's; the organiser decides."
        ) % {"label": label}
    if state is not None:
        return messages.success, _("%(label)s: result reported; an opponent must confirm it.") % {
            "label": label
        }
    return messages.success, _("%(label)s: result saved.") % {"label": label}


def _confirmed_message(game: Game) -> str:
    return _("Game %(number)s: result confirmed.") % {"number": game.number}


def _correction(request: HttpRequest) -> bool:
    """The organiser's deliberate correction of a closed round (the screen's ?correct=1
    adds it to every form of its rows); the services refuse a closed round without it."""
    return request.POST.get("correction") == "1"


def _results_post(request: HttpRequest, game: Game, by: Actor) -> bool:
    """Validate and save one game's result form; errors become messages naming the game."""
    positions = game.positions(game.table.seats.count())
    form = ResultForm(request.POST)
    label = _game_label(game)
    if not form.is_valid():
        problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        messages.error(request, f"{label}: {problems}")
        return False
    try:
        # The one result path as every client takes it (sent as typed: refusals raise).
        game_result_sync(
            game=game,
            entry=form.entry(positions),
            version=form.cleaned_data["version"],
            by=by,
            correction=not by.is_player and _correction(request),
        )
    except ServiceError as exc:
        messages.error(request, f"{label}: {exc.message}")
        return False
    level, text = _saved_message(game, by, label)
    level(request, text)
    return True


@write_throttled
@director_required
def round_results(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = round_or_404(tournament, number)
    if request.method == "POST":
        game = posted_game(request, table__round=round_)
        _results_post(request, game, Actor.director(request.user))
        correct = "?correct=1" if _correction(request) else ""
        return redirect(
            reverse("round-results", args=[tournament.slug, number])
            + f"{correct}#table-{game.table.number}"
        )
    correcting = request.GET.get("correct") == "1"
    return poll_page(
        request,
        results_etag(request, tournament, round_, correcting),
        lambda etag: render(
            request,
            "tournaments/results.html",
            {
                **results_screen(tournament, round_, correcting=correcting),
                "poll_etag": etag,
                "live_poll": POLL_MS,
            },
        ),
    )


def results_screen(
    tournament: Tournament, round_: Round, *, correcting: bool = False
) -> dict[str, Any]:
    """The results screen's context: every table of the round with its games, each
    game's submissions, and the round's progress; a fixed number of queries however
    many tables the round has."""
    tables = [t for t in round_tables(round_=round_) if not t.is_bye]
    round_trails(tables)
    attach_live(tables)
    night = round_night(round_=round_) if round_.status == Round.Status.PUBLISHED else None
    if night is not None:
        _night_notes(tables, night)
    # The page's hint for its smallest table (a team event's tables all seat four).
    hints = EntryHints(tournament)
    seats = min((len(t.seats) for t in tables), default=2)
    team = hints.team(seats)
    example = hints.example(seats, team)
    return {
        "hint": {
            "range": hints.range(seats, team),
            "example": example,
            "compact": example.replace(" ", ""),
        },
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "progress": round_progress(tables),
        # What the close would be refused for, said where the close is offered.
        "still_open": round_still_open_text(round_=round_),
        "live_tables": live_tables_config(tournament),
        # A closed club evening: read-only until reopened (services/results.py refuses).
        "read_only": tournament.kind == Tournament.Kind.EVENING
        and tournament.status == Tournament.Status.FINISHED,
        # A closed round: read-only until "Correct a result" (?correct=1), whose forms
        # say correction=1 (services/results.py refuses a closed round without it).
        "correcting": correcting,
        "round_closed": round_.status == Round.Status.CLOSED,
        # Only the last round can be reopened (services/rounds.py, round_reopen); only
        # after it is the next round paired.
        "reopenable": _is_last_round(tournament, round_),
        "night": night,
    }


def _night_notes(tables: list[Any], night: RoundNight) -> None:
    """Beside each table on the results screen: who is late (since when, by the
    server's clock) and who is a no-show."""
    for table in tables:
        notes = [
            _("%(name)s late since %(time)s")
            % {"name": s.name, "time": formats.time_format(localtime(s.late.at), "H:i")}
            for s in night.at_table(table.number)
            if s.late is not None
        ] + [
            _("%(name)s: no-show") % {"name": s.name}
            for s in night.at_table(table.number)
            if s.no_show
        ]
        table.night_note = "; ".join(notes)


def _is_last_round(tournament: Tournament, round_: Round) -> bool:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return last == round_.number


def results_etag(
    request: HttpRequest, tournament: Tournament, round_: Round, correcting: bool = False
) -> str:
    """Changes with any game of the round (a report, a confirmation, an entry bumps the
    game's version), the round's state and its night (a player late, a check, a
    no-show's time come: `night_state`); the correcting screen is another page."""
    return poll_etag(
        request,
        "results",
        standings_state(tournament),
        *round_state(round_),
        *night_state(round_),
        correcting,
    )


def _row_response(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    game_id: int,
    *,
    status: int = 200,
    refused: Refusal | None = None,
    correcting: bool = False,
) -> HttpResponse:
    """One game's row of the results screen as it now is (a refused save's with its
    message and what was typed), and the round's progress swapped in out of band: the
    same renderers as the page's. Only that game's table is loaded, and the progress is
    counted in the database, so a save costs the same in a round of 250 tables as in
    one of 5."""
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).get()
    tables = round_tables(round_=round_, table_id=table_id)
    round_trails(tables)
    attach_live(tables)
    table = tables[0]
    game = next(g for g in table.games if g.id == game_id)
    row = result_row(request, tournament, round_, table, game, refused, correcting=correcting)
    # The table's decider and match result: a save that ties the match at the top adds
    # the decider, one that unties it takes it away (services/deciders.py).
    match = result_match_rows(request, tournament, round_, table, game, correcting=correcting)
    progress = render_to_string(
        "tournaments/_round_progress.html",
        {
            "progress": round_progress_counted(round_),
            "oob": True,
            "round": round_,
            "tournament": tournament,
            "reopenable": _is_last_round(tournament, round_),
            "still_open": round_still_open_text(round_=round_),
        },
        request,
    )
    # htmx parses a <tr> answer as a table's rows, where a <p> has no place: a
    # <template> carries it, and htmx takes out-of-band swaps from templates too.
    # Each in a <template> of its own: a template parses its content by its first tag, and
    # table rows after a <p> would be dropped.
    return HttpResponse(
        format_html("{}<template>{}</template><template>{}</template>", row, progress, match),
        status=status,
    )


def _refusal(error: ServiceError, posted: Any, version: int | None) -> Refusal:
    """A refused save as its row shows it: what was typed kept; a conflict keeps the
    version it was typed against (leaving the field again is refused again until the
    organiser has looked at the other result)."""
    typed = {
        name: str(value)
        for name, value in posted.items()
        if name in {"out", "moves"} or name.startswith("colours_")
    }
    return Refusal(
        message=error.message,
        at=_screen_field(error.field),
        typed=typed,
        version=version if isinstance(error, ConflictError) else None,
    )


def _screen_field(field: str | None) -> str:
    """The results screen's input a service error belongs to: the one pieces-out field
    for any seat's pieces out (and for a version conflict)."""
    if not field or field.startswith("out") or field in {"version", "game", "position"}:
        return "out"
    return field


def _screen_game(round_: Round, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table"),
        pk=game_id,
        table__round=round_,
        table__is_bye=False,
    )


def _posted_version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


@require_http_methods(["GET", "POST"])
@write_throttled
@director_required
@idempotent
def round_result_save(
    request: HttpRequest, tournament: Tournament, number: int, game_id: int
) -> HttpResponse:
    """Save one game of the results screen as the organiser leaves its field: the row's
    pieces out (`3 1`), or its move record, through the result services. An htmx request
    (`request.htmx`) is answered with the row as it now is and the round's progress; a
    refused result is a 400 and a stale version a 409, each with the row showing the
    service's message and what was typed. A GET answers the row as it is (a conflict's
    "show the current result"). Without JavaScript: a redirect back to the screen. A
    page's offline queue (Accept: application/json) gets what became of the save as
    JSON (docs/offline.md)."""
    round_ = round_or_404(tournament, number)
    game = _screen_game(round_, game_id)
    back = reverse("round-results", args=[tournament.slug, number]) + f"#game-{game.pk}"
    correction = _correction(request)
    if request.method == "GET":
        correcting = request.GET.get("correct") == "1"
        return (
            _row_response(request, tournament, round_, game.pk, correcting=correcting)
            if request.htmx
            else redirect(back)
        )
    positions = game.positions(game.table.seats.count())
    by = Actor.director(request.user)
    label = _game_label(game)
    error: ServiceError | None = None
    outcome: Outcome | None = None
    try:
        form = ResultForm(request.POST)
        if not form.is_valid():
            field, problems = next(iter(form.errors.items()))
            raise ServiceError(" ".join(problems), field=field)
        outcome = game_result_sync(
            game=game,
            entry=form.entry(positions),
            version=form.cleaned_data["version"],
            by=by,
            queued_at=queued_at(request),
            correction=correction,
        )
    except ServiceError as exc:
        error = exc
    if wants_json(request):
        return _json_answer(label, outcome, error)
    if not request.htmx:
        if error is not None:
            messages.error(request, f"{label}: {error.message}")
        else:
            messages.success(request, _("%(label)s: result saved.") % {"label": label})
        return redirect(back)
    if error is None:
        return _row_response(request, tournament, round_, game.pk, correcting=correction)
    return _row_response(
        request,
        tournament,
        round_,
        game.pk,
        status=service_status(error),
        refused=_refusal(error, request.POST, _posted_version(request)),
        correcting=correction,
    )


def _json_answer(label: str, outcome: Outcome | None, error: ServiceError | None) -> HttpResponse:
    """A form's save answered to a page's queue: the outcome, or the one error shape."""
    if outcome is None:
        assert error is not None
        return service_error_response(error)
    if outcome.kind == "saved":
        detail = _("%(label)s: result saved.") % {"label": label}
    else:
        # The page names the game beside it (the row, the status line's label).
        detail = outcome.detail
    return outcome_response(Outcome(outcome.kind, detail, outcome.game))


@require_POST
@write_throttled
@director_required
def round_result_accept(
    request: HttpRequest, tournament: Tournament, number: int, submission_id: int
) -> HttpResponse:
    """On the results screen: this player's report (waiting or disputed) is the result.
    Answered as a save is (the row, or a redirect without JavaScript)."""
    round_ = round_or_404(tournament, number)
    submission = get_object_or_404(
        ResultSubmission.objects.select_related("game__table", "by_seat__entry__player"),
        pk=submission_id,
        game__table__round=round_,
    )
    game = submission.game
    version = _posted_version(request)
    error: ServiceError | None = None
    try:
        result_accept(
            submission=submission,
            version=version,
            by=Actor.director(request.user),
            correction=_correction(request),
        )
    except ServiceError as exc:
        error = exc
    if not request.htmx:
        label = _game_label(game)
        if error is not None:
            messages.error(request, f"{label}: {error.message}")
        else:
            messages.success(request, _("%(label)s: report accepted.") % {"label": label})
        return redirect(
            reverse("round-results", args=[tournament.slug, number]) + f"#game-{game.pk}"
        )
    correcting = _correction(request)
    if error is None:
        return _row_response(request, tournament, round_, game.pk, correcting=correcting)
    refused = Refusal(
        message=error.message,
        at="out",
        version=version if isinstance(error, ConflictError) else None,
    )
    return _row_response(
        request,
        tournament,
        round_,
        game.pk,
        status=service_status(error),
        refused=refused,
        correcting=correcting,
    )


@require_POST
@write_throttled
@director_required
def round_result_set_aside(
    request: HttpRequest, tournament: Tournament, number: int, submission_id: int
) -> HttpResponse:
    """On the results screen: an entry kept from an offline queue (docs/offline.md) is
    set aside, the game's result stays; answered with the row, or a redirect."""
    round_ = round_or_404(tournament, number)
    submission = get_object_or_404(
        ResultSubmission.objects.select_related("game__table"),
        pk=submission_id,
        game__table__round=round_,
    )
    game = submission.game
    error: ServiceError | None = None
    try:
        result_held_set_aside(
            submission=submission,
            by=Actor.director(request.user),
            correction=_correction(request),
        )
    except ServiceError as exc:
        error = exc
    if not request.htmx:
        if error is not None:
            messages.error(request, f"{_game_label(game)}: {error.message}")
        return redirect(
            reverse("round-results", args=[tournament.slug, number]) + f"#game-{game.pk}"
        )
    correcting = _correction(request)
    if error is None:
        return _row_response(request, tournament, round_, game.pk, correcting=correcting)
    refused = Refusal(message=error.message, at="out")
    return _row_response(
        request,
        tournament,
        round_,
        game.pk,
        status=service_status(error),
        refused=refused,
        correcting=correcting,
    )


@require_POST
@write_throttled
@director_required
def round_result_clear_flag(
    request: HttpRequest, tournament: Tournament, number: int, game_id: int
) -> HttpResponse:
    """On the results screen: the organiser has looked at a flagged table (a ply another
    device sent was refused); answered with the row, or a redirect without JavaScript."""
    round_ = round_or_404(tournament, number)
    game = _screen_game(round_, game_id)
    ply_conflicts_clear(game=game, by=Actor.director(request.user))
    if not request.htmx:
        return redirect(
            reverse("round-results", args=[tournament.slug, number]) + f"#game-{game.pk}"
        )
    return _row_response(request, tournament, round_, game.pk, correcting=_correction(request))


@require_POST
@write_throttled
@director_required
def submission_accept(
    request: HttpRequest, tournament: Tournament, submission_id: int
) -> HttpResponse:
    """The organiser's one click on the open-tables page: this report is the result."""
    submission = get_object_or_404(
        ResultSubmission.objects.select_related("game__table__round", "by_seat__entry__player"),
        pk=submission_id,
        game__table__round__tournament=tournament,
    )
    game = submission.game
    round_ = game.table.round
    name = submission.by_seat.entry.player.name if submission.by_seat else ""
    run_action(
        request,
        lambda: result_accept(submission=submission, by=Actor.director(request.user)),
        _("Table %(table)s, game %(game)s: %(name)s's report accepted.")
        % {"table": game.table.number, "game": game.number, "name": name},
    )
    return redirect(
        reverse("round-open-tables", args=[tournament.slug, round_.number])
        + f"#table-{game.table.number}"
    )


def _seat_json(request: HttpRequest, game: Game, by: Actor) -> HttpResponse:
    """A player's report or confirmation sent by her page's queue, answered as JSON."""
    label = _game_label(game)
    outcome: Outcome | None = None
    error: ServiceError | None = None
    try:
        when = queued_at(request)
        if "confirm" in request.POST:
            outcome = game_confirm_sync(game=game, by=by)
        else:
            form = ResultForm(request.POST)
            if not form.is_valid():
                field, problems = next(iter(form.errors.items()))
                raise ServiceError(" ".join(problems), field=field)
            positions = game.positions(game.table.seats.count())
            outcome = game_result_sync(
                game=game,
                entry=form.entry(positions),
                version=form.cleaned_data["version"],
                by=by,
                queued_at=when,
            )
    except ServiceError as exc:
        error = exc
    if outcome is not None and outcome.kind == "saved":
        # The same words as the page's message after a form's redirect.
        detail = (
            _confirmed_message(game)
            if "confirm" in request.POST
            else _saved_message(game, by, label)[1]
        )
        return outcome_response(Outcome("saved", detail, outcome.game))
    return _json_answer(label, outcome, error)


def player_seat(token: str) -> Seat:
    """The seat a player's private link belongs to; any other token is a 404."""
    return get_object_or_404(
        Seat.objects.select_related("table__round__tournament", "entry__player"),
        report_token=token,
        table__is_bye=False,
    )


@write_throttled
@idempotent
def seat_report(request: HttpRequest, token: str) -> HttpResponse:
    """A player's private link (QR code beside their name on the score sheet): they
    report their own table's games and confirm an opponent's report, as themselves only.
    A page's offline queue (Accept: application/json) gets what became of a report or
    confirmation as JSON (docs/offline.md)."""
    seat = player_seat(token)
    table = seat.table
    by = Actor.player(seat)
    if request.method == "POST":
        # Whether the round is open for reports is the services' to say (one place).
        game = posted_game(request, table=table)
        if wants_json(request):
            return _seat_json(request, game, by)
        if "confirm" in request.POST:
            run_action(
                request,
                lambda: game_confirm(game=game, by=by),
                _confirmed_message(game),
            )
        else:
            _results_post(request, game, by)
        return redirect("seat-report", token=token)
    return seat_report_page(request, seat)


def seat_report_page(request: HttpRequest, seat: Seat, *, status: int = 200) -> HttpResponse:
    """A player's link as a page: her table's games to report and confirm, and her
    night's three choices (docs/results.md, "Players manage their own night") with what
    she has said already; ``status``: a refused choice's 4xx."""
    table = seat.table
    round_ = table.round
    rows = [t for t in round_tables(round_=round_) if t.id == table.pk]
    reported = set(ResultSubmission.objects.filter(by_seat=seat).values_list("game_id", flat=True))
    said = {n.kind: n for n in SeatNotice.objects.filter(seat=seat, cleared_at__isnull=True)}
    return render(
        request,
        "tournaments/report.html",
        {
            "table": rows[0],
            "round": round_,
            "tournament": round_.tournament,
            "open": round_.status == Round.Status.PUBLISHED,
            "seat": seat,
            "reported": reported,
            "said": said,
            "next_round": round_.number + 1,
        },
        status=status,
    )
