"""Game records: per-seat pieces out, and optionally the move record that the rules
engine replayed to derive them."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

MAX_SEATS = 4


def out_fields(seats: int) -> list[str]:
    """The pieces-out fields of seats 1..``seats``, in seat order."""
    return [f"out_{i}" for i in range(1, seats + 1)]


@lru_cache(maxsize=256)
def moving_order(first_position: int, direction: str, seats: int) -> tuple[int, ...]:
    """Seat positions in the order they move in a game (engine seat k = order[k-1]):
    from the first player round the table, clockwise or widdershins (section 21: three
    players play "clockwise, and widdershins")."""
    ring = list(range(1, seats + 1))
    start = ring.index(first_position)
    ring = ring[start:] + ring[:start]
    if direction == "widdershins":
        ring = [ring[0], *reversed(ring[1:])]
    return tuple(ring)


class Game(models.Model):
    """One game of a table's match (section 21: "some n people playing once").

    Pieces out are stored per seat position in `out_1..out_4` (not a JSON list) so the
    database itself can refuse values outside 0..target.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("not played yet")
        FINISHED = "finished", _("finished")
        UNFINISHED = "unfinished", _("unfinished (the turn ended)")
        # A move record saved before the game ended: a state, not a result (it counts
        # nowhere and keeps the round open; docs/results.md, "A game in progress").
        IN_PROGRESS = "in_progress", _("in progress")

    # The states that are no result: nothing counts, the round cannot close on them.
    WITHOUT_RESULT = (Status.PENDING, Status.IN_PROGRESS)

    class Direction(models.TextChoices):
        CLOCKWISE = "clockwise", _("clockwise")
        WIDDERSHINS = "widdershins", _("widdershins")

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    # Which seat position moves first, and the direction play goes round the table
    # (section 21: three players play "clockwise, and widdershins").
    first_position = models.PositiveSmallIntegerField(default=1)
    direction = models.CharField(
        max_length=12, choices=Direction.choices, default=Direction.CLOCKWISE
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    target = models.PositiveSmallIntegerField(default=3)
    out_1 = models.PositiveSmallIntegerField(null=True, blank=True)
    out_2 = models.PositiveSmallIntegerField(null=True, blank=True)
    out_3 = models.PositiveSmallIntegerField(null=True, blank=True)
    out_4 = models.PositiveSmallIntegerField(null=True, blank=True)
    # Colours that went out, per seat position in order, e.g. {"1": ["r", "w"]}.
    colours_out = models.JSONField(default=dict, blank=True)
    # The record in the book's notation, in playing order; empty when only pieces out
    # were entered.
    moves = models.JSONField(default=list, blank=True)
    # The record's setup beside players and moves, for games that have one (e.g.
    # Pantarei's random row of scales).
    setup = models.JSONField(default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    # The current result, derived from the game's submissions (tournaments'
    # ResultSubmission, services/results.py): a player's report counts only once another
    # seat's player confirmed it; a director's entry at once.
    confirmed = models.BooleanField(default=True)
    reported_by_position = models.PositiveSmallIntegerField(null=True, blank=True)
    # Optimistic concurrency: a write names the version it saw; a stale one is refused.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        # The table keeps the name it had in the games app: moving the model moved no row.
        db_table = "games_game"
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_unique_number"),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"out_{i}__isnull": True}) | Q(**{f"out_{i}__lte": F("target")}),
                    name=f"game_out_{i}_within_target",
                )
                for i in range(1, MAX_SEATS + 1)
            ],
            models.CheckConstraint(
                condition=Q(status="pending") | Q(out_1__isnull=False, out_2__isnull=False),
                name="game_result_has_pieces_out",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.table}"

    @property
    def counts(self) -> bool:
        """Whether the result enters standings and ratings."""
        return self.status not in self.WITHOUT_RESULT and self.confirmed

    def moving_order(self, seats: int) -> tuple[int, ...]:
        return moving_order(self.first_position, self.direction, seats)

    def out_list(self, seats: int) -> list[int | None]:
        return [getattr(self, name) for name in out_fields(seats)]


class Ply(models.Model):
    """One ply of a game recorded live, as it was made at the table (services/plies.py).

    The game's record (`Game.moves`) stays the one record; these rows say who sent each
    of its plies and when (for undo and the egg timer), and hold the sender's key so
    that a ply sent twice (a retry) is stored once. Rows beyond the record are stale and
    removed by the next ply."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="plies")
    number = models.PositiveIntegerField()
    move = models.CharField(max_length=64)
    key = models.CharField(max_length=64)
    # The seat position whose link sent it; empty for a director.
    by_position = models.PositiveSmallIntegerField(null=True, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()
    # Recorded by the egg timer: the seat did not move in time and lost her turn.
    timed_out = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="ply_unique_number"),
            models.UniqueConstraint(fields=["game", "key"], name="ply_unique_key"),
        ]

    def __str__(self) -> str:
        return f"ply {self.number} of {self.game}: {self.move}"


class PlyConflict(models.Model):
    """A ply refused because another device had recorded a different one for the same
    ply number: never merged silently; the organiser sees the table flagged until she
    clears it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ply_conflicts")
    number = models.PositiveIntegerField()
    move = models.CharField(max_length=64)
    by_position = models.PositiveSmallIntegerField(null=True, blank=True)
    # What the record holds at that ply, and who recorded it (empty: a director or a
    # whole record saved at once).
    recorded = models.CharField(max_length=64)
    recorded_by_position = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "at"]

    def __str__(self) -> str:
        return f"conflict at ply {self.number} of {self.game}"
