"""The standings' one freshness counter: `Tournament.standings_version`.

Every service that changes something the standings show (results, rounds, entries,
player names and ratings, settings) calls one of these inside its own transaction, so
the new version commits with the change and a poller never sees one without the other.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F, QuerySet

from tournaments import signals
from tournaments.models import Player, Tournament


def standings_changed(*, tournament: Tournament | int) -> None:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    Tournament.objects.filter(pk=pk).update(standings_version=F("standings_version") + 1)
    # The club's webhooks hear of it (tournaments/webhooks/receivers.py).
    signals.standings_version_changed.send(sender=Tournament, tournament_id=pk)


def standings_changed_for_events(*, tournaments: QuerySet[Tournament] | None) -> None:
    """Something every page of these events shows changed (their players' ratings once
    the events are rated); None: every event (a full recomputation). One query."""
    rows = Tournament.objects.all() if tournaments is None else tournaments
    rows.update(standings_version=F("standings_version") + 1)


def standings_changed_for_players(*, players: Iterable[Player | int]) -> None:
    """A player's name (or rating shown) changed: every tournament they entered."""
    ids = [p if isinstance(p, int) else p.pk for p in players]
    Tournament.objects.filter(entries__player_id__in=ids).update(
        standings_version=F("standings_version") + 1
    )
    signals.standings_version_changed.send(sender=Tournament, player_ids=ids)
