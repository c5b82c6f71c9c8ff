from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import AuditEntry, Tournament


def audit_record(
    *,
    tournament: Tournament,
    by: AbstractBaseUser | AnonymousUser | None,
    action: str,
    target: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    user = by if isinstance(by, AbstractBaseUser) else None
    return AuditEntry.objects.create(
        tournament=tournament, user=user, action=action, target=target, before=before, after=after
    )
