"""The tournament pages show ratings through this tag library: the template loads it,
so the tournaments' Python never imports the ratings (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

from ratings.selectors import win_chances
from tournaments.results.selectors.rounds import TableRow

register = template.Library()


@register.simple_tag
def attach_win_chances(tables: Sequence[TableRow], game: str) -> str:
    """Before a round is played, give each seat its chance to finish first; the tables'
    own template (_tables.html) shows it. Writes nothing into the page itself."""
    playing = [t for t in tables if not t.is_bye]
    chances = win_chances(tables=[[s.player_id for s in t.seats] for t in playing], game=game)
    for table, seat_chances in zip(playing, chances, strict=True):
        for seat, chance in zip(table.seats, seat_chances, strict=True):
            seat.chance = chance
    return ""
