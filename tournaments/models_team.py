"""2 vs 2 team events (section 21: "the '2 vs. 2' setup, which some consider the most
noble form to play Pentagame").

A team is two entries of the same tournament. The entries stay the players' own (seats,
report links, per-player standings and ratings work as for everyone); the team is what
the Swiss pairing ranks and pairs, and what the team standings list.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# Section 3: "The team that has a total of 5 pieces out first wins."
TEAM_TARGET = 5
# A player of a team has her own set of five pieces (section 3), so her sheet allows 5.
TEAM_SHEET_TARGET = 5
# Seat indexes (0-based, seat order of the table) of the two teams: the engine's team
# variant seats 1+3 against 2+4, partners sitting opposite (section 19, Figure 21).
TABLE_TEAMS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
# Team tables are the only tables of a team event, so nothing needs weighing against
# another table size: a round score is the match's dropped scores, times 1.
TEAM_FACTOR = 1.0


class Team(models.Model):
    """Two players of a 2 vs 2 team event, partners for the whole event."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("name"), max_length=120)
    seed = models.PositiveIntegerField(help_text=_("1 = strongest; orders the first round."))
    first = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="team_as_first"
    )
    second = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="team_as_second"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name"),
            models.UniqueConstraint(fields=["tournament", "seed"], name="team_unique_seed"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="team_of_two"),
        ]

    def __str__(self) -> str:
        return self.name
