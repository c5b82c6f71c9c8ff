"""Each event's standings show every player's rating change from it once it is rated
(issue 26): through this tag library, so the tournaments' Python never imports the
ratings (docs/architecture.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from ratings.selectors import event_rating_changes
from tournaments.models import Entry

register = template.Library()


@dataclass(frozen=True)
class RatedLine:
    row: Any
    change: float | None


@dataclass(frozen=True)
class RatedStandings:
    lines: list[RatedLine]
    rated: bool  # any player's change is known: the column is shown


@register.simple_tag
def with_rating_changes(rows: Any, tournament: Any) -> RatedStandings:
    """The standings' rows, each with its player's rating change over the event in the
    club's rating system (None where not rated). Two queries."""
    rows = list(rows)
    if tournament is None or not rows:
        return RatedStandings([RatedLine(row, None) for row in rows], False)
    changes = event_rating_changes(
        tournament_id=tournament.pk,
        system=tournament.club.rating_system,
        game=tournament.game,
    )
    if not changes:
        return RatedStandings([RatedLine(row, None) for row in rows], False)
    players = dict(Entry.objects.filter(tournament_id=tournament.pk).values_list("pk", "player_id"))
    lines = []
    for row in rows:
        change = changes.get(players.get(row.entry_id, -1))
        lines.append(RatedLine(row, None if change is None else change[1] - change[0]))
    return RatedStandings(lines, True)
