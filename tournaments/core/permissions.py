"""Who may run a tournament: its directors, its club's organisers, and staff."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Club, Tournament


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
