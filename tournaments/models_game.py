"""Game records: per-seat pieces out, and optionally the move record that the rules
engine replayed to derive them."""

from __future__ import annotations

import operator
from datetime import timedelta
from functools import lru_cache, reduce

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
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


# The seat positions a decider can be played by: two of a 3-player table's three.
DECIDER_PAIRS = ((1, 2), (1, 3), (2, 3))


def _decider_pieces_out(*, isnull: bool, others: bool = False) -> Q:
    """Per possible pair of leaders: their pieces out (``others``: the other seats')
    null or not."""
    conditions = [
        Q(
            decider=True,
            leader_a=a,
            leader_b=b,
            **{
                f"out_{p}__isnull": isnull
                for p in range(1, MAX_SEATS + 1)
                if (p in (a, b)) != others
            },
        )
        for a, b in DECIDER_PAIRS
    ]
    return reduce(operator.or_, conditions)


def decider_order(first_position: int, leaders: tuple[int, int]) -> tuple[int, int]:
    """A decider's moving order: the leader who moves first, then the other."""
    a, b = leaders
    return (first_position, b if first_position == a else a)


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
    # The engine's position after `moves` (games/rulesets.py, `Ruleset.extend`), stored
    # by a ply recorded live so that the next ply is checked against it instead of
    # replaying the record; empty when not known (any other write of the record): the
    # next ply replays the record once. The engine reads it only when it is the
    # position after exactly this record's plies.
    position = models.JSONField(null=True, blank=True, default=None)
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
    # Sections 3 and 18: a 3-player match tied at the top adds a decider, a 2-player game
    # of the two leaders (services/deciders.py). `leader_a` < `leader_b` are their seat
    # positions; pieces out are stored at those two, the third seat's stays empty.
    decider = models.BooleanField(default=False)
    leader_a = models.PositiveSmallIntegerField(null=True, blank=True)
    leader_b = models.PositiveSmallIntegerField(null=True, blank=True)
    # A decider whose match is no longer tied at the top (a result was corrected, or the
    # option switched off): kept with its result and submissions as the trail, counting
    # nowhere; it counts again should the same two leaders tie again.
    voided = models.BooleanField(default=False)
    # The egg timer (tournaments/results/egg_timer.py) runs only while the table is live: a seat
    # or the director lays it on its side (`timer_paused_at`: since when; empty: it
    # runs). `timer_paused`: how long it stood still in all, pauses ended; the table's
    # live clock is the server's clock less it.
    timer_paused_at = models.DateTimeField(null=True, blank=True)
    timer_paused = models.DurationField(default=timedelta(0))
    # On the live clock: when an undone lost turn turned the timer again on its seat
    # (services/plies.py), so that she is not passed again at once.
    timer_turned = models.DateTimeField(null=True, blank=True)

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
            # A result has the pieces out of every seat that plays: seats 1 and 2 at least
            # (the table's further seats are checked by the services), a decider's two
            # leaders.
            models.CheckConstraint(
                condition=Q(status="pending")
                | Q(decider=False, out_1__isnull=False, out_2__isnull=False)
                | _decider_pieces_out(isnull=False),
                name="game_result_has_pieces_out",
            ),
            # A decider is two leaders of a 3-player table, lower position first; only a
            # decider is voided. The seat that does not play has no pieces out.
            models.CheckConstraint(
                condition=Q(
                    decider=False, leader_a__isnull=True, leader_b__isnull=True, voided=False
                )
                | Q(decider=True, leader_a__gte=1, leader_b__gt=F("leader_a"), leader_b__lte=3),
                name="game_decider_two_leaders",
            ),
            models.CheckConstraint(
                condition=Q(decider=False) | _decider_pieces_out(isnull=True, others=True),
                name="game_decider_third_seat_empty",
            ),
            # One decider that counts per table: two reports racing to complete a tied
            # match cannot add two (services/deciders.py locks the table as well).
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(decider=True, voided=False),
                name="game_one_live_decider_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.table}"

    @property
    def counts(self) -> bool:
        """Whether the result enters standings and ratings."""
        return self.status not in self.WITHOUT_RESULT and self.confirmed

    @property
    def leaders(self) -> tuple[int, int] | None:
        """A decider's two seat positions, lower first; None for a game of the match."""
        if not self.decider or self.leader_a is None or self.leader_b is None:
            return None
        return (self.leader_a, self.leader_b)

    @property
    def leaders_out(self) -> list[int | None]:
        """A decider's pieces out, the two leaders' in seat order (empty for a game of
        the match), for pages that list a table's games."""
        leaders = self.leaders
        return [] if leaders is None else [getattr(self, f"out_{p}") for p in leaders]

    def positions(self, seats: int) -> tuple[int, ...]:
        """The seat positions that play this game, in seat order: every seat of the
        table, or a decider's two leaders. A game's pieces-out list (`out_list`, a
        result's ``out``) has one value per position here, in this order."""
        leaders = self.leaders
        return leaders if leaders is not None else tuple(range(1, seats + 1))

    def moving_order(self, seats: int) -> tuple[int, ...]:
        leaders = self.leaders
        if leaders is not None:
            return decider_order(self.first_position, leaders)
        return moving_order(self.first_position, self.direction, seats)

    def out_list(self, seats: int) -> list[int | None]:
        return [getattr(self, f"out_{p}") for p in self.positions(seats)]


class Ply(models.Model):
    """One ply of a game recorded live, as it was made at the table (services/plies.py).

    The game's record (`Game.moves`) stays the one record; these rows say who sent each
    of its plies and when (for undo and the egg timer), and hold the sender's key so
    that a ply sent twice (a retry) is stored once. A write that replaces or cuts the
    record removes the rows of the plies it no longer holds (services/results.py,
    `_drop_stale_plies`), so every row is a ply of the record as it is."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="plies")
    number = models.PositiveIntegerField()
    move = models.CharField(max_length=64)
    key = models.CharField(max_length=64)
    # The seat position whose link sent it; empty for a director.
    by_position = models.PositiveSmallIntegerField(null=True, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # When the table made it: for a ply sent from an offline queue, the time its device
    # claims (a label for statistics and order, docs/offline.md).
    at = models.DateTimeField()
    # When the server received it: the egg timer counts from this, never from a
    # device's clock (services/plies.py).
    received_at = models.DateTimeField(default=timezone.now)
    # How long the game's egg timer had stood still (paused) when it was received: its
    # moment on the table's live clock is `received_at` less this.
    paused = models.DurationField(default=timedelta(0))
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
