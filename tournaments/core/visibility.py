"""Who may see which tournaments: the one rule, for pages, the API and the permission
check of a single tournament (`tournaments.core.permissions.can_view`)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from tournaments.models import Club, Entry, Player, Season, Tournament


def tournaments_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """Published tournaments, and those the user runs: as a director, as an organiser of
    the club, or as staff (all). Subqueries, not joins, so no row comes twice."""
    if not user.is_authenticated:
        return Tournament.objects.filter(published=True)
    if getattr(user, "is_staff", False):
        return Tournament.objects.all()
    directed = Tournament.directors.through.objects.filter(user_id=user.pk).values("tournament_id")
    organised = Club.organisers.through.objects.filter(user_id=user.pk).values("club_id")
    return Tournament.objects.filter(
        Q(published=True) | Q(pk__in=directed) | Q(club_id__in=organised)
    )


def players_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Player]:
    """The players a user may see listed: those entered in a tournament visible to the
    user, and those in no tournament yet (the club's roster). Someone entered only in
    unpublished tournaments stays hidden from outsiders until one is published."""
    if getattr(user, "is_staff", False):
        return Player.objects.all()
    shown = Entry.objects.filter(tournament__in=tournaments_visible_to(user)).values("player_id")
    entered = Entry.objects.values("player_id")
    visible = Q(pk__in=shown) | ~Q(pk__in=entered)
    if user.is_authenticated:
        organised = Club.organisers.through.objects.filter(user_id=user.pk).values("club_id")
        visible |= Q(club_id__in=organised)
    return Player.objects.filter(visible)


def seed_sources(tournament: Tournament) -> list[Tournament]:
    """The club's other finished events (a finished one has final standings; a running
    one has none yet), the latest first: the choices of "seed by the final standings of"."""
    return list(
        Tournament.objects.filter(
            club_id=tournament.club_id,
            status=Tournament.Status.FINISHED,
            rounds__status="closed",
        )
        .exclude(pk=tournament.pk)
        .distinct()
        .order_by("-date", "-created_at", "-pk")
    )


def seed_seasons(tournament: Tournament) -> list[Season]:
    """The club's seasons, the latest first: the choices of "seed by the standings of
    the season …" (a season nobody is ranked in yet is refused when chosen)."""
    return list(Season.objects.filter(club_id=tournament.club_id).order_by("-starts_on", "-pk"))


def season_by_slugs(club_slug: str, season_slug: str) -> Season | None:
    """The season at a club's address, with its club: the clubs' and statistics pages."""
    return (
        Season.objects.select_related("club").filter(club__slug=club_slug, slug=season_slug).first()
    )


def clubs_run_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club]:
    """The clubs whose events this user may create or import: all for staff."""
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(organisers=user)
