"""Entering results: pieces out per seat, or a move record the rules engine replays.

Two devices entering the same game: each write names the game's version it saw; the
second gets a ConflictError instead of silently overwriting the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import pentagame
from games.models import Game
from tournaments.models import Round, Seat

from .audit import audit_record
from .errors import ConflictError, ServiceError
from .freshness import standings_changed

User = AbstractBaseUser | AnonymousUser | None


def _seats(game: Game) -> int:
    return Seat.objects.filter(table_id=game.table_id).count()


def _game_snapshot(game: Game, seats: int) -> dict[str, Any]:
    return {
        "status": game.status,
        "out": game.out_list(seats),
        "moves": list(game.moves),
        "colours_out": dict(game.colours_out),
    }


def _validate_out(out: Sequence[int | None], seats: int, game: Game, finished: bool) -> list[int]:
    ruleset = game.table.round.tournament.ruleset
    target = game.target
    unit = "pieces out" if ruleset.name == "pentagame" else "the result"
    if len(out) != seats:
        raise ServiceError(f"give {unit} for all {seats} seats", field="out")
    values: list[int] = []
    for position, value in enumerate(out, start=1):
        if value is None:
            raise ServiceError(f"seat {position}: {unit} missing", field=f"out_{position}")
        if not 0 <= value <= target:
            raise ServiceError(
                f"seat {position}: {unit} must be between 0 and {target}, not {value}",
                field=f"out_{position}",
            )
        values.append(int(value))
    if finished and ruleset.finished_needs_target and max(values) < target:
        raise ServiceError(
            f"a finished game needs a winner with {target} pieces out; "
            "mark it unfinished if the turn ended",
            field="out",
        )
    return values


def _write(
    *,
    game: Game,
    version: int | None,
    by: User,
    status: str,
    out: list[int],
    moves: list[str],
    colours_out: dict[str, list[str]],
    reporter: int | None = None,
    setup: dict[str, Any] | None = None,
) -> Game:
    with transaction.atomic():
        locked = Game.objects.select_for_update().select_related("table__round").get(pk=game.pk)
        if version is not None and locked.version != version:
            raise ConflictError(
                f"game {locked.number} at table {locked.table.number} was changed by someone "
                "else meanwhile; reload to see their result",
                field="version",
            )
        round_ = locked.table.round
        if round_.status == Round.Status.PAIRED:
            raise ServiceError("results can be entered once the round is published")
        if reporter is not None and round_.status != Round.Status.PUBLISHED:
            raise ServiceError("this round is closed; ask the organiser to change results")
        seats = len(out)
        before = _game_snapshot(locked, seats) if locked.status != Game.Status.PENDING else None
        user = by if isinstance(by, AbstractBaseUser) else None
        fields: dict[str, Any] = {
            "status": status,
            "moves": moves,
            "colours_out": colours_out,
            "entered_by": user,
            "entered_at": timezone.now(),
            "version": F("version") + 1,
            "setup": setup or {},
            "confirmed": reporter is None,
            "reported_by_position": reporter,
        }
        for i in range(1, 5):
            fields[f"out_{i}"] = out[i - 1] if i <= seats else None
        Game.objects.filter(pk=locked.pk).update(**fields)
        locked.refresh_from_db()
        closed = round_.status == Round.Status.CLOSED
        if closed or before is not None:
            audit_record(
                tournament=round_.tournament,
                by=by,
                action="edit result" if before else "enter result",
                target=f"round {round_.number} table {locked.table.number} game {locked.number}",
                before=before,
                after=_game_snapshot(locked, seats),
            )
        if closed:
            # Standings count closed rounds only: a result in the round being played
            # leaves them (and their pollers' ETags) as they are.
            standings_changed(tournament=round_.tournament_id)
            # History changed: ratings from this round on are recomputed.
            from ratings.services import rating_recompute_queue

            rating_recompute_queue(round_id=round_.pk, by=by)
    return locked


def game_record_out(
    *,
    game: Game,
    out: Sequence[int | None],
    finished: bool = True,
    version: int | None = None,
    by: User = None,
    reporter: int | None = None,
    colours_out: Mapping[str, str] | None = None,
) -> Game:
    """Record pieces out per seat position (1..n). ``reporter`` is the seat position of
    a player reporting through the table's link: the result then waits for an opponent's
    confirmation. ``colours_out`` optionally gives, per seat position, the colours that
    went out in order as letters (``"rw"``: red first, then white; section 22)."""
    seats = _seats(game)
    _check_reporter(reporter, seats)
    values = _validate_out(out, seats, game, finished)
    colours = _validate_colours(colours_out or {}, values)
    status = Game.Status.FINISHED if finished else Game.Status.UNFINISHED
    return _write(
        game=game,
        version=version,
        by=by,
        status=status,
        out=values,
        moves=[],
        colours_out=colours,
        reporter=reporter,
    )


_COLOURS = "wbryg"  # white, blue, red, yellow, green


def _validate_colours(given: Mapping[str, str], out: list[int]) -> dict[str, list[str]]:
    """Colours out per seat: distinct letters of w b r y g, no more than the pieces out
    (each player has one piece of each colour, section 1)."""
    colours: dict[str, list[str]] = {}
    for key, text in given.items():
        letters = [c for c in str(text).lower() if not c.isspace() and c != ","]
        if not letters:
            continue
        field = f"colours_{key}"
        if not key.isdigit() or not 1 <= int(key) <= len(out):
            raise ServiceError(f"no seat {key} at this table", field=field)
        wrong = [c for c in letters if c not in _COLOURS]
        if wrong:
            raise ServiceError(
                f"seat {key}: colours are w, b, r, y, g, not {''.join(wrong)!r}", field=field
            )
        if len(set(letters)) != len(letters):
            raise ServiceError(f"seat {key}: a colour can go out only once", field=field)
        if len(letters) > out[int(key) - 1]:
            raise ServiceError(
                f"seat {key}: {len(letters)} colours out but {out[int(key) - 1]} pieces out",
                field=field,
            )
        colours[key] = letters
    return colours


def _check_reporter(reporter: int | None, seats: int) -> None:
    if reporter is not None and not 1 <= reporter <= seats:
        raise ServiceError(f"say which seat (1-{seats}) you sit in", field="position")


def game_confirm(*, game: Game, position: int, by: User = None) -> Game:
    """An opponent confirms a result reported through the table's link."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().select_related("table__round").get(pk=game.pk)
        seats = _seats(locked)
        _check_reporter(position, seats)
        if locked.status == Game.Status.PENDING:
            raise ServiceError("there is no result to confirm yet")
        if locked.confirmed:
            return locked
        if position == locked.reported_by_position:
            raise ServiceError(
                "the result must be confirmed by an opponent, not by the player who reported it",
                field="position",
            )
        if locked.table.round.status != Round.Status.PUBLISHED:
            raise ServiceError("this round is closed; ask the organiser")
        locked.confirmed = True
        # A new version: standings caches and pollers key on it.
        locked.version += 1
        locked.save(update_fields=["confirmed", "version"])
    return locked


def game_record_moves(
    *,
    game: Game,
    moves: Sequence[str],
    finished: bool | None = None,
    version: int | None = None,
    by: User = None,
    reporter: int | None = None,
    setup: Mapping[str, Any] | None = None,
) -> Game:
    """Replay a move record with the game's rules engine and store it with the result it
    yields. An illegal record is refused with the engine's ply and reason; nothing is
    saved. A record that stops before the end counts as unfinished (the turn ended).
    ``setup`` holds the record's other keys for games that have a setup (Pantarei's
    row of scales, PentaCosmos' tokens)."""
    seats = _seats(game)
    _check_reporter(reporter, seats)
    ruleset_ = (
        Game.objects.select_related("table__round__tournament").get(pk=game.pk)
    ).table.round.tournament.ruleset
    extra = dict(setup or {})
    if set(extra) & {"players", "moves"}:
        raise ServiceError("the setup cannot name players or moves", field="setup")
    record: dict[str, Any] = {"players": seats, "variant": "standard", **extra}
    record["moves"] = list(moves)
    try:
        # Engines raise ValueError subclasses when the input is not a record at all.
        result: Any = ruleset_.replay(record)
    except (ValueError, TypeError) as exc:
        # TypeError too: a setup of the wrong shape must be refused, never a server error.
        raise ServiceError(f"the move record cannot be read: {exc}", field="moves") from None
    if not result.ok:
        error = result.error
        if error is None:  # an engine that failed without saying where
            raise ServiceError("the move record breaks the rules", field="moves")
        raise ServiceError(f"ply {error.ply} `{error.move}`: {error.reason}", field="moves")
    if finished and not result.finished:
        raise ServiceError(
            f"the record ends after {result.plies} plies without a winner", field="moves"
        )
    order = game.moving_order(seats)
    out = [0] * seats
    colours: dict[str, list[str]] = {}
    sheet = ruleset_.sheet_values(result.out)
    out_colours = getattr(result, "out_colours", None)  # Pentagame's colour letters
    for engine_seat, position in enumerate(order):
        out[position - 1] = sheet[engine_seat]
        if out_colours is not None:
            colours[str(position)] = list(out_colours[engine_seat])
    status = Game.Status.FINISHED if result.finished else Game.Status.UNFINISHED
    normalised = [str(m) for m in moves]
    return _write(
        game=game,
        version=version,
        by=by,
        status=status,
        out=out,
        moves=normalised,
        colours_out=colours,
        reporter=reporter,
        setup=extra,
    )


def game_import_events(
    *,
    game: Game,
    events: Any,
    version: int | None = None,
    by: User = None,
    reporter: int | None = None,
) -> Game:
    """Import a game from the online client's JSON event list (Pentagame only)."""
    if game.table.round.tournament.game != "pentagame":
        raise ServiceError("only Pentagame games can be imported from the online client")
    try:
        imported = pentagame.import_events(events)
    except pentagame.PentagameError as exc:
        raise ServiceError(f"the event list cannot be imported: {exc}", field="events") from None
    if imported.record["players"] != _seats(game):
        raise ServiceError(
            f"the imported game has {imported.record['players']} players, this table "
            f"{_seats(game)}",
            field="events",
        )
    return game_record_moves(
        game=game, moves=imported.record["moves"], version=version, by=by, reporter=reporter
    )
