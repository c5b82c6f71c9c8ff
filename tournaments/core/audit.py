from __future__ import annotations

from typing import Any

from tournaments.core.actor import Actor, require_actor
from tournaments.models import AuditEntry, Tournament


def audit_record(
    *,
    tournament: Tournament,
    by: Actor,
    action: str,
    target: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """One line of a tournament's audit log, naming the actor's user (none for a
    command or a player's link) and the actor as text."""
    actor = require_actor(by)
    return AuditEntry.objects.create(
        tournament=tournament,
        user=actor.audit_user,
        actor=actor.label,
        action=action,
        target=target,
        before=before,
        after=after,
    )
