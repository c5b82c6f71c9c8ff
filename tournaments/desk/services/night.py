"""Players manage their own night from their seat's link (docs/results.md, "Players
manage their own night"): leaving after this round, skipping the next one, late for
their table. Each is the seat's own, written with its actor (`Actor.player(seat)`),
audited, and undone by the organiser with one key; the withdrawal and the skip are the
desk's own services (services/entries.py), so they count as the organiser's do."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError
from tournaments.core.permissions import check_written_here
from tournaments.desk.services.entries import (
    entry_readmit,
    entry_skip,
    entry_unskip,
    entry_withdraw,
)
from tournaments.models import Round, Seat, SeatNotice, Tournament


def _own(seat: Seat, by: Actor) -> Actor:
    """A seat's link acts for that seat only; a director for any."""
    actor = require_actor(by)
    if actor.is_player and (actor.seat is None or actor.seat.pk != seat.pk):
        raise PermissionDenied(_("this link belongs to another seat"))
    return actor


def _open_round(seat: Seat) -> Round:
    """The seat's round, locked, as long as it is being played: published, not closed,
    and the event still running. Anything else is refused (409) and changes nothing."""
    # The tournament's row first, as the entry services lock it.
    Tournament.objects.select_for_update().filter(rounds__pk=seat.round_id).first()
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=seat.round_id)
    # One writer at a time (docs/venue.md): not on an event run at a venue, nor at a
    # venue whose event the club's site took over.
    check_written_here(round_.tournament_id)
    if round_.tournament.status == Tournament.Status.FINISHED:
        raise ConflictError(_("the event is over"), field="round")
    if round_.status == Round.Status.CLOSED:
        raise ConflictError(
            _("round %(number)s is closed") % {"number": round_.number}, field="round"
        )
    if round_.status != Round.Status.PUBLISHED:
        raise ConflictError(
            _("round %(number)s has not started") % {"number": round_.number}, field="round"
        )
    return round_


def _notice(seat: Seat, kind: str, **fields: object) -> tuple[SeatNotice, bool]:
    existing = SeatNotice.objects.filter(seat=seat, kind=kind, cleared_at__isnull=True).first()
    if existing is not None:
        return existing, False
    return SeatNotice.objects.create(seat=seat, kind=kind, at=timezone.now(), **fields), True


def seat_leave_after_round(*, seat: Seat, by: Actor) -> SeatNotice:
    """ "I'm leaving after this round": withdrawn from the next round on, this round
    played out; the organiser sees it on the desk and can re-admit with one key."""
    actor = _own(seat, by)
    with transaction.atomic():
        round_ = _open_round(seat)
        last = round_.tournament.rounds.aggregate(top=Max("number"))["top"]
        if last != round_.number:
            raise ConflictError(
                _("round %(number)s is paired already; ask the organiser")
                % {"number": round_.number + 1},
                field="round",
            )
        notice, created = _notice(seat, SeatNotice.Kind.LEAVING)
        if created:
            entry_withdraw(entry=seat.entry, by=actor)
    return notice


def seat_skip_next_round(*, seat: Seat, by: Actor) -> SeatNotice:
    """ "Skip the next round": not paired in it, scored as the event's absence (the
    desk's announced skip, `entry_skip`); refused once that round is paired."""
    actor = _own(seat, by)
    with transaction.atomic():
        round_ = _open_round(seat)
        notice, created = _notice(seat, SeatNotice.Kind.SKIP, round_number=round_.number + 1)
        if created:
            entry_skip(entry=seat.entry, round_number=round_.number + 1, by=actor)
    return notice


def seat_late(*, seat: Seat, by: Actor) -> SeatNotice:
    """ "I'm late, table N please wait": a flag with the server's time on the desk and
    the results screen, until she is seen at her table; a late seat is no no-show."""
    actor = _own(seat, by)
    with transaction.atomic():
        round_ = _open_round(seat)
        notice, created = _notice(seat, SeatNotice.Kind.LATE)
        if created:
            audit_record(
                tournament=round_.tournament,
                by=actor,
                action="late",
                target=seat.entry.player.name,
                after={"round": round_.number, "table": seat.table.number},
            )
    return notice


def seat_seen(*, seat: Seat, by: Actor) -> SeatNotice:
    """The organiser's check: the player is at her table (a late flag is cleared, and
    the seat is no no-show)."""
    actor = require_actor(by)
    if actor.is_player:
        raise PermissionDenied(_("only the organiser checks a seat"))
    with transaction.atomic():
        round_ = _open_round(seat)
        notice, created = _notice(seat, SeatNotice.Kind.SEEN)
        if created:
            SeatNotice.objects.filter(
                seat=seat, kind=SeatNotice.Kind.LATE, cleared_at__isnull=True
            ).update(cleared_at=notice.at, cleared_by=actor.label)
            audit_record(
                tournament=round_.tournament,
                by=actor,
                action="seen",
                target=seat.entry.player.name,
                after={"round": round_.number, "table": seat.table.number},
            )
    return notice


UNDOABLE = (SeatNotice.Kind.LEAVING, SeatNotice.Kind.SKIP, SeatNotice.Kind.LATE)


def notice_undo(*, notice: SeatNotice, by: Actor) -> SeatNotice:
    """The organiser's one key: a player leaving is re-admitted, a skip taken back
    (refused once that round is paired), a late flag cleared. Audited as each of those
    services audits, and as "undo" with the notice."""
    actor = require_actor(by)
    if actor.is_player:
        raise PermissionDenied(_("only the organiser undoes a player's notice"))
    with transaction.atomic():
        locked = (
            SeatNotice.objects.select_for_update(of=("self",))
            .select_related("seat__entry__player", "seat__round__tournament")
            .filter(pk=notice.pk)
            .first()
        )
        if locked is None or locked.cleared_at is not None:
            raise ConflictError(_("this was undone already; reload"), field="notice")
        if locked.kind not in UNDOABLE:
            raise ConflictError(_("this cannot be undone here"), field="notice")
        entry = locked.seat.entry
        if locked.kind == SeatNotice.Kind.LEAVING:
            entry_readmit(entry=entry, by=actor)
        elif locked.kind == SeatNotice.Kind.SKIP and locked.round_number is not None:
            entry_unskip(entry=entry, round_number=locked.round_number, by=actor)
        locked.cleared_at = timezone.now()
        locked.cleared_by = actor.label
        locked.save(update_fields=["cleared_at", "cleared_by"])
        audit_record(
            tournament=locked.seat.round.tournament,
            by=actor,
            action="undo",
            target=entry.player.name,
            before={"notice": locked.kind, "at": locked.at.isoformat()},
        )
    return locked
