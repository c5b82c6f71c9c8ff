"""Organiser pages: create a tournament, enter players, pair, publish, enter results,
close. Every write goes through a service; its ServiceError becomes a message."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import jsonbody
from tournaments.json_errors import error_body
from tournaments.models import Game

from .forms import (
    ForbiddenPairForm,
    LateEntryForm,
    PasteEntriesForm,
    ResultForm,
    SkipForm,
    SwapForm,
    TeamForm,
    TeamsPasteForm,
    TournamentForm,
)
from .live import POLL_MS, live_etag, live_page, round_state, standings_state
from .models import (
    Club,
    Entry,
    ForbiddenPair,
    ResultSubmission,
    Round,
    Seat,
    Skip,
    Tournament,
)
from .permissions import can_direct
from .selectors.rounds import round_progress, round_progress_counted, round_tables, round_trails
from .selectors.teams import desk_teams
from .services import entries as entry_services
from .services import rounds as round_services
from .services import tournaments as tournament_services
from .services.errors import ConflictError, ServiceError
from .services.evenings import evening_close
from .services.results import (
    Actor,
    game_confirm,
    game_import_events,
    game_record_moves,
    game_record_out,
    result_accept,
)
from .templatetags.organiser_rows import result_row

View = Callable[..., HttpResponse]


def director_required(view: View) -> View:
    """Load the tournament named by the URL and refuse anyone who may not run it."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
        if not can_direct(request.user, tournament):
            raise PermissionDenied("only this tournament's directors may do that")
        return view(request, tournament, *args, **kwargs)

    return wrapper


def _back(tournament: Tournament, fragment: str = "") -> HttpResponseRedirect:
    return redirect(reverse("tournament-manage", args=[tournament.slug]) + fragment)


def _run(request: HttpRequest, action: Callable[[], Any], success: str) -> bool:
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return False
    messages.success(request, success)
    return True


def _clubs_for(request: HttpRequest) -> Any:
    if request.user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(organisers=request.user)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    clubs = _clubs_for(request)
    if not clubs.exists():
        raise PermissionDenied("only club organisers can create tournaments")
    form = TournamentForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        try:
            tournament = tournament_services.tournament_create(
                by=Actor.director(request.user),
                uneven_turns=form.cleaned_data.get("uneven_turns", False),
                **settings,
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request, _("%(name)s created; now enter the players.") % {"name": tournament.name}
            )
            return _back(tournament)
    return render(request, "tournaments/form.html", {"form": form, "title": "New tournament"})


@director_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(
        request.POST or None,
        instance=tournament,
        clubs=_clubs_for(request),
        played=tournament.rounds.exists(),
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament_services.tournament_update(
                tournament=tournament,
                by=Actor.director(request.user),
                recompute=form.cleaned_data.get("recompute", False),
                uneven_turns=form.cleaned_data.get("uneven_turns", False),
                **form.settings(),
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Settings saved."))
            return _back(tournament)
    return render(
        request,
        "tournaments/form.html",
        {
            "form": form,
            "title": _("Settings of %(name)s") % {"name": tournament.name},
            "tournament": tournament,
        },
    )


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
    from .views_editor import editor_context  # that module builds on this one

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
        "paste_form": PasteEntriesForm(),
        "late_form": LateEntryForm(),
        "skip_form": SkipForm(),
        "forbid_form": ForbiddenPairForm(tournament=tournament),
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
    }
    if tournament.is_team_event:
        context.update(
            teams=desk_teams(tournament=tournament),
            teams_paste_form=TeamsPasteForm(),
            team_form=TeamForm(tournament=tournament),
        )
    context.update(extra)
    return context


@director_required
def tournament_manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/manage.html", manage_context(tournament))


@require_POST
@director_required
def entries_reseed(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        unrated = entry_services.entries_reseed_by_rating(
            tournament=tournament, by=Actor.director(request.user)
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _back(tournament, "#players")
    total = tournament.entries.count()
    if total and unrated == total:
        messages.warning(
            request, _("No player has a rating yet: the seeds stay in the order of entry.")
        )
    elif unrated:
        messages.success(
            request,
            ngettext(
                "Seeds now follow the ratings; %(count)s player without a rating is seeded last.",
                "Seeds now follow the ratings; %(count)s players without a rating are seeded last.",
                unrated,
            )
            % {"count": unrated},
        )
    else:
        messages.success(request, _("Seeds now follow the ratings."))
    return _back(tournament, "#players")


@require_POST
@director_required
def forbidden_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = ForbiddenPairForm(request.POST, tournament=tournament)
    if form.is_valid():
        data = form.cleaned_data
        _run(
            request,
            lambda: tournament_services.forbidden_pair_add(
                tournament=tournament,
                first=data["first"],
                second=data["second"],
                reason=data["reason"],
                by=Actor.director(request.user),
            ),
            _("These two will not be seated together."),
        )
    else:
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
    return _back(tournament, "#players")


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


@require_POST
@director_required
def round_pair(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    _run(
        request,
        lambda: round_services.round_pair_next(
            tournament=tournament, by=Actor.director(request.user)
        ),
        _("The next round is paired. Check it, then publish it."),
    )
    return _back(tournament, "#round")


@require_POST
@director_required
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    round_ = _round(tournament, number)
    by = Actor.director(request.user)
    actions: dict[str, tuple[Callable[[], Any], str]] = {
        "publish": (
            lambda: round_services.round_publish(round=round_, by=by),
            _("Round %(number)s published.") % {"number": number},
        ),
        "repair": (
            lambda: round_services.round_repair(round=round_, by=by),
            _("Round %(number)s paired again.") % {"number": number},
        ),
        "close": (
            lambda: round_services.round_close(
                round=round_, by=by, force=request.POST.get("force") == "1"
            ),
            _("Round %(number)s closed; ratings are being computed.") % {"number": number},
        ),
    }
    actions["delete"] = (
        lambda: tournament_services.round_delete(round=round_, by=by),
        _("Round %(number)s deleted.") % {"number": number},
    )
    if action == "swap":
        form = SwapForm(request.POST, tournament=tournament)
        if not form.is_valid():
            messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
            return _back(tournament, "#round")
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        reason = str(request.POST.get("override_reason", ""))[:500]
        actions["swap"] = (
            lambda: round_services.round_swap_seats(
                round=round_, first=first, second=second, override_reason=reason, by=by
            ),
            _("%(first)s and %(second)s changed tables.")
            % {"first": first.player.name, "second": second.player.name},
        )
    if action not in actions:
        raise PermissionDenied("unknown action")
    call, success = actions[action]
    _run(request, call, success)
    return _back(tournament, "#round")


def _save_result(request: HttpRequest, game: Game, form: ResultForm, seats: int, by: Actor) -> None:
    data = form.cleaned_data
    moves_text = (data.get("moves") or "").strip()
    common: dict[str, Any] = {"game": game, "version": data["version"], "by": by}
    if moves_text.startswith("["):
        game_import_events(events=moves_text, **common)
    elif moves_text:
        moves = [m.strip() for m in moves_text.replace(",", "\n").splitlines() if m.strip()]
        # A `u` typed beside the record: the turn ended, an unfinished result; else a
        # record that stops before the end is a game in progress.
        game_record_moves(moves=moves, finished=False if data.get("unfinished") else None, **common)
    else:
        out = [data.get(f"out_{p}") for p in range(1, seats + 1)]
        colours = {str(p): data.get(f"colours_{p}") or "" for p in range(1, seats + 1)}
        game_record_out(out=out, finished=bool(data.get("finished")), colours_out=colours, **common)


def _results_post(request: HttpRequest, game: Game, by: Actor) -> bool:
    """Validate and save one game's result form; errors become messages naming the game."""
    seats = game.table.seats.count()
    form = ResultForm(request.POST)
    label = _("Table %(table)s, game %(game)s") % {"table": game.table.number, "game": game.number}
    if not form.is_valid():
        problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        messages.error(request, f"{label}: {problems}")
        return False
    try:
        _save_result(request, game, form, seats, by)
    except ServiceError as exc:
        messages.error(request, f"{label}: {exc.message}")
        return False
    state = (
        ResultSubmission.objects.filter(game=game, by_seat=by.seat)
        .values_list("state", flat=True)
        .first()
        if by.is_player
        else None
    )
    if state == ResultSubmission.State.CONFIRMED:
        messages.success(
            request,
            _("%(label)s: your report agrees with your opponent's; it counts.") % {"label": label},
        )
    elif state == ResultSubmission.State.DISPUTED:
        messages.warning(
            request,
            _("%(label)s: your report differs from your opponent's; the organiser decides.")
            % {"label": label},
        )
    elif state is not None:
        messages.success(
            request,
            _("%(label)s: result reported; an opponent must confirm it.") % {"label": label},
        )
    else:
        messages.success(request, _("%(label)s: result saved.") % {"label": label})
    return True


def _posted_game(request: HttpRequest, **where: Any) -> Game:
    """The game a results form names; anything but one of `where`'s games (a stale form,
    a typed-in value that is no number) is a 404 and changes nothing."""
    raw = request.POST.get("game", "")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Http404("no such game")
    return get_object_or_404(Game.objects.select_related("table"), pk=int(raw), **where)


@director_required
def round_results(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = _round(tournament, number)
    if request.method == "POST":
        game = _posted_game(request, table__round=round_)
        _results_post(request, game, Actor.director(request.user))
        return redirect(
            reverse("round-results", args=[tournament.slug, number]) + f"#table-{game.table.number}"
        )
    return live_page(
        request,
        results_etag(request, tournament, round_),
        lambda etag: render(
            request,
            "tournaments/results.html",
            {**results_screen(tournament, round_), "live_etag": etag, "live_poll": POLL_MS},
        ),
    )


def results_screen(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """The results screen's context: every table of the round with its games, each
    game's submissions, and the round's progress; a fixed number of queries however
    many tables the round has."""
    tables = [t for t in round_tables(round_=round_) if not t.is_bye]
    round_trails(tables)
    return {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "progress": round_progress(tables),
    }


def results_etag(request: HttpRequest, tournament: Tournament, round_: Round) -> str:
    """Changes with any game of the round (a report, a confirmation, an entry bumps the
    game's version) and the round's state."""
    return live_etag(request, "results", standings_state(tournament), *round_state(round_))


def pieces_out(text: str, seats: int, target: int) -> tuple[list[int | None], bool]:
    """The pieces-out field of the results screen: one number per seat in seat order,
    separated by spaces (or `:`, `-`, `,`), or run together when every number is one
    digit (`31`); a `u` anywhere marks the game unfinished (the turn ended)."""
    cleaned = text.strip().lower()
    finished = "u" not in cleaned
    cleaned = cleaned.replace("u", " ")
    for separator in ":-,;/":
        cleaned = cleaned.replace(separator, " ")
    parts = cleaned.split()
    if len(parts) == 1 and len(parts[0]) == seats and seats > 1 and target <= 9:
        parts = list(parts[0])
    if not parts:
        raise ServiceError(_("type the pieces out of each seat, e.g. 3 1"), field="out")
    if not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
        raise ServiceError(
            _("only numbers, one per seat (and u for an unfinished game): %(text)s")
            % {"text": text.strip()[:40]},
            field="out",
        )
    if len(parts) != seats:
        raise ServiceError(
            _("%(given)s numbers for %(seats)s seats") % {"given": len(parts), "seats": seats},
            field="out",
        )
    return [int(p) for p in parts], finished


def _screen_input(game: Game, seats: int, posted: Any) -> dict[str, Any]:
    """The results screen's row as the per-game form's fields (out_1, out_2, …)."""
    data = posted.copy()
    text = posted.get("out", "")
    if (posted.get("moves") or "").strip():
        data["unfinished"] = "1" if "u" in text.lower() else ""
    elif text.strip():
        values, finished = pieces_out(text, seats, game.target)
        for position, value in enumerate(values, start=1):
            data[f"out_{position}"] = value
        data["finished"] = "1" if finished else ""
    return data


def _unchanged(game: Game, form: ResultForm, seats: int) -> bool:
    """The posted pieces out are the game's final result already: nothing to write."""
    data = form.cleaned_data
    if not game.confirmed or game.status == Game.Status.PENDING or data.get("moves"):
        return False
    if any(data.get(f"colours_{p}") for p in range(1, seats + 1)):
        return False
    status = Game.Status.FINISHED if data.get("finished") else Game.Status.UNFINISHED
    out = [data.get(f"out_{p}") for p in range(1, seats + 1)]
    return game.status == status and game.out_list(seats) == out


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _row_response(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    game_id: int,
    *,
    status: int = 200,
    error: ServiceError | None = None,
    saved: bool = False,
) -> HttpResponse:
    """One game's row of the results screen (as it is now) and the round's progress:
    only that game's table is loaded, and the progress is counted in the database, so a
    save costs the same in a round of 250 tables as in one of 5."""
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).get()
    tables = round_tables(round_=round_, table_id=table_id)
    round_trails(tables)
    table = tables[0]
    game = next(g for g in table.games if g.id == game_id)
    row = result_row(request, tournament, round_, table, game)
    progress = round_progress_counted(round_)
    body: dict[str, Any] = {
        "game": game.id,
        "version": game.version,
        "saved": saved,
        "row": row,
        "progress": {
            "done": progress.done,
            "total": progress.total,
            "text": _("%(done)s of %(total)s games in")
            % {
                "done": progress.done,
                "total": progress.total,
            },
        },
    }
    if error is not None:
        body.update(error_body(error.message, status=status, field=_screen_field(error.field)))
    return JsonResponse(body, status=status)


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


@require_POST
@director_required
def round_result_save(
    request: HttpRequest, tournament: Tournament, number: int, game_id: int
) -> HttpResponse:
    """Save one game of the results screen as the organiser leaves it: the row's pieces
    out (`3 1`), or its move record, through the result services. Answers with the row
    as it now is; a refused result is a 400 and a stale version a 409, each with the
    service's message for that row only. Without JavaScript: a redirect back."""
    round_ = _round(tournament, number)
    game = _screen_game(round_, game_id)
    seats = game.table.seats.count()
    by = Actor.director(request.user)
    label = _("Table %(table)s, game %(game)s") % {"table": game.table.number, "game": game.number}
    error: ServiceError | None = None
    saved = False
    try:
        form = ResultForm(_screen_input(game, seats, request.POST))
        if not form.is_valid():
            field, problems = next(iter(form.errors.items()))
            raise ServiceError(" ".join(problems), field=field)
        if not _unchanged(game, form, seats):
            _save_result(request, game, form, seats, by)
            saved = True
    except ServiceError as exc:
        error = exc
    if not _wants_json(request):
        if error is not None:
            messages.error(request, f"{label}: {error.message}")
        else:
            messages.success(request, _("%(label)s: result saved.") % {"label": label})
        return redirect(
            reverse("round-results", args=[tournament.slug, number]) + f"#game-{game.pk}"
        )
    status = 200 if error is None else 409 if isinstance(error, ConflictError) else 400
    return _row_response(
        request, tournament, round_, game.pk, status=status, error=error, saved=saved
    )


@require_POST
@director_required
def round_result_accept(
    request: HttpRequest, tournament: Tournament, number: int, submission_id: int
) -> HttpResponse:
    """On the results screen: this player's report (waiting or disputed) is the result."""
    round_ = _round(tournament, number)
    submission = get_object_or_404(
        ResultSubmission.objects.select_related("game__table", "by_seat__entry__player"),
        pk=submission_id,
        game__table__round=round_,
    )
    game = submission.game
    raw = request.POST.get("version", "")
    version = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None
    error: ServiceError | None = None
    try:
        result_accept(submission=submission, version=version, by=Actor.director(request.user))
    except ServiceError as exc:
        error = exc
    if not _wants_json(request):
        label = _("Table %(table)s, game %(game)s") % {
            "table": game.table.number,
            "game": game.number,
        }
        if error is not None:
            messages.error(request, f"{label}: {error.message}")
        else:
            messages.success(request, _("%(label)s: report accepted.") % {"label": label})
        return redirect(
            reverse("round-results", args=[tournament.slug, number]) + f"#game-{game.pk}"
        )
    status = 200 if error is None else 409 if isinstance(error, ConflictError) else 400
    return _row_response(
        request, tournament, round_, game.pk, status=status, error=error, saved=error is None
    )


@require_POST
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
    _run(
        request,
        lambda: result_accept(submission=submission, by=Actor.director(request.user)),
        _("Table %(table)s, game %(game)s: %(name)s's report accepted.")
        % {"table": game.table.number, "game": game.number, "name": name},
    )
    return redirect(
        reverse("round-open-tables", args=[tournament.slug, round_.number])
        + f"#table-{game.table.number}"
    )


def player_seat(token: str) -> Seat:
    """The seat a player's private link belongs to; any other token is a 404."""
    return get_object_or_404(
        Seat.objects.select_related("table__round__tournament", "entry__player"),
        report_token=token,
        table__is_bye=False,
    )


def seat_report(request: HttpRequest, token: str) -> HttpResponse:
    """A player's private link (QR code beside their name on the score sheet): they
    report their own table's games and confirm an opponent's report, as themselves only."""
    seat = player_seat(token)
    table = seat.table
    round_ = table.round
    open_for_reports = round_.status == Round.Status.PUBLISHED
    by = Actor.player(seat)
    if request.method == "POST":
        if not open_for_reports:
            messages.error(request, _("This round is closed; ask the organiser to change results."))
        else:
            game = _posted_game(request, table=table)
            if "confirm" in request.POST:
                _run(
                    request,
                    lambda: game_confirm(game=game, by=by),
                    _("Game %(number)s: result confirmed.") % {"number": game.number},
                )
            else:
                _results_post(request, game, by)
        return redirect("seat-report", token=token)
    rows = [t for t in round_tables(round_=round_) if t.id == table.pk]
    reported = set(ResultSubmission.objects.filter(by_seat=seat).values_list("game_id", flat=True))
    return render(
        request,
        "tournaments/report.html",
        {
            "table": rows[0],
            "round": round_,
            "tournament": round_.tournament,
            "open": open_for_reports,
            "seat": seat,
            "reported": reported,
        },
    )


@require_POST
@director_required
def evening_close_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    _run(
        request,
        lambda: evening_close(tournament=tournament, by=Actor.director(request.user)),
        _("The evening is closed; ratings are being computed."),
    )
    return _back(tournament)


@login_required
def tournament_import(request: HttpRequest) -> HttpResponse:
    from .services.transfer import tournament_import_document

    clubs = _clubs_for(request)
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
            return _back(tournament)
    return render(request, "tournaments/import.html", {"clubs": clubs})
