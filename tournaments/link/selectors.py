"""Reads of the link between a venue and the club's site (docs/venue.md)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils import timezone

from tournaments.models import Club, EventPush, SiteLink, Tournament, VenueEvent, VenueToken


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
    pushes = EventPush.objects.filter(link=link, handed_over_at=None)
    waiting = sum(pushes.values_list("waiting_rounds", flat=True))
    return {
        "link": link,
        "site_url": link.site_url,
        "last_ok_at": link.last_ok_at,
        "failing_since": link.last_error_at if link.failures else None,
        "last_error": link.last_error if link.failures else "",
        "waiting": waiting,
        "now": timezone.now(),
    }


def event_link(*, tournament: Tournament) -> dict[str, Any]:
    """The event's side of the link, for its page and the run page's line: on the
    club's site whether it is run at a venue (and from which token, when last pushed,
    whether taken over); on the venue whether it is published, what is waiting and the
    link's state. A few small queries, whatever the event's size."""
    event = VenueEvent.objects.select_related("token").filter(tournament=tournament).first()
    push = EventPush.objects.filter(tournament=tournament).first()
    link = link_state(club=tournament.club)
    if link is not None:
        # The event's own rounds waiting, not those of the club's other events.
        link["waiting"] = push.waiting_rounds if push and push.handed_over_at is None else 0
    return {
        "venue_event": event,
        "push": push,
        "link": link,
        "now": timezone.now(),
    }
