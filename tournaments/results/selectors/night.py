"""A round's night as the organiser sees it (docs/results.md, "Players manage their own
night"): who said she is leaving, skipping or late, who was seen, and which seats are
no-shows offered as forfeits. Five queries however many tables the round has; every
time is the server's."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Max
from django.utils import timezone

from tournaments.models import (
    Game,
    Ply,
    ResultSubmission,
    Round,
    Seat,
    SeatNotice,
    Tournament,
)


@dataclass
class SeatNight:
    """One seat's night: its open notices by kind, and whether she was seen."""

    seat: Seat
    notices: dict[str, SeatNotice] = field(default_factory=dict)
    seen: bool = False
    no_show: bool = False

    @property
    def late(self) -> SeatNotice | None:
        """Announced late and not seen since: the flag is cleared by being seen."""
        return None if self.seen else self.notices.get(SeatNotice.Kind.LATE)

    @property
    def name(self) -> str:
        return self.seat.entry.player.name

    @property
    def table(self) -> int:
        return self.seat.table.number


@dataclass
class RoundNight:
    round: Round
    seats: list[SeatNight]
    deadline: datetime | None

    @property
    def late(self) -> list[SeatNight]:
        return [s for s in self.seats if s.late is not None]

    @property
    def no_shows(self) -> list[SeatNight]:
        return [s for s in self.seats if s.no_show]

    @property
    def announced(self) -> list[tuple[SeatNight, SeatNotice]]:
        """The players' own announcements the organiser may undo (leaving, skip)."""
        kinds = (SeatNotice.Kind.LEAVING, SeatNotice.Kind.SKIP)
        return [(s, s.notices[k]) for s in self.seats for k in kinds if k in s.notices]

    def at_table(self, number: int) -> list[SeatNight]:
        return [s for s in self.seats if s.table == number]

    def __bool__(self) -> bool:
        return bool(self.late or self.no_shows or self.announced)


def no_show_deadline(tournament: Tournament, round_: Round) -> datetime | None:
    """When a seat not yet seen becomes a no-show: the event's minutes after the round's
    publication (its start), by the server's clock; None when the event sets none."""
    if tournament.no_show_minutes is None or round_.published_at is None:
        return None
    return round_.published_at + timedelta(minutes=tournament.no_show_minutes)


def night_state(round_: Round, now: datetime | None = None) -> tuple[object, ...]:
    """What a polled page's ETag needs of the round's night, in one query: the newest
    notice and the newest undoing (a player's choice, a check, a forfeit, an undo), and
    whether the no-show time has passed (by the server's clock). Being seen by a ply or
    a report changes a game, which the round's own state covers."""
    newest = SeatNotice.objects.filter(seat__round=round_).aggregate(
        id=Max("id"), cleared=Max("cleared_at")
    )
    cleared = newest["cleared"]
    deadline = no_show_deadline(round_.tournament, round_)
    passed = deadline is not None and (now or timezone.now()) >= deadline
    return (newest["id"], cleared.timestamp() if cleared else None, passed)


def round_night(*, round_: Round, now: datetime | None = None) -> RoundNight:
    """Every seat of ``round_`` with its open notices, whether it was seen (a ply it sent
    or a director recorded at its table, a report of its own, the organiser's check),
    and whether it is a no-show now: the event's minutes have passed since the round's
    start, the round is open, the seat is not seen and not announced late, its table has
    no result yet, and another seat at its table was seen (a table where nobody was
    seen may be playing on paper: nothing is offered there)."""
    now = now or timezone.now()
    tournament = round_.tournament
    seats = list(
        Seat.objects.filter(round=round_, table__is_bye=False)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )
    ids = [s.pk for s in seats]
    notices = SeatNotice.objects.filter(seat_id__in=ids, cleared_at__isnull=True)
    reported = set(
        ResultSubmission.objects.filter(by_seat_id__in=ids).values_list("by_seat_id", flat=True)
    )
    # A ply sent by a seat's link, or by a director at the table (who sees it whole); a
    # ply the egg timer recorded for a seat that did not move says nothing of presence.
    plies = set(
        Ply.objects.filter(game__table__round=round_, timed_out=False)
        .values_list("game__table_id", "by_position")
        .distinct()
    )
    # A table with a game played or under way (a result, a record in progress).
    with_result = set(
        Game.objects.filter(table__round=round_)
        .exclude(status=Game.Status.PENDING)
        .values_list("table_id", flat=True)
    )
    nights = {s.pk: SeatNight(seat=s) for s in seats}
    for notice in notices:
        nights[notice.seat_id].notices[notice.kind] = notice
    for night in nights.values():
        seat = night.seat
        night.seen = (
            seat.pk in reported
            or SeatNotice.Kind.SEEN in night.notices
            or (seat.table_id, seat.position) in plies
            or (seat.table_id, None) in plies
        )
    deadline = no_show_deadline(tournament, round_)
    if deadline is not None and round_.status == Round.Status.PUBLISHED and now >= deadline:
        for night in nights.values():
            seat = night.seat
            night.no_show = (
                not night.seen
                and SeatNotice.Kind.LATE not in night.notices
                and SeatNotice.Kind.FORFEIT not in night.notices
                and seat.table_id not in with_result
                and any(o.seen for o in nights.values() if o.seat.table_id == seat.table_id)
            )
    return RoundNight(round=round_, seats=list(nights.values()), deadline=deadline)
