"""Reads of the link between a venue and the club's site (docs/venue.md)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils import timezone

from tournaments.models import Club, EventPush, SiteLink, VenueToken


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def venue_token_for(secret: str) -> VenueToken | None:
    """The live token a push names, with its club; one query."""
    if not secret or len(secret) > 100:
        return None
    return (
        VenueToken.objects.select_related("club")
        .filter(digest=token_digest(secret), revoked_at=None)
        .first()
    )


def club_venue_tokens(*, club: Club) -> list[VenueToken]:
    return list(VenueToken.objects.filter(club=club).order_by("-created_at", "-pk")[:50])


def link_state(*, club: Club) -> dict[str, Any] | None:
    """The venue's link as the run page shows it: when the site last answered, since
    when it has not, how many of the club's events wait for a push."""
    link = SiteLink.objects.filter(club=club).first()
    if link is None:
        return None
    waiting = EventPush.objects.filter(link=link, waiting=True, handed_over_at=None).count()
    return {
        "link": link,
        "site_url": link.site_url,
        "last_ok_at": link.last_ok_at,
        "failing_since": link.last_error_at if link.failures else None,
        "last_error": link.last_error if link.failures else "",
        "waiting": waiting,
        "now": timezone.now(),
    }
