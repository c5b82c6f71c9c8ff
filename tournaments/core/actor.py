"""Who writes: every service that changes data takes a keyword-only ``by: Actor``, with
no default, so no write is ever anonymous by accident ("None means director" is gone).

- ``Actor.director(user)``: a signed-in user; the view, API view or admin has checked
  what they may do (the club and tournament services check it again themselves).
- ``Actor.command()``: a director's own command or script (demo data, management
  commands, tests): trusted like a director where no permission is checked, recorded
  without a user, and refused by the services that check a user's permission.
- ``Actor.player(seat)``: the player in one seat, through that seat's own private link
  (results only).

Audit entries and rating jobs record ``actor.audit_user``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.core.errors import ServiceError

if TYPE_CHECKING:
    from tournaments.models import Seat


@dataclass(frozen=True)
class Actor:
    kind: Literal["director", "player"]
    user: AbstractBaseUser | None = None
    seat: Seat | None = None

    @classmethod
    def director(cls, user: Any) -> Actor:
        """A signed-in director; the caller has checked that they may direct."""
        if not isinstance(user, AbstractBaseUser) or not user.is_authenticated:
            raise ServiceError(_("only a signed-in director can enter results"))
        return cls("director", user=user)

    @classmethod
    def command(cls) -> Actor:
        """A director's own command or script (demo data, imports, tests): final like a
        director's entry, recorded without a user."""
        return cls("director")

    @classmethod
    def player(cls, seat: Seat) -> Actor:
        return cls("player", seat=seat)

    @property
    def is_player(self) -> bool:
        return self.kind == "player"

    @property
    def audit_user(self) -> AbstractBaseUser | None:
        return self.user

    @property
    def label(self) -> str:
        """The actor as the audit log names it."""
        if self.seat is not None:
            return f"seat {self.seat.position} ({self.seat.entry.player.name})"[:150]
        if self.user is not None:
            return self.user.get_username()[:150]
        return "command"

    @property
    def permission_user(self) -> AbstractBaseUser | AnonymousUser:
        """The user whose permissions are checked; a command or a player has none."""
        return self.user if self.user is not None else AnonymousUser()


def require_actor(by: object) -> Actor:
    """A plain user (or None) passed where an Actor belongs is a programming error."""
    if not isinstance(by, Actor):
        raise TypeError(f"by must be an Actor, not {type(by).__name__}")
    return by
