"""The one way to a result. The results screen, the recording board, a player's link and
the API each turn what they were sent into a `ResultEntry` and call `game_result_record`;
nothing else writes a game's result for a client. Here, once, below every client:

- the results screen's pieces-out notation (`31`, `3 1 2 0`, `3 1 u`) is read
  (`pieces_out`);
- a move record typed as text is split into moves, or read as the online client's
  JSON event list when it starts with `[`;
- the seat a player's client names is checked against her link's seat;
- a director's entry that repeats the game's final result writes nothing;
- a game recorded live sends one ply at a time (`PlyEntry`, services/plies.py).

Every table size (2, 3, 2 vs 2, 5) and every game of the family goes the same way: the
seats come from the table, the rules from `games/rulesets.py` (services/results.py).
"Open for reports" is checked in services/results.py, where a report is written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.core.actor import Actor
from tournaments.core.errors import KeptForOrganiser, PlyConflictError, ServiceError
from tournaments.core.retry import retried
from tournaments.models import Game
from tournaments.results.services.plies import (
    PlySent,
    game_plies_extend,
    game_ply_record,
    game_ply_undo,
)
from tournaments.results.services.results import (
    game_confirm,
    game_import_events,
    game_record_moves,
    game_record_out,
    players_of,
)


@dataclass(frozen=True)
class PlyEntry:
    """One ply sent from the table as it is made (services/plies.py): ply ``number``
    is ``move``; ``key`` makes a retry harmless; ``undo`` takes ply ``number`` back;
    ``timeout``: the egg timer ran out, the seat to move loses her turn."""

    number: int
    move: str = ""
    key: str = ""
    undo: bool = False
    timeout: bool = False


@dataclass(frozen=True)
class ResultEntry:
    """What a client sent for one game: pieces out (as numbers per seat, or as the
    results screen's text), or a move record (moves, or text), or engine events."""

    out: Sequence[int | None] | None = None
    out_text: str = ""
    finished: bool = True
    colours_out: Mapping[str, str] | None = None
    moves: Sequence[str] | None = None
    moves_text: str = ""
    events: Any = None
    setup: Mapping[str, Any] | None = None
    # With a move record: the turn ended before the game did (the results screen's `u`,
    # the API's `turn_ended`), an unfinished result; without it a record that stops
    # early is a game in progress.
    turn_ended: bool = False
    # The seat a player's client names (v1 clients send it): must be the link's own.
    position: int | None = None
    # A game recorded live: one ply at a time instead of a whole record.
    ply: PlyEntry | None = None


def pieces_out(text: str, seats: int, target: int) -> tuple[list[int | None], bool]:
    """The pieces-out notation: one number per seat in seat order, separated by spaces
    (or `:`, `-`, `,`, `;`, `/`), or run together when every number is one digit (`31`,
    `3120` for a 2 vs 2 table); a `u` anywhere marks the game unfinished (the turn
    ended). Returns the numbers and whether the game finished."""
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
    if len(parts) < seats:
        # Numbers go in seat order: the seats left without one are the last ones.
        missing = seats - len(parts)
        raise ServiceError(
            ngettext(
                "one number per seat: seat %(first)s is missing",
                "one number per seat: seats %(first)s–%(last)s are missing",
                missing,
            )
            % {"first": len(parts) + 1, "last": seats},
            field="out",
        )
    if len(parts) > seats:
        extra = len(parts) - seats
        raise ServiceError(
            ngettext(
                "one number per seat: %(count)s number too many for %(seats)s seats",
                "one number per seat: %(count)s numbers too many for %(seats)s seats",
                extra,
            )
            % {"count": extra, "seats": seats},
            field="out",
        )
    return [int(p) for p in parts], finished


def moves_from_text(text: str) -> list[str]:
    """A typed move record: one move per line, or separated by commas."""
    return [m.strip() for m in text.replace(",", "\n").splitlines() if m.strip()]


def check_reporting_seat(by: Actor, position: int | None) -> None:
    """A player's link acts as that player only: a seat named by her client must be
    hers. (The one place this rule lives: reports, saves from the board, confirmations.)"""
    if by.seat is not None and position is not None and position != by.seat.position:
        raise ServiceError(
            _("this link belongs to seat %(seat)s, not seat %(other)s")
            % {"seat": by.seat.position, "other": position},
            field="position",
        )


def _repeats_final_result(game: Game, out: Sequence[int | None], finished: bool) -> bool:
    """A director's pieces out that are the game's final result already."""
    if not game.confirmed or game.status == Game.Status.PENDING:
        return False
    status = Game.Status.FINISHED if finished else Game.Status.UNFINISHED
    return game.status == status and game.out_list(len(out)) == list(out)


@retried
def game_result_record(
    *,
    game: Game,
    entry: ResultEntry,
    version: int | None = None,
    by: Actor,
    queued_at: datetime | None = None,
    correction: bool = False,
) -> Game:
    """Write what a client sent for ``game`` through the result services: a director's
    entry (final at once) or a player's report (waits for another seat). Refused input
    raises ServiceError naming the field, a stale ``version`` ConflictError; nothing is
    saved then. Returns the game as it now is. ``queued_at``: sent from an offline
    queue (see `game_result_sync`). ``correction``: a director's deliberate change of a
    closed round's result (refused without it, services/results.py)."""
    check_reporting_seat(by, entry.position)
    if entry.ply is not None:
        ply = entry.ply
        if ply.undo:
            return game_ply_undo(game=game, number=ply.number, by=by)
        return game_ply_record(
            game=game,
            number=ply.number,
            move=ply.move,
            key=ply.key,
            timeout=ply.timeout,
            typed_at=queued_at,
            by=by,
        )
    common: dict[str, Any] = {
        "game": game,
        "version": version,
        "by": by,
        "queued_at": queued_at,
        "correction": correction,
    }
    text = entry.moves_text.strip()
    if entry.events is not None or text.startswith("["):
        return game_import_events(
            events=entry.events if entry.events is not None else text, **common
        )
    if entry.moves is not None or text:
        moves = list(entry.moves) if entry.moves is not None else moves_from_text(text)
        finished = False if entry.turn_ended or "u" in entry.out_text.lower() else None
        return game_record_moves(moves=moves, finished=finished, setup=entry.setup, **common)
    if entry.out_text.strip():
        # One number per player of the game: a decider's two leaders, in seat order.
        out, finished = pieces_out(entry.out_text, players_of(game), game.target)
    else:
        out, finished = list(entry.out or []), entry.finished
    colours = any((entry.colours_out or {}).values())
    if not by.is_player and not colours and _repeats_final_result(game, out, finished):
        return game
    return game_record_out(out=out, finished=finished, colours_out=entry.colours_out, **common)


@dataclass(frozen=True)
class Outcome:
    """What became of an entry (docs/offline.md): ``saved``; ``duplicate`` (it changed
    nothing: the same ply or result was in already); ``dispute`` (kept for the organiser
    as a held entry: the game changed or its round closed meanwhile); ``conflict``
    (another device recorded a different ply: the table's ply conflict)."""

    kind: Literal["saved", "duplicate", "dispute", "conflict"]
    detail: str
    game: Game

    @property
    def kept(self) -> bool:
        """Not written, kept for the organiser to see (answered 202)."""
        return self.kind in ("dispute", "conflict")


def _version(game: Game) -> int | None:
    return Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()


@retried
def game_result_sync(
    *,
    game: Game,
    entry: ResultEntry,
    version: int | None = None,
    by: Actor,
    queued_at: datetime | None = None,
    correction: bool = False,
) -> Outcome:
    """`game_result_record`, saying what became of the entry. Sent as it was made
    (``queued_at`` None) it behaves exactly as that: refusals raise. Sent from an offline
    queue (typed at ``queued_at``), what no longer fits is never written over what
    happened meanwhile and never lost: a director's result typed against a version that
    changed, or a report after its round closed, is kept for the organiser (a held
    entry the results screen shows, ``dispute``); another device's different ply is the
    table's ply conflict (``conflict``). Refused input still raises ServiceError."""
    # A ply says itself whether it was stored (`PlyRecorded`): no version read before.
    ply = entry.ply is not None and not entry.ply.undo
    before = None if ply else _version(game)
    try:
        saved = game_result_record(
            game=game,
            entry=entry,
            version=version,
            by=by,
            queued_at=queued_at,
            correction=correction,
        )
    except KeptForOrganiser as kept:
        return Outcome("dispute", kept.message, game)
    except PlyConflictError as exc:
        if queued_at is None:
            raise
        return Outcome("conflict", exc.message, game)
    if (getattr(saved, "recorded", None) is None) if ply else saved.version == before:
        return Outcome("duplicate", _("nothing changed: this was in already"), saved)
    return Outcome("saved", _("saved"), saved)


@retried
def game_confirm_sync(*, game: Game, by: Actor) -> Outcome:
    """A player's confirmation, saying what became of it (see `game_result_sync`)."""
    before = _version(game)
    saved = game_confirm(game=game, by=by)
    if saved.version == before:
        return Outcome("duplicate", _("nothing changed: this was in already"), saved)
    return Outcome("saved", _("confirmed"), saved)


def game_result_run(*, game: Game, plies: Sequence[PlySent], by: Actor) -> list[Outcome]:
    """A run of plies sent at once (the batch door): the longest run from the start that
    extends the game in progress, written at once (services/plies.py,
    `game_plies_extend`), each ``saved``; the plies after it are the caller's to send
    one by one through `game_result_sync`, which answers each as it would alone."""
    written = game_plies_extend(game=game, plies=plies, by=by)
    return [Outcome("saved", _("saved"), game) for _ply in range(written)]
