"""The link between a venue and the club's site (docs/venue.md): an event run on the
organiser's laptop at the venue is pushed to the club's site whenever a link exists.

On the club's site: a ``VenueToken`` lets one venue push one club's events; a
``VenueEvent`` marks an event as run at a venue (read-only on the site) and keeps what
the site has applied of it. On the venue: a ``SiteLink`` names the club's site and its
token; an ``EventPush`` keeps what the site acknowledged of an event, so the next push
sends only what changed since."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class VenueToken(models.Model):
    """A token an organiser created on the club's site for one club. Only its SHA-256
    digest is kept: the token is shown once, like a password."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="venue_tokens"
    )
    name = models.CharField(_("name"), max_length=80)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    # The token's first characters, to tell tokens apart in the list.
    prefix = models.CharField(max_length=16, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class VenueEvent(models.Model):
    """On the club's site: this event is run at a venue and pushed here. While
    ``taken_over_at`` is empty the site refuses edits to it; once an organiser takes it
    over here, the venue learns so on its next push and stops writing."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="venue_event"
    )
    token = models.ForeignKey(VenueToken, on_delete=models.PROTECT, related_name="events")
    # What the site holds of the event: the digest of its settings and entries
    # ("head") and of each round (by number), as the venue computed them.
    digests = models.JSONField(default=dict)
    pushes = models.PositiveIntegerField(default=0)
    pushed_at = models.DateTimeField(null=True, blank=True)
    taken_over_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} at a venue"


class SiteLink(models.Model):
    """On the venue: the club's site this venue pushes the club's events to."""

    club = models.OneToOneField(
        "tournaments.Club", on_delete=models.CASCADE, related_name="site_link"
    )
    site_url = models.URLField(_("the club's site"), max_length=300)
    token = models.CharField(_("token"), max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    # The server's clock only: when the site last answered, and the last failure.
    last_ok_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    last_error_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.site_url


class EventPush(models.Model):
    """On the venue: what the club's site acknowledged of one event."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="event_push"
    )
    link = models.ForeignKey(SiteLink, on_delete=models.CASCADE, related_name="pushes")
    acked = models.JSONField(default=dict)
    acked_at = models.DateTimeField(null=True, blank=True)
    # Set when the event changed after its last acknowledged push, with how many of its
    # rounds the site does not hold as they are here (the run page's "3 rounds waiting").
    waiting = models.BooleanField(default=True)
    waiting_rounds = models.PositiveIntegerField(default=0)
    # The site took the event over: this venue holds it read-only from now on.
    handed_over_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} to {self.link_id}"
