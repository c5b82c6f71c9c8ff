from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from games import rulesets
from ratings.systems import SYSTEM_NAMES


class RatingJob(models.Model):
    """One run of the rating computation, queued after a period closes or history changes.

    The row is written before the task is queued (on commit), so the worker always finds
    it; its status tells the pages whether ratings are up to date.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    class Kind(models.TextChoices):
        PERIOD = "period", "rate one period"
        RECOMPUTE = "recompute", "recompute from a point in history"
        PING = "ping", "check that a worker answers"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    scope = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"


from tournaments.models import RATING_SYSTEMS as SYSTEM_CHOICES  # noqa: E402


class RatingPeriod(models.Model):
    """A closed tournament round, or a whole club evening, rated as one period.

    Periods are rated in the order (closed_at, id); a full recomputation walks them in
    that order, which is what makes it deterministic.
    """

    round = models.OneToOneField(
        "tournaments.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    evening = models.OneToOneField(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    # The game of the family the period was played in: each game has its own ratings.
    game = models.CharField(max_length=20, default=rulesets.DEFAULT)
    closed_at = models.DateTimeField()
    rated_at = models.DateTimeField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    skipped = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["closed_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(round__isnull=False, evening__isnull=True)
                    | models.Q(round__isnull=True, evening__isnull=False)
                ),
                name="period_is_round_or_evening",
            )
        ]

    def __str__(self) -> str:
        return f"round {self.round_id}" if self.round_id else f"evening {self.evening_id}"


class PlayerRating(models.Model):
    """A player's current state in one rating system."""

    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(max_length=20, default=rulesets.DEFAULT)
    system = models.CharField(max_length=16, choices=SYSTEM_CHOICES)
    rating = models.FloatField()
    deviation = models.FloatField(null=True, blank=True)
    state = models.JSONField(default=dict)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-rating"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game", "system"], name="rating_once_per_game_and_system"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.system} {self.rating:.0f}"


#: The history tables' foreign keys: deleted with their parents (Django cascades), but
#: not checked by the database. The rows are derived data, written only by a rating job
#: that has just read the same parents in the same transaction; PostgreSQL's deferred
#: checks of ~20 million references at commit took a third of a full recomputation
#: (docs/benchmarks.md).
HISTORY_KEY: dict[str, Any] = {"on_delete": models.CASCADE, "db_constraint": False}


class PeriodRating(models.Model):
    """A player's ratings before and after one period, in every rating system: the
    history behind the charts, and what a recomputation from a later period starts from.

    One row per period and player, as for GameRating: a system's columns are empty when
    it did not rate the player in that period. Its after and deviation columns and the
    plain columns of ``STATE_COLUMNS`` hold each system's full state after the period
    (``state``), rather than a JSON object per row: a recomputation writes a row per
    player and period, and putting that JSON together cost more than the rest of the
    row (docs/benchmarks.md)."""

    # No index of its own: the unique (period, player) index starts with it, and a
    # recomputation writes millions of these rows (docs/benchmarks.md). No foreign-key
    # constraint in the database either (see HISTORY_KEY).
    period = models.ForeignKey(RatingPeriod, related_name="ratings", db_index=False, **HISTORY_KEY)
    player = models.ForeignKey("tournaments.Player", related_name="+", **HISTORY_KEY)
    games = models.PositiveIntegerField(default=0)
    glicko2_before = models.FloatField(null=True, blank=True)
    glicko2_after = models.FloatField(null=True, blank=True)
    glicko2_deviation = models.FloatField(null=True, blank=True)
    openskill_before = models.FloatField(null=True, blank=True)
    openskill_after = models.FloatField(null=True, blank=True)
    openskill_deviation = models.FloatField(null=True, blank=True)
    elo_before = models.FloatField(null=True, blank=True)
    elo_after = models.FloatField(null=True, blank=True)
    elo_deviation = models.FloatField(null=True, blank=True)
    glicko2_volatility = models.FloatField(null=True, blank=True)
    openskill_mu = models.FloatField(null=True, blank=True)
    elo_games = models.PositiveIntegerField(null=True, blank=True)
    elo_reached_top = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["period__closed_at", "period_id"]
        constraints = [
            models.UniqueConstraint(fields=["period", "player"], name="period_rating_once")
        ]

    def __str__(self) -> str:
        return f"{self.player} after period {self.period_id}"

    @staticmethod
    def columns(system: str) -> tuple[str, str, str]:
        """The (before, after, deviation after) fields of one system."""
        return f"{system}_before", f"{system}_after", f"{system}_deviation"

    @staticmethod
    def rating_columns() -> tuple[str, ...]:
        """Every system's before, after and deviation fields, then every system's
        ``state_columns``: the order of a row's values after (period, player, games)."""
        return (
            *(column for name in SYSTEM_NAMES for column in PeriodRating.columns(name)),
            *(column for name in SYSTEM_NAMES for _, column in PeriodRating.state_columns(name)),
        )

    @staticmethod
    def state_columns(system: str) -> tuple[tuple[str, str], ...]:
        """The (state field, column) pairs of one system's state that only the state
        needs: the ones beside its after and deviation columns."""
        _, after, deviation = PeriodRating.columns(system)
        return tuple(
            (key, column)
            for key, column in STATE_COLUMNS[system].items()
            if column not in (after, deviation)
        )

    def state(self, system: str) -> dict[str, Any] | None:
        """The system's state after the period, as ``state_to_json`` names its fields
        (for ``state_from_json``), or None when the system did not rate the player."""
        if getattr(self, self.columns(system)[1]) is None:
            return None
        return {key: getattr(self, column) for key, column in STATE_COLUMNS[system].items()}


#: Each rating system's state as PeriodRating keeps it: the state's fields, as
#: ``state_to_json`` and ``state_from_json`` name them, and the column holding each
#: (derived fields, such as OpenSkill's rating, are left out). Every field of every
#: state is here (tests/ratings/test_full_recompute.py).
STATE_COLUMNS: dict[str, dict[str, str]] = {
    "glicko2": {
        "rating": "glicko2_after",
        "rd": "glicko2_deviation",
        "volatility": "glicko2_volatility",
    },
    "openskill": {"mu": "openskill_mu", "sigma": "openskill_deviation"},
    "elo": {"rating": "elo_after", "games": "elo_games", "reached_top": "elo_reached_top"},
}


class GameRating(models.Model):
    """The change one game caused to one player's rating, in every rating system.

    One row per game and player with a before/after pair per system, rather than one row
    per system: a job rates all systems, and a recomputation of a million games writes
    2.2 million rows instead of 6.6 million (docs/benchmarks.md). A pair is empty when
    that system could not rate the game (the reason is in the period's ``skipped``).
    """

    # Covered by the unique (game, player) index, as above.
    game = models.ForeignKey(
        "tournaments.Game", related_name="ratings", db_index=False, **HISTORY_KEY
    )
    # Not indexed: only a recomputation deletes by period, once per job (a scan), while
    # every history row written would pay for the index.
    period = models.ForeignKey(RatingPeriod, related_name="+", db_index=False, **HISTORY_KEY)
    player = models.ForeignKey("tournaments.Player", related_name="+", **HISTORY_KEY)
    glicko2_before = models.FloatField(null=True, blank=True)
    glicko2_after = models.FloatField(null=True, blank=True)
    openskill_before = models.FloatField(null=True, blank=True)
    openskill_after = models.FloatField(null=True, blank=True)
    elo_before = models.FloatField(null=True, blank=True)
    elo_after = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="game_rating_once")]

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}"

    @staticmethod
    def columns(system: str) -> tuple[str, str]:
        """The (before, after) fields of one system."""
        return f"{system}_before", f"{system}_after"

    def change(self, system: str) -> tuple[float | None, float | None]:
        before, after = self.columns(system)
        return getattr(self, before), getattr(self, after)


class RatingLedger(models.Model):
    """One row per system, locked by every job: ratings are a chain, so jobs for the same
    system run one after another whatever the worker count."""

    system = models.CharField(max_length=16, choices=SYSTEM_CHOICES, unique=True)
    params = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return self.system
