"""Who may run a tournament: its directors, its club's organisers, and staff."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from tournaments.core.errors import ConflictError
from tournaments.models import Club, EventPush, Round, Tournament, VenueEvent

# Set while a venue's push is applied (tournaments/link): the one writer of an event run
# at a venue, which replays the venue's results through the same services.
_applying_push: ContextVar[bool] = ContextVar("applying_push", default=False)


def can_direct(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    if tournament.directors.filter(pk=user.pk).exists():
        return True
    return tournament.club.organisers.filter(pk=user.pk).exists()


def can_organise(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    return bool(getattr(user, "is_staff", False)) or club.organisers.filter(pk=user.pk).exists()


def can_view(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> bool:
    """`tournaments_visible_to(user)` for one tournament already loaded: the same rule
    (published, or run by the user), without a query when it is published."""
    return tournament.published or can_direct(user, tournament)


@contextmanager
def venue_push_applying() -> Iterator[None]:
    token = _applying_push.set(True)
    try:
        yield
    finally:
        _applying_push.reset(token)


def written_elsewhere_q(tournament_ref: str) -> dict[str, Exists]:
    """Annotations saying whether the tournament at `tournament_ref` (an OuterRef path)
    is written elsewhere: run at a venue and pushed here, or taken over on the club's
    site (this being the venue). In the same statement as the row a write locks."""
    return {
        "run_at_venue": Exists(
            VenueEvent.objects.filter(tournament_id=OuterRef(tournament_ref), taken_over_at=None)
        ),
        "taken_over_on_site": Exists(
            EventPush.objects.filter(
                Q(tournament_id=OuterRef(tournament_ref)) & ~Q(handed_over_at=None)
            )
        ),
    }


def refuse_if_written_elsewhere(*, run_at_venue: bool, taken_over_on_site: bool) -> None:
    """One writer at a time (docs/venue.md): an event run at a venue is read-only on the
    club's site until taken over there; one taken over is read-only at the venue."""
    if _applying_push.get():
        return
    if run_at_venue:
        raise ConflictError(
            _("this event is run at a venue and published here; take it over here to change it"),
            field="tournament",
        )
    if taken_over_on_site:
        raise ConflictError(
            _("this event was taken over on the club's site; it is read-only here"),
            field="tournament",
        )


def lock_tournament(*, pk: int) -> Tournament:
    """The tournament's row locked for a write, as the desk's services take it, refused
    (409) when the event is written elsewhere (docs/venue.md): in the same statement."""
    locked = Tournament.objects.select_for_update().annotate(**written_elsewhere_q("pk")).get(pk=pk)
    refuse_if_written_elsewhere(
        run_at_venue=locked.run_at_venue, taken_over_on_site=locked.taken_over_on_site
    )
    return locked


def lock_round(*, pk: int) -> Round:
    """The round's row locked for a write, refused as `lock_tournament` refuses."""
    locked = (
        Round.objects.select_for_update()
        .annotate(**written_elsewhere_q("tournament_id"))
        .get(pk=pk)
    )
    refuse_if_written_elsewhere(
        run_at_venue=locked.run_at_venue, taken_over_on_site=locked.taken_over_on_site
    )
    return locked


def written_elsewhere(tournament: Tournament | int) -> str | None:
    """ "venue" when the event is run at a venue and pushed here, "site" when (this being
    the venue) it was taken over on the club's site, else None. Two small queries."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    if VenueEvent.objects.filter(tournament_id=pk, taken_over_at=None).exists():
        return "venue"
    if EventPush.objects.filter(tournament_id=pk).exclude(handed_over_at=None).exists():
        return "site"
    return None


def check_written_here(tournament: Tournament | int) -> None:
    """The same refusal for a door that has the tournament."""
    where = written_elsewhere(tournament)
    refuse_if_written_elsewhere(run_at_venue=where == "venue", taken_over_on_site=where == "site")
