"""Entering results as submissions (as a tournament's ballots are): every report is a
row saying who (a director, or the player in one seat through that seat's own link),
when, what, and its state; the game's current result is derived from them.

- A director's entry is final at once and discards every other submission.
- A player's report waits for another seat's player: a confirmation, or an agreeing
  report, makes it count. A seat reports once per game and never confirms its own.
- Two reports that disagree become a dispute; the organiser accepts one of them.
- A player's report never replaces a final result (a director's, or a confirmed one).

Two devices writing the same game: each write names the game's version it saw; the
second gets a ConflictError instead of acting on a result it has not seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.core import jsonbody
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, KeptForOrganiser, ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.models import Game, Ply, ResultSubmission, Round, Seat, Tournament
from tournaments.models_team import TEAM_TARGET
from tournaments.results.services.broadcast import game_changed_on_commit
from tournaments.results.services.deciders import check_decider_player, decider_sync
from tournaments.results.services.game_lock import lock_game
from tournaments.standings.selectors.standings import table_teams

State = ResultSubmission.State
HeldReason = ResultSubmission.HeldReason
LIVE = (State.ENTERED, State.REPORTED, State.CONFIRMED, State.DISPUTED)
IN_PROGRESS = Game.Status.IN_PROGRESS


def _draft(submission: ResultSubmission) -> bool:
    """A move record saved before the game ended: shown while nothing else is, never a
    result (never confirmed, agreed with or disputed)."""
    return submission.status == IN_PROGRESS


@dataclass(frozen=True)
class _Result:
    status: str
    out: list[int]
    moves: list[str] = field(default_factory=list)
    colours_out: dict[str, list[str]] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, submission: ResultSubmission) -> _Result:
        return cls(
            submission.status,
            list(submission.out),
            list(submission.moves),
            dict(submission.colours_out),
            dict(submission.setup),
        )

    def agrees(self, other: _Result) -> bool:
        """The same outcome: status and pieces out (one may add a move record)."""
        return self.status == other.status and self.out == other.out


def _seats(game: Game) -> int:
    """How many play the game: the table's seats, or a decider's two leaders."""
    return players_of(game)


def players_of(game: Game) -> int:
    """How many play ``game``: its table's seats, or a decider's two leaders (its result
    lists their pieces out in seat order, `Game.positions`). A game locked for a ply
    carries its table's seat count already (`lock_game(seats=True)`)."""
    if game.decider:
        return 2
    counted = getattr(game, "seat_count", None)
    if counted is not None:
        return int(counted)
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
    unit = _("pieces out") if ruleset.result_is_pieces_out else _("the result")
    if len(out) != seats:
        raise ServiceError(
            _("give %(unit)s for all %(seats)s seats") % {"unit": unit, "seats": seats}, field="out"
        )
    values: list[int] = []
    for position, value in enumerate(out, start=1):
        if value is None:
            raise ServiceError(
                _("seat %(position)s: %(unit)s missing") % {"position": position, "unit": unit},
                field=f"out_{position}",
            )
        if not 0 <= value <= target:
            raise ServiceError(
                _("seat %(position)s: %(unit)s must be between 0 and %(target)s, not %(value)s")
                % {"position": position, "unit": unit, "target": target, "value": value},
                field=f"out_{position}",
            )
        values.append(int(value))
    teams = table_teams(game.table.round.tournament, seats)
    if teams is not None:
        _validate_team_out(values, teams, finished)
        return values
    if finished and ruleset.finished_needs_target and max(values) < target:
        raise ServiceError(
            _(
                "a finished game needs a winner with %(target)s pieces out; mark it unfinished if the turn ended"
            )
            % {"target": target},
            field="out",
        )
    return values


def _validate_team_out(values: list[int], teams: Sequence[Sequence[int]], finished: bool) -> None:
    """A 2 vs 2 game (section 3): a finished game needs a team with 5 out, and no team
    ends with more than 6 (4 before the deciding round, then one from each partner)."""
    for side in teams:
        total = sum(values[seat] for seat in side)
        most = TEAM_TARGET - 1 + len(side)
        if total > most:
            raise ServiceError(
                _("seats %(seats)s: a team brings out at most %(most)d pieces, not %(total)d")
                % {"seats": "+".join(str(s + 1) for s in side), "most": most, "total": total},
                field="out",
            )
    if finished and max(sum(values[s] for s in side) for side in teams) < TEAM_TARGET:
        raise ServiceError(
            _(
                "a finished game needs a team with %(target)d pieces out; "
                "mark it unfinished if the turn ended"
            )
            % {"target": TEAM_TARGET},
            field="out",
        )


def _partners(game: Game, seat: Seat, other: Seat | None) -> bool:
    """Two different seats of one team at a 2 vs 2 table (seats 1+3, 2+4): like the
    player herself, a partner cannot confirm her team's report."""
    if other is None or other.pk == seat.pk:
        return False
    seats = _seats(game)
    if table_teams(game.table.round.tournament, seats) is None:
        return False
    return (seat.position - other.position) % 2 == 0


def require_open_for_reports(round_: Round) -> None:
    """Players report and confirm while their round is published; before (still being
    paired) and after (closed) only the organiser changes results."""
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(
            _("this round is closed; ask the organiser to change results"), field="round"
        )
    if round_.status != Round.Status.PUBLISHED:
        raise ServiceError(_("this round is not open for reports yet"), field="round")


def check_actor_at_table(*, by: Actor, game: Game) -> None:
    require_actor(by)
    if by.is_player and (by.seat is None or by.seat.table_id != game.table_id):
        raise ServiceError(_("this link is not for this game's table"), field="position")
    check_decider_player(by=by, game=game)


def _drop_other_drafts(
    submissions: list[ResultSubmission], keep_seat_id: int | None
) -> list[ResultSubmission]:
    """A game in progress has one record, whoever at the table sends its next ply: a
    save in progress replaces the drafts of the other seats (and a director's), which
    are earlier states of the same record. Deleted, not discarded: a draft was never a
    report, and its seat may still report the result."""
    drop = [
        s
        for s in submissions
        if s.state in LIVE and _draft(s) and (keep_seat_id is None or s.by_seat_id != keep_seat_id)
    ]
    if drop:
        ResultSubmission.objects.filter(pk__in=[s.pk for s in drop]).delete()
    return [s for s in submissions if s not in drop]


def _materialise(game: Game, submissions: list[ResultSubmission]) -> None:
    """Store the current result derived from the submissions on the game row, which
    standings and ratings read: the director's entry, else the confirmed report, else a
    waiting report (not counted yet); a dispute leaves no result until it is resolved.
    A game in progress (a record saved before the game ended) shows only while no result
    or dispute does: the latest such record, the game's state, not a result."""
    everything = [s for s in submissions if s.state in LIVE]
    live = [s for s in everything if not _draft(s)]
    entered = [s for s in live if s.state == State.ENTERED]
    confirmed = [s for s in live if s.state == State.CONFIRMED]
    waiting = [s for s in live if s.state == State.REPORTED]
    disputed = any(s.state == State.DISPUTED for s in live)
    current: ResultSubmission | None = None
    counts = True
    if entered:
        current = entered[-1]
    elif confirmed:
        # Agreeing reports are all confirmed; the first one holds any move record.
        current = next((s for s in confirmed if s.moves), confirmed[0])
    elif waiting and not disputed:
        current, counts = waiting[-1], False
    elif disputed:
        counts = False
    elif everything:
        # Only records in progress: nothing waits for a confirmation.
        current = everything[-1]
    fields = _derived(
        game,
        current=None if current is None else _Result.of(current),
        counts=counts,
        by_user=current.by_user if current is not None and current.by_seat_id is None else None,
        by_position=current.by_seat.position
        if current is not None and current.by_seat is not None
        else None,
    )
    fields["version"] = F("version") + 1
    _drop_stale_plies(game, fields["moves"])
    Game.objects.filter(pk=game.pk).update(**fields)
    game.refresh_from_db()
    # Every page showing the game live hears of it once the change is committed.
    game_changed_on_commit(game.pk)
    if game.confirmed and game.status in (Game.Status.FINISHED, Game.Status.UNFINISHED):
        # A result that counts: a director's entry or the other seat's confirmation.
        signals.result_confirmed.send(sender=Game, game_id=game.pk)


def _derived(
    game: Game,
    *,
    current: _Result | None,
    counts: bool,
    by_user: Any = None,
    by_position: int | None = None,
    position: Any = None,
) -> dict[str, Any]:
    """The game row's fields that show its current result (`_materialise`) or its record
    in progress (`game_extend_in_progress`): one place, so both write the same row.
    ``position``: the engine's position after the record, when the writer knows it."""
    fields: dict[str, Any] = {
        "confirmed": counts,
        "reported_by_position": by_position,
        "entered_at": timezone.now(),
        "position": position,
    }
    if current is None:
        fields.update(status=Game.Status.PENDING, moves=[], colours_out={}, setup={})
        fields["entered_by"] = None
        out: list[int | None] = []
    else:
        fields.update(
            status=current.status,
            moves=current.moves,
            colours_out=current.colours_out,
            setup=current.setup,
            entered_by=by_user,
        )
        out = list(current.out)
    # One value per seat that plays, in seat order: at their positions (a decider's
    # two leaders may be seats 2 and 3), the other seats empty.
    positions = game.positions(len(out)) if out else ()
    for i in range(1, 5):
        fields[f"out_{i}"] = out[positions.index(i)] if i in positions else None
    return fields


def _drop_stale_plies(game: Game, moves: Sequence[str]) -> None:
    """A ply row belongs to the record as it is (services/plies.py): a record replaced
    or cut (a whole record saved, an undone ply, a result typed, the game cleared)
    takes the rows of the plies it no longer holds with it, so a ply never has to
    read the rows to tell which still count. ``game`` is the row as it was (locked)."""
    before = [] if game.status == Game.Status.PENDING else list(game.moves)
    kept = 0
    for old, new in zip(before, moves, strict=False):
        if old != new:
            break
        kept += 1
    if kept < len(before):
        Ply.objects.filter(game=game, number__gt=kept).delete()


def game_extend_in_progress(*, game: Game, result: _Result, position: Any, by: Actor) -> bool:
    """A ply recorded live that leaves its game in progress (services/plies.py), written
    the short way: the game's one record in progress (its draft, `_drop_other_drafts`)
    becomes the sender's with the longer record, and the game row follows it, in two
    statements. ``game`` is locked, in progress, its record ``result.moves`` less the
    new ply. False: the short way does not apply (more than one draft, or the sender
    has another submission for the game) and nothing was written; the caller goes the
    whole way (`game_record_moves`). A record in progress is no result, so nothing
    else changes: no audit, no decider (the match's results are as they were)."""
    assert result.status == IN_PROGRESS and game.status == IN_PROGRESS
    seat = by.seat
    draft = Q(game=game, status=IN_PROGRESS, state__in=LIVE)
    others = ResultSubmission.objects.filter(draft).exclude(pk=OuterRef("pk"))
    sender = ResultSubmission.objects.filter(game=game, by_seat=seat).exclude(
        Q(state=State.HELD) | Q(pk=OuterRef("pk"))
    )
    changed = (
        ResultSubmission.objects.filter(draft)
        .exclude(Exists(others))
        .exclude(Exists(sender) if seat is not None else Q(pk__in=[]))
        .update(
            by_seat=seat,
            by_user=None if seat is not None else by.user,
            state=State.REPORTED if seat is not None else State.ENTERED,
            out=result.out,
            moves=result.moves,
            colours_out=result.colours_out,
            setup=result.setup,
            decided_by_seat=None,
            decided_by_user=None,
            decided_at=None,
        )
    )
    if changed != 1:
        return False
    fields = _derived(
        game,
        current=result,
        counts=True,
        by_user=None if seat is not None else by.user,
        by_position=seat.position if seat is not None else None,
        position=position,
    )
    # Under the game's lock: the version is known, and the row in memory is the row.
    fields["version"] = game.version + 1
    Game.objects.filter(pk=game.pk).update(**fields)
    for name, value in fields.items():
        setattr(game, name, value)
    return True


def _has_result(game: Game) -> bool:
    """A result stands on the game (counted or not): not pending, not in progress."""
    return game.status not in Game.WITHOUT_RESULT


def require_evening_open(round_: Round) -> None:
    """A closed club evening is rated as one period: its results stay as they were
    closed, whoever writes, until the organiser reopens the evening (docs/results.md).
    A tournament's closed round is corrected in place instead (audited, re-rated)."""
    tournament = round_.tournament
    if (
        tournament.kind == Tournament.Kind.EVENING
        and tournament.status == Tournament.Status.FINISHED
    ):
        raise ConflictError(_("the evening is closed; reopen it first"), field="tournament")


def require_correction(round_: Round, *, by: Actor | None, correction: bool) -> None:
    """A closed round's results paired the rounds after it: a director changes one only
    as a deliberate correction (audited, re-rated; docs/results.md), never by a
    keystroke on a screen that looks open. A player's write is refused elsewhere."""
    if by is None or by.is_player or correction or round_.status != Round.Status.CLOSED:
        return
    raise ConflictError(
        _("round %(number)s is closed: correct it deliberately (correction) or reopen it")
        % {"number": round_.number},
        field="correction",
    )


def _lock(
    game: Game, version: int | None, *, by: Actor | None = None, correction: bool = False
) -> tuple[Game, list[ResultSubmission]]:
    """The game locked with its submissions; ``by`` (a writer of the result) must say
    ``correction`` for a closed round."""
    locked = lock_game(game)
    require_evening_open(locked.table.round)
    require_correction(locked.table.round, by=by, correction=correction)
    if version is not None and locked.version != version:
        raise ConflictError(
            _(
                "game %(number)s at table %(table)s was changed by someone else meanwhile; reload to see their result"
            )
            % {"number": locked.number, "table": locked.table.number},
            field="version",
        )
    if locked.voided:
        raise ConflictError(
            _(
                "this decider no longer counts: the match at table %(table)s is not tied at "
                "the top any more"
            )
            % {"table": locked.table.number},
            field="game",
        )
    submissions = list(
        ResultSubmission.objects.filter(game=locked).select_related("by_seat", "by_user")
    )
    return locked, submissions


def _target(game: Game) -> str:
    round_ = game.table.round
    return f"round {round_.number} table {game.table.number} game {game.number}"


def _after_director_change(
    *,
    game: Game,
    before: dict[str, Any] | None,
    by: Actor,
    action: str,
    seats: int,
    always: bool = False,
) -> None:
    """Audit a director's change of a result that existed (or of a closed round), and
    queue the ratings again when history changed."""
    round_ = game.table.round
    closed = round_.status == Round.Status.CLOSED
    if always or closed or before is not None:
        audit_record(
            tournament=round_.tournament,
            by=by,
            action=action,
            target=_target(game),
            before=before,
            after=_game_snapshot(game, seats),
        )
    if closed:
        # Standings count closed rounds only: a result in the round being played leaves
        # them (and their pollers' ETags) as they are.
        standings_changed(tournament=round_.tournament_id)
        # History changed: ratings from this round on are recomputed.
        signals.closed_result_changed.send(sender=Round, round_id=round_.pk, by=by)


def _discard(submissions: list[ResultSubmission], by: Actor, keep: int | None = None) -> None:
    now = timezone.now()
    for s in submissions:
        if s.state in LIVE and s.pk != keep:
            s.state = State.DISCARDED
            s.decided_by_user = by.user
            s.decided_at = now
            s.save(update_fields=["state", "decided_by_user", "decided_at"])


def _write(
    *,
    game: Game,
    version: int | None,
    by: Actor,
    result: _Result,
    queued_at: datetime | None = None,
    correction: bool = False,
) -> Game:
    check_actor_at_table(by=by, game=game)
    if queued_at is not None and version is None and not by.is_player:
        # A queued director's entry is checked against the version it was typed
        # against; without one it would replace whatever was entered meanwhile. The
        # pages' queue always sends it (a player's report never replaces a result).
        raise ServiceError(
            _("an entry sent from an offline queue must name the version it was typed against"),
            field="version",
        )
    if queued_at is None or result.status == IN_PROGRESS:
        return _write_now(game=game, version=version, by=by, result=result, correction=correction)
    # Sent from an offline queue (docs/offline.md): what no longer fits is kept for the
    # organiser, never written over what happened meanwhile and never lost.
    with transaction.atomic():
        locked = lock_game(game)
        reason = _no_longer_fits(locked, version, by, queued_at)
        if reason is None and not by.is_player:
            return _write_now(
                game=locked, version=version, by=by, result=result, correction=correction
            )
        if reason is None:
            # A player's report goes the usual way (waiting, agreeing, a dispute); the
            # version she saw does not matter to it. A report that cannot be one now
            # (she has reported already, a final result stands) is kept instead.
            try:
                with transaction.atomic():
                    return _write_now(game=locked, version=None, by=by, result=result)
            except ConflictError:
                reason = HeldReason.CHANGED
        if _stands(locked, result) or _sent_already(locked, by, result):
            return locked  # the same result counts, or waits, already: nothing to keep
        _hold(locked, by, result, reason)
    raise KeptForOrganiser(_held_message(locked, reason))


def _no_longer_fits(
    game: Game, version: int | None, by: Actor, queued_at: datetime
) -> HeldReason | None:
    """Why a queued entry typed at ``queued_at`` against ``version`` no longer fits the
    (locked) game: its round was closed (a player's report, or a director's entry typed
    before the round was closed), or a director's entry was typed against a result
    that changed meanwhile (someone else entered one)."""
    round_ = game.table.round
    if round_.status == Round.Status.CLOSED and (
        by.is_player or (round_.closed_at is not None and round_.closed_at > queued_at)
    ):
        return HeldReason.CLOSED
    if not by.is_player and version is not None and game.version != version:
        return HeldReason.CHANGED
    return None


def _stands(game: Game, result: _Result) -> bool:
    """The game's counted result is ``result`` already."""
    seats = len(result.out)
    return game.counts and game.status == result.status and game.out_list(seats) == result.out


def _sent_already(game: Game, by: Actor, result: _Result) -> bool:
    """The same actor's report of the same result waits already, or is kept already (the
    item sent again under a new key): a duplicate, not a second entry to decide."""
    own = (
        ResultSubmission.objects.filter(game=game, by_seat=by.seat)
        if by.seat is not None
        else ResultSubmission.objects.filter(game=game, by_seat=None, by_user=by.user)
    )
    return (
        own.filter(status=result.status, out=result.out)
        .filter(
            Q(state__in=[State.REPORTED, State.CONFIRMED, State.DISPUTED])
            | Q(state=State.HELD, decided_at__isnull=True)
        )
        .exists()
    )


def _hold(game: Game, by: Actor, result: _Result, reason: str) -> ResultSubmission:
    """Keep a queued entry that no longer fits for the organiser: a held submission the
    results screen shows with an accept button; the game's result stays as it is."""
    held = ResultSubmission.objects.create(
        game=game,
        by_user=by.user,
        by_seat=by.seat,
        state=State.HELD,
        held_reason=reason,
        status=result.status,
        out=result.out,
        moves=result.moves,
        colours_out=result.colours_out,
        setup=result.setup,
    )
    # The results screen (and every page following the game) shows it at once.
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    game_changed_on_commit(game.pk)
    return held


def _held_message(game: Game, reason: str) -> str:
    if reason == HeldReason.CLOSED:
        return _(
            "round %(round)s was closed before this result arrived; it is kept for the "
            "organiser to accept or set aside"
        ) % {"round": game.table.round.number}
    return _(
        "game %(number)s at table %(table)s changed while this result was typed offline; it is "
        "kept for the organiser to accept or set aside"
    ) % {"number": game.number, "table": game.table.number}


def _write_now(
    *, game: Game, version: int | None, by: Actor, result: _Result, correction: bool = False
) -> Game:
    with transaction.atomic():
        locked, submissions = _lock(game, version, by=by, correction=correction)
        round_ = locked.table.round
        if round_.status == Round.Status.PAIRED:
            raise ServiceError(_("results can be entered once the round is published"))
        if result.status == IN_PROGRESS:
            own = by.seat.pk if by.seat is not None else None
            submissions = _drop_other_drafts(submissions, own)
        if by.is_player:
            _report(locked, submissions, by, result)
            decider_sync(game=locked, by=by)
            return locked
        _enter_final(locked, submissions, by, result, seats=len(result.out))
    return locked


def _enter_final(
    locked: Game,
    submissions: list[ResultSubmission],
    by: Actor,
    source: _Result | ResultSubmission,
    *,
    seats: int,
    action: str = "",
) -> None:
    """A director's entry of ``source``'s result (typed, or a held entry accepted): final
    at once, every other submission stops counting; audited, the decider kept in step."""
    before = _game_snapshot(locked, seats) if _has_result(locked) else None
    _discard(submissions, by)
    entry = ResultSubmission.objects.create(
        game=locked,
        by_user=by.user,
        state=State.ENTERED,
        status=source.status,
        out=source.out,
        moves=source.moves,
        colours_out=source.colours_out,
        setup=source.setup,
    )
    _materialise(locked, [*submissions, entry])
    _after_director_change(
        game=locked,
        before=before,
        by=by,
        action=action or ("edit result" if before else "enter result"),
        seats=seats,
        always=bool(action),
    )
    decider_sync(game=locked, by=by)


def _report(game: Game, submissions: list[ResultSubmission], by: Actor, result: _Result) -> None:
    """A player's report: waiting, confirming an agreeing report, or a dispute."""
    seat = by.seat
    if seat is None:
        raise ServiceError(_("say which seat you sit in"), field="position")
    require_open_for_reports(game.table.round)
    if game.counts:
        raise ConflictError(
            _("game %(number)s already has its final result; ask the organiser to change it")
            % {"number": game.number},
            field="game",
        )
    own = next((s for s in submissions if s.by_seat_id == seat.pk and s.state != State.HELD), None)
    # The seat's own record in progress is saved over: its draft, not yet a report. So
    # is her waiting report by a record in progress: she took back the ply that ended
    # the game (services/plies.py) before an opponent confirmed it.
    taken_back = result.status == IN_PROGRESS
    draft = (
        own
        if own is not None and own.state == State.REPORTED and (_draft(own) or taken_back)
        else None
    )
    if own is not None and draft is None:
        raise ConflictError(
            _(
                "you have already reported game %(number)s; an opponent confirms it, or the organiser changes it"
            )
            % {"number": game.number},
            field="game",
        )
    live = [
        s
        for s in submissions
        if s.state in (State.REPORTED, State.DISPUTED) and not _draft(s) and s is not draft
    ]
    state = State.REPORTED
    now = timezone.now()
    other: ResultSubmission | None = None
    if result.status == IN_PROGRESS:
        pass  # a record in progress waits for its end: it neither agrees nor disputes
    elif any(s.state == State.DISPUTED for s in live):
        state = State.DISPUTED
    elif live:
        other = live[0]
        if _partners(game, seat, other.by_seat):
            raise ServiceError(
                _("your partner has reported game %(number)d already; an opponent confirms it")
                % {"number": game.number},
                field="position",
            )
        if result.agrees(_Result.of(other)):
            # Two players reporting the same result: each confirms the other's.
            state = other.state = State.CONFIRMED
            other.decided_by_seat, other.decided_at = seat, now
        else:
            state = other.state = State.DISPUTED
        other.save(update_fields=["state", "decided_by_seat", "decided_at"])
    if draft is not None:
        draft.state, draft.status, draft.out = state, result.status, result.out
        draft.moves, draft.colours_out, draft.setup = (
            result.moves,
            result.colours_out,
            result.setup,
        )
        draft.decided_by_seat = other.by_seat if state == State.CONFIRMED and other else None
        draft.decided_at = now if state == State.CONFIRMED else None
        draft.save(
            update_fields=[
                "state",
                "status",
                "out",
                "moves",
                "colours_out",
                "setup",
                "decided_by_seat",
                "decided_at",
            ]
        )
        _materialise(game, submissions)
        return
    try:
        with transaction.atomic():
            report = ResultSubmission.objects.create(
                game=game,
                by_seat=seat,
                state=state,
                status=result.status,
                out=result.out,
                moves=result.moves,
                colours_out=result.colours_out,
                setup=result.setup,
                decided_by_seat=other.by_seat if state == State.CONFIRMED and other else None,
                decided_at=now if state == State.CONFIRMED else None,
            )
    except IntegrityError:
        raise ConflictError(
            _("you have already reported game %(number)s") % {"number": game.number}
        ) from None
    _materialise(game, [*submissions, report])


def game_record_out(
    *,
    game: Game,
    out: Sequence[int | None],
    finished: bool = True,
    version: int | None = None,
    by: Actor,
    colours_out: Mapping[str, str] | None = None,
    queued_at: datetime | None = None,
    correction: bool = False,
) -> Game:
    """Record pieces out per seat position (1..n), as a director's entry or a player's
    report (see the module's docstring). ``colours_out`` optionally gives, per seat
    position, the colours that went out in order as letters (``"rw"``: red first, then
    white; section 22). ``queued_at``: sent from an offline queue, typed then; what no
    longer fits is kept for the organiser (KeptForOrganiser)."""
    check_actor_at_table(by=by, game=game)
    seats = _seats(game)
    values = _validate_out(out, seats, game, finished)
    colours = _validate_colours(colours_out or {}, values, game.positions(seats))
    status = Game.Status.FINISHED if finished else Game.Status.UNFINISHED
    return _write(
        game=game,
        version=version,
        by=by,
        result=_Result(status=status, out=values, colours_out=colours),
        queued_at=queued_at,
        correction=correction,
    )


_COLOURS = "wbryg"  # white, blue, red, yellow, green


def _validate_colours(
    given: Mapping[str, str], out: list[int], positions: Sequence[int]
) -> dict[str, list[str]]:
    """Colours out per seat position (of those that play, ``positions``, whose pieces
    out ``out`` lists in that order): distinct letters of w b r y g, no more than the
    pieces out (each player has one piece of each colour, section 1)."""
    colours: dict[str, list[str]] = {}
    for key, text in given.items():
        letters = [c for c in str(text).lower() if not c.isspace() and c != ","]
        if not letters:
            continue
        field = f"colours_{key}"
        if not key.isdigit() or int(key) not in positions:
            raise ServiceError(_("no seat %(key)s at this table") % {"key": key}, field=field)
        wrong = [c for c in letters if c not in _COLOURS]
        if wrong:
            raise ServiceError(
                _("seat %(key)s: colours are w, b, r, y, g, not %(wrong)s")
                % {"key": key, "wrong": repr("".join(wrong))},
                field=field,
            )
        if len(set(letters)) != len(letters):
            raise ServiceError(
                _("seat %(key)s: a colour can go out only once") % {"key": key}, field=field
            )
        pieces = out[list(positions).index(int(key))]
        if len(letters) > pieces:
            raise ServiceError(
                _("seat %(key)s: %(colours)s colours out but %(pieces)s pieces out")
                % {"key": key, "colours": len(letters), "pieces": pieces},
                field=field,
            )
        colours[key] = letters
    return colours


def game_confirm(*, game: Game, by: Actor) -> Game:
    """Another seat's player confirms the report waiting for this game; only then does
    it count. A seat never confirms its own report, and a dispute is the organiser's.
    (A round closes only once nothing waits for a confirmation, so a confirmation sent
    from an offline queue after the closing finds the result counted, a duplicate.)"""
    check_actor_at_table(by=by, game=game)
    if not by.is_player:
        raise ServiceError(_("a director accepts a report on the open-tables page"))
    with transaction.atomic():
        locked, submissions = _lock(game, None)
        if locked.counts:
            return locked
        return _confirm(locked, submissions, by)


def _confirm(locked: Game, submissions: list[ResultSubmission], by: Actor) -> Game:
    """Confirm the waiting report of the (locked) game."""
    require_open_for_reports(locked.table.round)
    if any(s.state == State.DISPUTED for s in submissions):
        raise ConflictError(
            _("the players reported different results; the organiser decides"), field="game"
        )
    waiting = [s for s in submissions if s.state == State.REPORTED and not _draft(s)]
    if not waiting:
        raise ServiceError(_("there is no result to confirm yet"))
    report = waiting[0]
    if by.seat is not None and _partners(locked, by.seat, report.by_seat):
        raise ServiceError(
            _("the result must be confirmed by an opponent, not by a partner"),
            field="position",
        )
    if by.seat is not None and report.by_seat_id == by.seat.pk:
        raise ServiceError(
            _("the result must be confirmed by an opponent, not by the player who reported it"),
            field="position",
        )
    report.state = State.CONFIRMED
    report.decided_by_seat = by.seat
    report.decided_at = timezone.now()
    report.save(update_fields=["state", "decided_by_seat", "decided_at"])
    _materialise(locked, submissions)
    decider_sync(game=locked, by=by)
    return locked


def result_accept(
    *,
    submission: ResultSubmission,
    by: Actor,
    version: int | None = None,
    correction: bool = False,
) -> Game:
    """The organiser settles a game with one click: this player's report (disputed or
    waiting) becomes the result; every other submission of the game is discarded. A
    held entry (typed offline, kept because the game changed or the round closed
    meanwhile) becomes her own entry of that result."""
    if by.is_player:
        raise ServiceError(_("only a director can accept a report"))
    with transaction.atomic():
        locked, submissions = _lock(submission.game, version, by=by, correction=correction)
        chosen = next((s for s in submissions if s.pk == submission.pk), None)
        if chosen is not None and chosen.state == State.HELD and chosen.decided_at is None:
            return _accept_held(locked, submissions, chosen, by)
        if chosen is None or chosen.state not in (State.REPORTED, State.DISPUTED):
            raise ConflictError(
                _("this report is no longer open; reload to see the game's result"), field="game"
            )
        if _draft(chosen):
            raise ServiceError(
                _("this record is still in progress; it becomes a result when it ends"),
                field="game",
            )
        seats = _seats(locked)
        before = _game_snapshot(locked, seats) if _has_result(locked) else None
        _discard(submissions, by, keep=chosen.pk)
        chosen.state = State.CONFIRMED
        chosen.decided_by_user = by.user
        chosen.decided_at = timezone.now()
        chosen.save(update_fields=["state", "decided_by_user", "decided_at"])
        _materialise(locked, submissions)
        _after_director_change(
            game=locked, before=before, by=by, action="accept result", seats=seats, always=True
        )
        decider_sync(game=locked, by=by)
    return locked


def _accept_held(
    locked: Game, submissions: list[ResultSubmission], held: ResultSubmission, by: Actor
) -> Game:
    """A held entry accepted: the director's entry of its result (final, as any of hers),
    the held row marked decided and kept in the trail as it was sent."""
    held.decided_by_user = by.user
    held.decided_at = timezone.now()
    held.save(update_fields=["decided_by_user", "decided_at"])
    _enter_final(locked, submissions, by, held, seats=_seats(locked), action="accept result")
    return locked


def result_held_set_aside(
    *, submission: ResultSubmission, by: Actor, correction: bool = False
) -> Game:
    """The organiser has looked at a held entry (docs/offline.md) and keeps the game's
    result as it is: the entry stays in the game's trail, decided, and stops showing."""
    if by.is_player:
        raise ServiceError(_("only a director can set an entry aside"))
    with transaction.atomic():
        locked, submissions = _lock(submission.game, None, by=by, correction=correction)
        held = next((s for s in submissions if s.pk == submission.pk), None)
        if held is None or held.state != State.HELD or held.decided_at is not None:
            raise ConflictError(
                _("this entry is no longer open; reload to see the game's result"), field="game"
            )
        held.decided_by_user = by.user
        held.decided_at = timezone.now()
        held.save(update_fields=["decided_by_user", "decided_at"])
        Game.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        game_changed_on_commit(locked.pk)
        locked.refresh_from_db()
    return locked


def game_clear(
    *, game: Game, version: int | None = None, by: Actor, correction: bool = False
) -> Game:
    """A director takes a game's result back (entered at the wrong table, say): every
    submission is discarded, kept in the list as the audit trail, and the game is not
    played yet. In a closed round the standings and the ratings are computed again."""
    if by.is_player:
        raise ServiceError(_("only a director can clear a result"))
    require_actor(by)
    with transaction.atomic():
        locked, submissions = _lock(game, version, by=by, correction=correction)
        if locked.table.round.status == Round.Status.PAIRED:
            raise ServiceError(_("this round is not published; it has no results yet"))
        if locked.status == Game.Status.PENDING and not any(s.state in LIVE for s in submissions):
            return locked
        seats = _seats(locked)
        before = _game_snapshot(locked, seats)
        _discard(submissions, by)
        _materialise(locked, submissions)
        _after_director_change(
            game=locked, before=before, by=by, action="clear result", seats=seats, always=True
        )
        decider_sync(game=locked, by=by)
    return locked


def game_record_moves(
    *,
    game: Game,
    moves: Sequence[str],
    finished: bool | None = None,
    version: int | None = None,
    by: Actor,
    setup: Mapping[str, Any] | None = None,
    queued_at: datetime | None = None,
    correction: bool = False,
) -> Game:
    """Replay a move record with the game's rules engine and store it with the result it
    yields. An illegal record is refused with the engine's ply and reason; nothing is
    saved. ``finished``: True requires a record that ends; False says the game ended
    unfinished (the turn ended), a result; None (every form, board and API save) takes
    what the record says: one that stops before the end is a game in progress, no result
    yet, unless its round is closed (then the turn ended: unfinished).
    ``setup`` holds the record's other keys for games that have a setup (Pantarei's
    row of scales, PentaCosmos' tokens)."""
    check_actor_at_table(by=by, game=game)
    seats = _seats(game)
    round_ = Game.objects.select_related("table__round__tournament").get(pk=game.pk).table.round
    tournament = round_.tournament
    ruleset_ = tournament.ruleset
    extra = dict(setup or {})
    if set(extra) & {"players", "moves"}:
        raise ServiceError(_("the setup cannot name players or moves"), field="setup")
    record: dict[str, Any] = {
        "players": seats,
        "variant": record_variant(tournament, seats),
        **extra,
    }
    record["moves"] = list(moves)
    try:
        # Engines raise ValueError subclasses when the input is not a record at all.
        result: Any = ruleset_.replay(record)
    except (ValueError, TypeError) as exc:
        # TypeError too: a setup of the wrong shape must be refused, never a server error.
        raise ServiceError(
            _("the move record cannot be read: %(exc)s") % {"exc": exc}, field="moves"
        ) from None
    refuse_illegal(result)
    if finished and not result.finished:
        raise ServiceError(
            _("the record ends after %(plies)s plies without a winner") % {"plies": result.plies},
            field="moves",
        )
    return _write(
        game=game,
        version=version,
        by=by,
        result=record_result(
            game, seats, ruleset_, result, moves, finished=finished, round_=round_, setup=extra
        ),
        queued_at=queued_at,
        correction=correction,
    )


def record_variant(tournament: Tournament, seats: int) -> str:
    """The engine's variant a table plays: a 2 vs 2 table the team variant (seats 1+3
    against 2+4), every other table the standard game."""
    return "teams" if table_teams(tournament, seats) else "standard"


def refuse_illegal(result: Any) -> None:
    """A replayed record with an illegal ply is refused, naming the ply and why."""
    if result.ok:
        return
    error = result.error
    if error is None:  # an engine that failed without saying where
        raise ServiceError(_("the move record breaks the rules"), field="moves")
    raise ServiceError(
        _("ply %(ply)s `%(move)s`: %(reason)s")
        % {"ply": error.ply, "move": error.move, "reason": error.reason},
        field="moves",
    )


def record_result(
    game: Game,
    seats: int,
    ruleset_: Any,
    result: Any,
    moves: Sequence[str],
    *,
    finished: bool | None,
    round_: Round,
    setup: Mapping[str, Any],
) -> _Result:
    """What a legal record's replay ``result`` stores: its pieces out (and colours) by
    seat position, and its status: finished, unfinished (said so, or its round is
    closed), else in progress."""
    order = game.moving_order(seats)
    positions = game.positions(seats)
    out = [0] * seats
    colours: dict[str, list[str]] = {}
    sheet = ruleset_.sheet_values(result.out)
    out_colours = getattr(result, "out_colours", None)  # Pentagame's colour letters
    for engine_seat, position in enumerate(order):
        out[positions.index(position)] = sheet[engine_seat]
        if out_colours is not None:
            colours[str(position)] = list(out_colours[engine_seat])
    if result.finished:
        status = Game.Status.FINISHED
    elif finished is False or round_.status == Round.Status.CLOSED:
        # Said to have ended unfinished (the turn ended), or its round is over.
        status = Game.Status.UNFINISHED
    else:
        status = Game.Status.IN_PROGRESS
    normalised = [str(m) for m in moves]
    return _Result(status=status, out=out, moves=normalised, colours_out=colours, setup=dict(setup))


def game_import_events(
    *,
    game: Game,
    events: Any,
    version: int | None = None,
    by: Actor,
    queued_at: datetime | None = None,
    correction: bool = False,
) -> Game:
    """Import a game from the online client's JSON event list (Pentagame only)."""
    import_events = game.table.round.tournament.ruleset.import_events
    if import_events is None:
        raise ServiceError(_("only Pentagame games can be imported from the online client"))
    if isinstance(events, str):
        # Typed into a form: read with the API's limits (depth, lone surrogates).
        try:
            events = jsonbody.loads(events)
        except ValueError as exc:
            raise ServiceError(
                _("the event list cannot be imported: %(exc)s") % {"exc": exc}, field="events"
            ) from None
    try:
        imported = import_events(events)
    except ValueError as exc:
        raise ServiceError(
            _("the event list cannot be imported: %(exc)s") % {"exc": exc}, field="events"
        ) from None
    if imported.record["players"] != _seats(game):
        raise ServiceError(
            _("the imported game has %(players)s players, this table %(seats)s")
            % {"players": imported.record["players"], "seats": _seats(game)},
            field="events",
        )
    return game_record_moves(
        game=game,
        moves=imported.record["moves"],
        version=version,
        by=by,
        queued_at=queued_at,
        correction=correction,
    )
