"""Club evenings: whoever is checked in at the door is seated at tables of 2 or 3,
mixing people who have not met recently at similar strength; closing the evening rates
it as one period."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.core.permissions import lock_tournament
from tournaments.models import Entry, Round, Seat, Tournament
from tournaments.pairing import ClubPlayer, Meeting, Pairing, PairingError, club_tables

RECENT_DAYS = 60
DEFAULT_RATING = 1500


def evening_tables(
    *, tournament: Tournament, entries: list[Entry], starts: dict[int, int]
) -> Pairing:
    """Tables for the next round of an evening. Meetings tonight and at the club's
    evenings of the last RECENT_DAYS days count as recent (tonight's are the most recent)."""
    since = timezone.now() - timedelta(days=RECENT_DAYS)
    ids = {e.player_id: e.pk for e in entries}
    seats = (
        Seat.objects.filter(
            round__tournament__club=tournament.club,
            round__created_at__gte=since,
            table__is_bye=False,
            entry__player_id__in=ids,
        )
        .order_by("round__created_at", "table_id")
        .values_list("table_id", "entry__player_id", "round__created_at")
    )
    tables: dict[int, list[int]] = {}
    when: dict[int, float] = {}
    for table_id, player_id, created in seats:
        tables.setdefault(table_id, []).append(player_id)
        when[table_id] = created.timestamp()
    order = {table_id: i for i, table_id in enumerate(sorted(when, key=when.__getitem__))}
    recent = [
        Meeting(str(ids[a]), str(ids[b]), order[table_id] + 1)
        for table_id, players in tables.items()
        for i, a in enumerate(players)
        for b in players[i + 1 :]
    ]
    present = [
        ClubPlayer(
            id=str(e.pk), rating=float(e.rating or DEFAULT_RATING), starts=starts.get(e.pk, 0)
        )
        for e in entries
    ]
    try:
        return club_tables(
            present,
            recent=recent,
            policy=tournament.policy,  # type: ignore[arg-type]
            method=tournament.pairing_method,  # type: ignore[arg-type]
        )
    except PairingError as exc:
        raise ServiceError(_("no tables can be formed: %(exc)s") % {"exc": exc}) from None


def evening_close(*, tournament: Tournament, by: Actor) -> Tournament:
    """Close the evening (every round must be closed) and rate it as one period."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        if tournament.kind != Tournament.Kind.EVENING:
            raise ServiceError(_("only a club evening is closed as a whole"))
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        if tournament.rounds.exclude(status=Round.Status.CLOSED).exists():
            raise ConflictError(_("close the last round first"))
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        audit_record(tournament=tournament, by=by, action="close evening")
        standings_changed(tournament=tournament)
        signals.evening_closed.send(sender=Tournament, tournament_id=tournament.pk, by=by)
    return tournament


def evening_reopen(*, tournament: Tournament, by: Actor) -> Tournament:
    """Reopen a closed evening: players can be entered and checked in, rounds played,
    reopened or deleted again. Its rating is taken back until it is closed again (the
    ratings hear of it through tournaments/signals.py)."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        if tournament.kind != Tournament.Kind.EVENING:
            raise ServiceError(_("only a club evening is reopened as a whole"))
        if tournament.status != Tournament.Status.FINISHED:
            raise ConflictError(_("the evening is not closed"))
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        audit_record(tournament=tournament, by=by, action="reopen evening")
        standings_changed(tournament=tournament)
        signals.history_reopened.send(sender=Tournament, tournament_id=tournament.pk, by=by)
    return tournament
