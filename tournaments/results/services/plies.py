"""Recording a game at the table, ply by ply (docs/results.md, "Live tables").

Each ply goes the one way to a result (services/result_path.py calls these): the record
so far plus the new ply is replayed by the game's engine and written as the game's
record in progress (services/results.py), or as its result when the ply ends the game.
Beside it a `Ply` row says who sent the ply and when, and holds the sender's key:

- a ply sent twice (a retry after a lost answer) is stored once: same key, or the same
  move for the same ply number from another device;
- a *different* move for a ply number already recorded is refused, never merged: "seat
  2 recorded W-W1B at ply 7", and the table is flagged for the organiser;
- only the last ply can be undone, by the seat that sent it (or a director), until the
  next ply (the ply that ended the game: until an opponent confirmed its result);
- the egg timer (section 3: "A player who does not move in time loses turn"; the sand
  timer's reading in tournaments/results/egg_timer.py): once the seat to move's time is over,
  any device at the table records the engine's `pass` for her. It reads the server's
  clock only (`Ply.received_at`): a device's claimed time labels a ply, never moves a
  deadline. A seat or the director pauses it (`game_timer_pause`); one lost turn at a
  time, each turning the timer again when it reaches the server; an undone lost turn
  turns it again on its seat;
- a move is read by the game's notation before anything is stored, and a table holds
  one open flag per seat and ply, so nothing one link sends grows without bound.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, PlyConflictError, ServiceError
from tournaments.core.retry import retried
from tournaments.models import Game, Ply, PlyConflict, Round
from tournaments.results.egg_timer import live_now
from tournaments.results.selectors.table_state import (
    PLY_TIMES,
    Times,
    game_live_state,
    timer_clock,
)
from tournaments.results.services.broadcast import game_changed_on_commit
from tournaments.results.services.game_lock import lock_game
from tournaments.results.services.results import (
    IN_PROGRESS,
    check_actor_at_table,
    game_extend_in_progress,
    game_record_moves,
    players_of,
    record_result,
    record_variant,
    refuse_illegal,
    require_evening_open,
    require_open_for_reports,
)

# A ply's key: what a device makes up once per ply (a UUID, say) and sends again on retry.
KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# A device's clock and the network are not exact: a timeout sent this early still counts.
TIMER_SLACK = timedelta(seconds=1)
PASS = "pass"
# The longest move a ply holds (`Ply.move`, `PlyConflict.move`).
MOVE_LENGTH = 64


def _who(position: int | None) -> str:
    # Empty: a director, or a whole record saved at once; the device is what is known.
    return _("seat %(seat)s") % {"seat": position} if position else _("another device")


@dataclass(frozen=True)
class PlyRecorded:
    """What the answer to a stored ply and its news need, known from its write: the
    table's seats, the game's ply times with the new ply (`PLY_TIMES`, the egg timer's
    inputs) and the seat that sent it. Put on the game `game_ply_record` returns
    (`Game.recorded`), so neither reads the plies again."""

    seats: int  # the table's seats (a decider is played by two of them)
    times: Times
    by_position: int | None


@dataclass(frozen=True)
class _Facts:
    """The game's ply rows as one ply needs them, read in one statement: whether one
    holds this ply's key (a retry), whether plies 1 and the last are rows (the egg
    timer runs from the first ply recorded live), the latest label, the times."""

    keyed: bool
    first_and_last: bool
    latest_at: datetime | None
    times: Times


def _facts(game: Game, keys: Collection[str], plies: int) -> _Facts:
    row = Ply.objects.filter(game=game).aggregate(
        keyed=Count("pk", filter=Q(key__in=keys)),
        ends=Count("pk", filter=Q(number__in={1, plies})),
        latest_at=Max("at"),
        **PLY_TIMES,
    )
    return _Facts(
        keyed=bool(row["keyed"]),
        first_and_last=row["ends"] == len({1, plies}) and plies >= 1,
        latest_at=row["latest_at"],
        times=(row["first"], row["last"], row["lost"]),
    )


def _locked(game: Game, by: Actor, *, undo: bool = False, counted: bool = False) -> Game:
    locked = lock_game(game, counted=counted)
    round_ = locked.table.round
    if by.is_player:
        require_open_for_reports(round_)
    elif round_.status != Round.Status.PUBLISHED:
        raise ServiceError(
            _("games are recorded live while their round is published"), field="round"
        )
    # The ply that ended the game can be taken back while its result waits for an
    # opponent's confirmation (by its seat) or is a director's (by a director).
    ended = undo and locked.status == Game.Status.FINISHED and not (by.is_player and locked.counts)
    if locked.status not in Game.WITHOUT_RESULT and not ended:
        raise ConflictError(
            _("game %(number)s is over (it has a result); ask the organiser to change it")
            % {"number": locked.number},
            field="game",
        )
    return locked


def _record(game: Game) -> list[str]:
    """The record plies build on: a game in progress's (or, for an undo, the finished
    game's); a game not begun has none."""
    return [] if game.status == Game.Status.PENDING else list(game.moves)


def _plies(game: Game, record: list[str]) -> dict[int, Ply]:
    """The ply rows that belong to the record as it is; rows of an older record (undone,
    cleared, or replaced by a whole record saved at once) are removed."""
    rows = {p.number: p for p in Ply.objects.filter(game=game)}
    stale = [p.pk for n, p in rows.items() if n > len(record) or record[n - 1] != p.move]
    if stale:
        Ply.objects.filter(pk__in=stale).delete()
    return {n: p for n, p in rows.items() if p.pk not in stale}


def _check_timeout(game: Game, facts: _Facts) -> datetime:
    """The moment the seat to move lost her turn; refused while her time is not over or
    the timer is paused. The timer was turned again when the last lost turn reached the
    server (`table_state.timer_clock`), so a device that comes back long after a
    deadline records that one lost turn, never the ones nobody was there to see."""
    seconds = game.table.round.tournament.seconds_per_move
    if not seconds:
        raise ServiceError(_("this tournament plays without an egg timer"), field="timeout")
    timer = timer_clock(game, facts.times, seconds) if facts.first_and_last else None
    if timer is None:
        # The timer starts with the first move recorded live (tournaments/results/egg_timer.py).
        raise ServiceError(_("the egg timer starts with the first move"), field="timeout")
    if timer.paused:
        raise ServiceError(_("the egg timer is paused"), field="timeout")
    # The server's times: a device that claims an early time for its ply cannot put the
    # next seat's deadline in the past (docs/offline.md, "The clock is the server's").
    if timer.left > TIMER_SLACK:
        raise ServiceError(
            _("the time for this move is not over yet (%(seconds)s s left)")
            % {"seconds": int(timer.left.total_seconds()) + 1},
            field="timeout",
        )
    assert timer.deadline is not None
    return timer.deadline


def _stood_still(game: Game, now: datetime) -> timedelta:
    """How long the game's timer has stood still up to ``now`` (`Ply.paused`)."""
    return now - live_now(now, game.timer_paused, game.timer_paused_at)


def _ply_time(game: Game, latest_at: datetime | None, typed_at: datetime | None) -> datetime:
    """When a ply was made, as a label (`Ply.at`: order, statistics' game lengths): now,
    or for one typed without signal and sent later the moment its device says it was
    typed (docs/offline.md). A device's clock is believed only between the ply before it
    (or the round's publication) and now; the egg timer never reads it."""
    now = timezone.now()
    if typed_at is None:
        return now
    earliest = latest_at if latest_at is not None else game.table.round.published_at
    if earliest is not None and typed_at < earliest:
        return min(earliest, now)
    return min(typed_at, now)


def _read_move(game: Game, move: str) -> str:
    """The move as sent, read by the game's notation before anything of it is stored:
    text a ply or a flag could not hold, or the notation cannot read, is refused."""
    # Spaces and line ends around it go; any other control character is refused below.
    move = (move or "").strip(" \t\r\n")
    if not move:
        raise ServiceError(_("say which move was made"), field="move")
    # Control and format characters (NUL, a zero-width space) are never notation, and
    # some engines would read past them.
    if len(move) > MOVE_LENGTH or any(unicodedata.category(c)[0] == "C" for c in move):
        raise ServiceError(
            _("a move is at most %(length)s characters of the game's notation")
            % {"length": MOVE_LENGTH},
            field="move",
        )
    parse = game.table.round.tournament.ruleset.parse_move
    if parse is not None:
        try:
            parse(move)
        except ValueError as exc:
            raise ServiceError(str(exc), field="move") from None
    return move


def _flag(
    game: Game, *, number: int, move: str, by: Actor, recorded: str, recorded_by: int | None
) -> PlyConflict:
    """The table's flag for a ply the record does not hold. One open flag per seat and
    ply: a newer wrong move from the same seat replaces it (the same move sent again
    changes nothing), so a link that sends many only ever shows its latest. Called
    under the game's lock."""
    position = by.seat.position if by.seat is not None else None
    open_flags = PlyConflict.objects.filter(
        game=game, number=number, by_position=position, cleared_at__isnull=True
    )
    kept = open_flags.filter(move=move, recorded=recorded).first()
    if kept is not None:
        return kept
    open_flags.delete()
    flag = PlyConflict.objects.create(
        game=game,
        number=number,
        move=move,
        by_position=position,
        recorded=recorded,
        recorded_by_position=recorded_by,
        at=timezone.now(),
    )
    # The flag shows on the results screen and the live pages at once.
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    game_changed_on_commit(game.pk)
    return flag


def _keep_late(game: Game, number: int, move: str, by: Actor) -> PlyConflict | None:
    """A ply that came after its game was decided: the table's flag, as a different ply
    would be, with what the record holds at that number (empty beyond its end). None:
    the record holds this very ply (it was stored before, and is sent again after its
    idempotency key was forgotten), so there is nothing to keep."""
    locked = lock_game(game)
    record = list(locked.moves)
    if 1 <= number <= len(record) and record[number - 1] == move:
        return None
    recorded = record[number - 1] if 1 <= number <= len(record) else ""
    return _flag(locked, number=number, move=move, by=by, recorded=recorded, recorded_by=None)


def _extend(locked: Game, record: list[str], move: str, by: Actor) -> Game:
    """The game's record with ``move`` added, checked against the position stored with
    the record (`Game.position`, games/rulesets.py `Ruleset.one_more`): the cost of a
    ply does not grow with the game. A ply that leaves the game in progress is written
    the short way (`game_extend_in_progress`, returns ``locked`` itself); the first ply
    and the one that ends the game go the whole way (`game_record_moves`)."""
    require_evening_open(locked.table.round)
    if locked.voided or locked.status != IN_PROGRESS:
        # Not begun (its first ply), or a decider no longer counting (refused there).
        return game_record_moves(game=locked, moves=[*record, move], by=by)
    tournament = locked.table.round.tournament
    ruleset_ = tournament.ruleset
    seats = players_of(locked)
    before: dict[str, Any] = {
        "players": seats,
        "variant": record_variant(tournament, seats),
        "moves": record,
    }
    try:
        outcome, position = ruleset_.one_more(before, locked.position, move)
    except (ValueError, TypeError) as exc:
        raise ServiceError(
            _("the move record cannot be read: %(exc)s") % {"exc": exc}, field="moves"
        ) from None
    refuse_illegal(outcome)
    if not outcome.finished:
        result = record_result(
            locked,
            seats,
            ruleset_,
            outcome,
            [*record, move],
            finished=None,
            round_=locked.table.round,
            setup={},
        )
        if game_extend_in_progress(game=locked, result=result, position=position, by=by):
            return locked
    return game_record_moves(game=locked, moves=[*record, move], by=by)


def _recorded(
    saved: Game,
    locked: Game,
    facts: _Facts,
    ply: Ply,
    *,
    extended: bool,
    first_new: Ply | None = None,
) -> None:
    """Put on ``saved`` what the answer needs (`PlyRecorded`) and, for a ply written the
    short way, send its news with the state as committed (the whole way sent its own).
    ``first_new``: the first of a run of plies written at once, ``ply`` its last."""
    live = ply.received_at - ply.paused
    first, _last, lost = facts.times
    if first is None and first_new is not None:
        first = first_new.received_at - first_new.paused
    times: Times = (first or live, live, live if ply.timed_out else lost)
    seats = int(locked.seat_count)  # the table's (`lock_game(counted=True)`)
    saved.recorded = PlyRecorded(seats=seats, times=times, by_position=ply.by_position)
    if not extended:
        return
    tournament = locked.table.round.tournament
    if getattr(locked, "flagged", False):
        game_changed_on_commit(locked.pk)  # its flags are read with the state then
        return
    state = game_live_state(game=saved, tournament=tournament, seats=seats, plies_at=times)
    game_changed_on_commit(locked.pk, tournament_id=tournament.pk, state=state)


@retried
def game_ply_record(
    *,
    game: Game,
    number: int,
    move: str,
    key: str,
    timeout: bool = False,
    typed_at: datetime | None = None,
    by: Actor,
) -> Game:
    """Add ply ``number`` (1 = the game's first) to the game's record. ``timeout``: the
    egg timer ran out, and the ply is the engine's pass whatever ``move`` says.
    ``typed_at``: a ply sent from an offline queue, typed then (`_ply_time`)."""
    check_actor_at_table(by=by, game=game)
    if not KEY.fullmatch(key or ""):
        raise ServiceError(
            _("each ply needs a key of 1 to 64 letters, digits or -_.:"), field="key"
        )
    move = PASS if timeout else _read_move(game, move)
    conflict: PlyConflict | None = None
    # No block of its own (`retried` holds the transaction): every refusal below comes
    # before anything is written, or from the whole way's own block, and a savepoint
    # would cost two statements a ply.
    try:
        locked = _locked(game, by, counted=True)
        record = _record(locked)
        facts = _facts(locked, [key], len(record))
        if facts.keyed:
            return locked  # a retry of a ply already stored
        if 1 <= number <= len(record):
            if record[number - 1] == move:
                return locked  # another device sent the same ply: one record
            earlier = Ply.objects.filter(game=locked, number=number).first()
            conflict = _flag(
                locked,
                number=number,
                move=move,
                by=by,
                recorded=record[number - 1],
                recorded_by=earlier.by_position if earlier is not None else None,
            )
        elif number != len(record) + 1:
            raise ConflictError(
                _("the record has %(plies)s plies, so the next is ply %(next)s, not %(number)s")
                % {"plies": len(record), "next": len(record) + 1, "number": number},
                field="ply",
            )
        else:
            # A lost turn is labelled with the moment it was lost, and turns the timer
            # on the next seat when the server learns of it (never earlier than the
            # deadline): a board reopened long after records one lost turn, and
            # the next seat has her whole period from then. Any other ply starts
            # the next seat's time when the server receives it.
            now = timezone.now()
            lost_at = _check_timeout(locked, facts) if timeout else None
            received = max(now, lost_at) if lost_at else now
            at = lost_at if lost_at else _ply_time(locked, facts.latest_at, typed_at)
            saved = _extend(locked, record, move, by)
            ply = Ply.objects.create(
                game=locked,
                number=number,
                move=move,
                key=key,
                by_position=by.seat.position if by.seat is not None else None,
                by_user=by.user,
                at=at,
                received_at=received,
                paused=_stood_still(locked, now),
                timed_out=timeout,
            )
            _recorded(saved, locked, facts, ply, extended=saved is locked)
            return saved
    except ServiceError as refused:
        # Typed without signal before the game got its result or its round closed:
        # never lost, the table is flagged for the organiser (docs/offline.md).
        if typed_at is None or refused.field not in ("game", "round"):
            raise
        kept = _keep_late(game, number, move, by)
        if kept is None:
            return Game.objects.get(pk=game.pk)
        raise PlyConflictError(
            _("%(reason)s; the ply is kept for the organiser") % {"reason": refused.message},
            field="ply",
        ) from None
    assert conflict is not None
    raise PlyConflictError(
        _("%(who)s recorded %(move)s at ply %(number)s; reload to follow the game")
        % {"who": _who(conflict.recorded_by_position), "move": conflict.recorded, "number": number},
        field="ply",
    )


@dataclass(frozen=True)
class PlySent:
    """One ply of a run sent at once (the batch door, docs/offline.md): as
    `game_ply_record`'s arguments, without a lost turn."""

    number: int
    move: str
    key: str
    typed_at: datetime | None = None


@retried
def game_plies_extend(*, game: Game, plies: Sequence[PlySent], by: Actor) -> int:
    """Write at once the longest run from the start of ``plies`` that extends the game in
    progress ply after ply: each the record's next ply, new, legal and not ending the
    game; how many were written. The game is locked once, its plies' rows read once,
    each ply checked against the position after the one before (`Ruleset.one_more`),
    and the record, the game row and the ply rows written once for the run, its news
    sent once (the last state holds the run's plies). Each ply is labelled and timed as
    `game_ply_record` would label it alone. The plies after the run (or all of them,
    0) are the caller's to send one by one through `game_ply_record`, which answers what
    a run cannot: a ply in already, another device's ply, the first and the last ply,
    a refusal and why (issue 44: a device's thousand queued plies in seconds)."""
    check_actor_at_table(by=by, game=game)
    try:
        locked = _locked(game, by, counted=True)
        require_evening_open(locked.table.round)
    except ServiceError:
        return 0  # each ply answers alone (a late ply is kept for the organiser there)
    if locked.voided or locked.status != IN_PROGRESS:
        return 0  # the first ply goes the whole way
    record = _record(locked)
    facts = _facts(locked, [p.key for p in plies], len(record))
    if facts.keyed:
        return 0  # a retry: each ply is answered "in already" alone
    tournament = locked.table.round.tournament
    ruleset_ = tournament.ruleset
    seats = players_of(locked)
    variant = record_variant(tournament, seats)
    moves, position = list(record), locked.position
    run: list[PlySent] = []
    last: Any = None
    for sent in plies:
        if sent.number != len(moves) + 1 or not KEY.fullmatch(sent.key or ""):
            break
        if any(p.key == sent.key for p in run):
            break
        try:
            move = _read_move(locked, sent.move)
            outcome, after = ruleset_.one_more(
                {"players": seats, "variant": variant, "moves": moves}, position, move
            )
            refuse_illegal(outcome)
        except (ServiceError, ValueError, TypeError):
            break
        if outcome.finished:
            break  # the ply that ends the game writes a result: the whole way
        moves, position, last = [*moves, move], after, outcome
        run.append(replace(sent, move=move))
    if not run:
        return 0
    result = record_result(
        locked,
        seats,
        ruleset_,
        last,
        moves,
        finished=None,
        round_=locked.table.round,
        setup={},
    )
    if not game_extend_in_progress(game=locked, result=result, position=position, by=by):
        return 0  # several drafts: each ply goes the whole way alone
    now = timezone.now()
    paused = _stood_still(locked, now)
    latest_at = facts.latest_at
    rows = []
    for sent in run:
        at = _ply_time(locked, latest_at, sent.typed_at)
        latest_at = at if latest_at is None else max(latest_at, at)
        rows.append(
            Ply(
                game=locked,
                number=sent.number,
                move=sent.move,
                key=sent.key,
                by_position=by.seat.position if by.seat is not None else None,
                by_user=by.user,
                at=at,
                received_at=now,
                paused=paused,
                timed_out=False,
            )
        )
    Ply.objects.bulk_create(rows)
    _recorded(locked, locked, facts, rows[-1], extended=True, first_new=rows[0])
    return len(run)


def game_ply_undo(*, game: Game, number: int, by: Actor) -> Game:
    """Take back the last ply, ``number``: by the seat that sent it (or a director),
    before anyone sent the next one."""
    check_actor_at_table(by=by, game=game)
    with transaction.atomic():
        locked = _locked(game, by, undo=True)
        record = _record(locked)
        if not record or number != len(record):
            raise ConflictError(
                _("only the last ply (%(plies)s) can be undone") % {"plies": len(record)},
                field="ply",
            )
        ply = _plies(locked, record).get(number)
        if (
            by.is_player
            and by.seat is not None
            and (ply is None or ply.by_position != by.seat.position)
        ):
            raise ServiceError(
                _("ply %(number)s was recorded by %(who)s, who can undo it")
                % {"number": number, "who": _who(ply.by_position if ply else None)},
                field="ply",
            )
        saved = game_record_moves(game=locked, moves=record[:-1], by=by)
        if ply is not None:
            ply.delete()
            if ply.timed_out:
                # Her deadline is past: the timer is turned on her again now, or she
                # would lose the turn again at once.
                now = timezone.now()
                saved.timer_turned = live_now(now, locked.timer_paused, locked.timer_paused_at)
                Game.objects.filter(pk=saved.pk).update(timer_turned=saved.timer_turned)
    return saved


def _timer_set(game: Game, by: Actor, *, pause: bool) -> Game:
    check_actor_at_table(by=by, game=game)
    with transaction.atomic():
        locked = _locked(game, by)
        if not locked.table.round.tournament.seconds_per_move:
            raise ServiceError(_("this tournament plays without an egg timer"), field="timer")
        if pause == (locked.timer_paused_at is not None):
            return locked  # so already: a retry, or another device was quicker
        now = timezone.now()
        if pause:
            locked.timer_paused_at = now
        else:
            assert locked.timer_paused_at is not None
            locked.timer_paused += now - locked.timer_paused_at
            locked.timer_paused_at = None
        # A new version: the boards and the live pages follow (services/broadcast.py).
        locked.version += 1
        locked.save(update_fields=["timer_paused_at", "timer_paused", "version"])
        game_changed_on_commit(locked.pk)
    return locked


def game_timer_pause(*, game: Game, by: Actor) -> Game:
    """Lay the table's egg timer on its side: a seat's device or a director, while the
    game is played live. Its time stands still until someone resumes it; pausing a
    paused timer changes nothing."""
    return _timer_set(game, by, pause=True)


def game_timer_resume(*, game: Game, by: Actor) -> Game:
    """Set the table's egg timer running again, with the time it had left."""
    return _timer_set(game, by, pause=False)


def ply_conflicts_clear(*, game: Game, by: Actor) -> int:
    """The organiser has looked at a flagged table: its conflicts stop showing."""
    if by.is_player:
        raise ServiceError(_("only a director can clear a flag"))
    with transaction.atomic():
        cleared = PlyConflict.objects.filter(game=game, cleared_at__isnull=True).update(
            cleared_at=timezone.now()
        )
        Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
        game_changed_on_commit(game.pk)
    return cleared
