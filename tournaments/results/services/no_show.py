"""A no-show's forfeit (docs/results.md, "No-shows"; docs/scoring.md, "Forfeits"): the
organiser's one key, or the event's automatic sweep. Its games are written through the
one result path (services/result_path.py) as a director's entry, never otherwise."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.models import Game, Round, Seat, SeatNotice, Tournament
from tournaments.results.selectors.night import round_night
from tournaments.results.services.result_path import ResultEntry, game_result_record


def forfeit_out(seats: int, absent: int, target: int) -> list[int]:
    """A forfeited game's pieces out in seat order: none for the absent seat, the
    target for each seat present. The book has no forfeit; its egg timer says "A player
    who does not move in time loses turn" (section 3), so a player who never comes loses
    every turn and brings nothing out while the others reach the target (docs/scoring.md,
    "Forfeits")."""
    return [0 if position == absent else target for position in range(1, seats + 1)]


def seat_forfeit(*, seat: Seat, by: Actor, now: datetime | None = None) -> SeatNotice | None:
    """Forfeit ``seat`` as a no-show: every game of its table still without a result
    gets the forfeit's pieces out, entered by ``by`` (a director, or the sweep's
    command) through the one result path. Refused unless the seat is a no-show now
    (by the server's clock: ``now`` is for the sweep and tests, never a client's).
    Once only: a seat forfeited already answers None and writes nothing."""
    actor = require_actor(by)
    if actor.is_player:
        raise ServiceError(_("only the organiser forfeits a no-show"), field="seat")
    with transaction.atomic():
        # The round's row is the lock: two sweeps, or a sweep and the organiser's key,
        # forfeit a seat once.
        round_ = (
            Round.objects.select_for_update().select_related("tournament").get(pk=seat.round_id)
        )
        if SeatNotice.objects.filter(
            seat=seat, kind=SeatNotice.Kind.FORFEIT, cleared_at__isnull=True
        ).exists():
            return None
        night = round_night(round_=round_, now=now)
        mine = next((n for n in night.seats if n.seat.pk == seat.pk), None)
        if mine is None or not mine.no_show:
            if round_.status != Round.Status.PUBLISHED:
                raise ConflictError(
                    _("round %(number)s is not open: nothing is forfeited")
                    % {"number": round_.number},
                    field="seat",
                )
            raise ConflictError(
                _("%(name)s is no no-show (seen, late, or her table has played)")
                % {"name": seat.entry.player.name},
                field="seat",
            )
        seats = len(night.at_table(seat.table.number))
        games = list(
            Game.objects.filter(table_id=seat.table_id, decider=False, voided=False)
            .filter(status=Game.Status.PENDING)
            .order_by("number")
        )
        target = round_.tournament.sheet_target
        for game in games:
            game_result_record(
                game=game,
                entry=ResultEntry(out=forfeit_out(seats, seat.position, target), finished=True),
                version=game.version,
                by=actor,
            )
        notice = SeatNotice.objects.create(
            seat=seat, kind=SeatNotice.Kind.FORFEIT, at=timezone.now()
        )
        audit_record(
            tournament=round_.tournament,
            by=actor,
            action="forfeit",
            target=seat.entry.player.name,
            after={
                "round": round_.number,
                "table": seat.table.number,
                "games": [g.number for g in games],
            },
        )
    return notice


def no_show_sweep(*, by: Actor, now: datetime | None = None) -> int:
    """Forfeit every no-show of the events that say so (`no_show_forfeit`), in their
    open rounds; run by Celery beat. Idempotent: a forfeited seat is no no-show any
    more. Returns how many seats were forfeited."""
    require_actor(by)
    now = now or timezone.now()
    rounds = Round.objects.filter(
        status=Round.Status.PUBLISHED,
        tournament__no_show_forfeit=True,
        tournament__no_show_minutes__isnull=False,
    ).exclude(tournament__status=Tournament.Status.FINISHED)
    done = 0
    for round_ in rounds.select_related("tournament"):
        for night in round_night(round_=round_, now=now).no_shows:
            try:
                if seat_forfeit(seat=night.seat, by=by, now=now) is not None:
                    done += 1
            except ServiceError:
                # Changed meanwhile (seen, a result came): no longer a no-show.
                continue
    return done
