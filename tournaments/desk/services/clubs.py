"""Clubs and their players: create, change, rename, delete."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor, require_actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed_for_players
from tournaments.core.permissions import can_organise
from tournaments.models import Club, Player

CLUB_FIELDS = ("name", "slug", "city", "rating_system")
PLAYER_FIELDS = ("name", "club", "user")


def _staff(by: Actor) -> bool:
    user = by.permission_user
    return bool(user.is_authenticated and getattr(user, "is_staff", False))


def _organiser(by: Actor, club: Club | None) -> bool:
    return club is not None and can_organise(by.permission_user, club)


def club_create(*, name: str, slug: str, by: Actor, **fields: Any) -> Club:
    """Only staff open a new club (its organisers are named in the admin)."""
    require_actor(by)
    if not _staff(by):
        raise PermissionDenied("only staff create clubs")
    unknown = set(fields) - set(CLUB_FIELDS)
    if unknown:
        field = sorted(unknown)[0]
        raise ServiceError(_("%(field)s cannot be set here") % {"field": field}, field=field)
    with transaction.atomic():
        return Club.objects.create(name=name, slug=slug, **fields)


def club_update(*, club: Club, by: Actor, **changes: Any) -> Club:
    require_actor(by)
    if not _organiser(by, club):
        raise PermissionDenied("only this club's organisers may change it")
    unknown = set(changes) - set(CLUB_FIELDS)
    if unknown:
        field = sorted(unknown)[0]
        raise ServiceError(_("%(field)s cannot be changed here") % {"field": field}, field=field)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        for field, value in changes.items():
            setattr(locked, field, value)
        locked.save()
    return locked


def club_organisers_set(*, club: Club, organisers: Iterable[AbstractBaseUser], by: Actor) -> Club:
    """Who organises the club (creates its tournaments, adds its players): staff name
    them."""
    require_actor(by)
    if not _staff(by):
        raise PermissionDenied("only staff name a club's organisers")
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        locked.organisers.set(organisers)
    return locked


def club_delete(*, club: Club, by: Actor) -> None:
    """Refused (ProtectedError, a 409) while tournaments still belong to the club."""
    require_actor(by)
    if not _organiser(by, club):
        raise PermissionDenied("only this club's organisers may delete it")
    with transaction.atomic():
        club.delete()


def player_create(*, name: str, club: Club | None, by: Actor) -> Player:
    """Staff add anyone; a club's organisers add players to their club."""
    require_actor(by)
    if not (_staff(by) or _organiser(by, club)):
        raise PermissionDenied("only club organisers add players to their club")
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("a player needs a name"), field="name")
    with transaction.atomic():
        if Player.objects.filter(club=club, name=name).exists():
            raise ConflictError(
                _("%(name)s is a player of this club already") % {"name": name}, field="name"
            )
        return Player.objects.create(name=name, club=club)


def player_rename(*, player: Player, name: str, by: Actor) -> Player:
    """A new name, shown at once in every standings the player appears in."""
    require_actor(by)
    if not (_staff(by) or _organiser(by, player.club)):
        raise PermissionDenied("only the player's club organisers may rename them")
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("a player needs a name"), field="name")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.name == name:
            return locked
        clash = Player.objects.filter(club=locked.club, name=name).exclude(pk=locked.pk)
        if clash.exists():
            raise ConflictError(
                _("%(name)s is a player of this club already") % {"name": name}, field="name"
            )
        locked.name = name
        locked.save(update_fields=["name"])
        standings_changed_for_players(players=[locked])
    return locked


def player_update(*, player: Player, by: Actor, **changes: Any) -> Player:
    """Change a player's name, club or account. The name goes through
    ``player_rename``; moving a player also needs the new club's organisers, and only
    staff link a player to an account."""
    require_actor(by)
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        field = sorted(unknown)[0]
        raise ServiceError(_("%(field)s cannot be changed here") % {"field": field}, field=field)
    if not (_staff(by) or _organiser(by, player.club)):
        raise PermissionDenied("only the player's club organisers may change them")
    with transaction.atomic():
        if "name" in changes:
            player = player_rename(player=player, name=changes["name"], by=by)
        locked = Player.objects.select_for_update().get(pk=player.pk)
        fields = [f for f in ("club", "user") if f in changes and getattr(locked, f) != changes[f]]
        if "club" in fields:
            club = changes["club"]
            if not (_staff(by) or _organiser(by, club)):
                raise PermissionDenied("only the new club's organisers may take a player in")
            if Player.objects.filter(club=club, name=locked.name).exclude(pk=locked.pk).exists():
                raise ConflictError(
                    _("%(name)s is a player of that club already") % {"name": locked.name},
                    field="club",
                )
        if "user" in fields:
            user = changes["user"]
            if not _staff(by):
                raise PermissionDenied("only staff link a player to an account")
            if user is not None and Player.objects.filter(user=user).exclude(pk=locked.pk).exists():
                raise ConflictError(_("this account belongs to another player"), field="user")
        for field in fields:
            setattr(locked, field, changes[field])
        if fields:
            locked.save(update_fields=fields)
    return locked


def player_delete(*, player: Player, by: Actor) -> None:
    """Only before the player's first round: afterwards their games are history."""
    require_actor(by)
    if not (_staff(by) or _organiser(by, player.club)):
        raise PermissionDenied("only the player's club organisers may delete them")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.entries.filter(seats__isnull=False).exists():
            raise ConflictError(
                _("%(name)s has played; their games stay in the history") % {"name": locked.name},
                field="player",
            )
        standings_changed_for_players(players=[locked])
        locked.entries.all().delete()
        locked.delete()
