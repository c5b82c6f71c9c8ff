"""Clubs, players, tournaments and their rounds (the book's *turns*), tables and seats.

The words are the book's (section 21): a *game* is n people playing once, a *match* the
games of one table in every seating order, a *round (turn)* about 40 minutes in which
2-player tables play 3 games and 3-player tables 2.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import rulesets
from games.rulesets import Ruleset

# The played game lives in its own module (it was the games app's model until the games
# became the family's rules alone); importing it here registers it with this app.
from tournaments.models_game import Game as Game
from tournaments.models_game import Ply as Ply
from tournaments.models_game import PlyConflict as PlyConflict
from tournaments.models_game import moving_order as moving_order
from tournaments.models_link import EventPush as EventPush
from tournaments.models_link import SiteLink as SiteLink
from tournaments.models_link import VenueEvent as VenueEvent
from tournaments.models_link import VenueToken as VenueToken
from tournaments.models_night import SeatNotice as SeatNotice
from tournaments.models_offline import IdempotencyKey as IdempotencyKey
from tournaments.models_season import Season as Season
from tournaments.models_team import TEAM_SHEET_TARGET
from tournaments.models_team import Team as Team
from tournaments.models_webhooks import WebhookDelivery as WebhookDelivery
from tournaments.models_webhooks import WebhookEndpoint as WebhookEndpoint
from tournaments.models_webhooks import WebhookEvent as WebhookEvent

# The games of the family a tournament can be for, as the registry lists them
# (games/rulesets.py).
GAMES = rulesets.choices()

# The rating systems kept for every player (the ratings app); a club picks the one shown.
RATING_SYSTEMS = [("glicko2", "Glicko-2"), ("openskill", "OpenSkill"), ("elo", "Elo")]


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)
    rating_system = models.CharField(
        max_length=16,
        choices=RATING_SYSTEMS,
        default="glicko2",
        help_text=_("The rating shown on the club's pages; all three are kept."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_clubs"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays; an account is optional (most club players have none)."""

    name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_in_club")
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss tournament")
        ROUND_ROBIN = "round_robin", _("Round-robin league")
        EVENING = "evening", _("Club evening")
        # Section 21: "the '2 vs. 2' setup, which some consider the most noble form".
        TEAMS = "teams", _("2 vs 2 team event")

    class Policy(models.TextChoices):
        PAIRS_TRIPLE = "pairs+triple", _("2-player tables, one 3-player table when odd")
        PREFER_TRIPLES = "prefer-triples", _("prefer 3-player tables")
        PAIRS_BYE = "pairs+bye", _("2-player tables and a bye when odd")

    class PairingMethod(models.TextChoices):
        # Section 21: "Working top-down, pair each player with the next player down the
        # list against whom she has not yet played" (docs/pairing.md).
        BOOK = "book", _("the book's rule: top-down, the next player not yet met")
        CLOSEST = "closest", _("closest scores at each table")

    class PreRound(models.TextChoices):
        # Section 21: "Usually you begin a Swiss system tournament with some prior
        # ranking, typically the result of the previous tournament, or a pre-round."
        NONE = "", _("none: round 1 by the seeding")
        RATING = "rating", _("a pre-round paired by rating")
        RANDOM = "random", _("a pre-round paired at random")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    # How the tournament is played and scored: the settings forms, the API and the
    # export document all carry.
    PLAY_SETTINGS = (
        "rounds_planned",
        "policy",
        "pairing_method",
        "games_per_turn_2",
        "games_per_turn_3",
        "factor_2",
        "factor_3",
        "target",
        "bye_score",
        "absence_score",
        "late_score",
        "seconds_per_move",
        "decider",
        "pre_round",
        "pre_round_counts",
        "no_show_minutes",
        "no_show_forfeit",
    )

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=160, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.SWISS)
    game = models.CharField(max_length=20, choices=GAMES, default=rulesets.DEFAULT)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    published = models.BooleanField(
        default=False, help_text=_("Published tournaments are visible to everyone.")
    )
    date = models.DateField(null=True, blank=True)
    rounds_planned = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    policy = models.CharField(max_length=16, choices=Policy.choices, default=Policy.PAIRS_TRIPLE)
    pairing_method = models.CharField(
        _("pairing method"),
        max_length=16,
        choices=PairingMethod.choices,
        default=PairingMethod.BOOK,
        help_text=_(
            "How the next round is paired once rematches and table sizes are settled; "
            "the rounds already paired stay as they are."
        ),
    )
    # Section 21: "Let the three player tables play two games per turn ... two-player
    # tables should finish three games", then multiply by 3 and by 2.
    games_per_turn_2 = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    games_per_turn_3 = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    factor_2 = models.DecimalField(
        max_digits=5, decimal_places=2, default=2, validators=[MinValueValidator(0)]
    )
    factor_3 = models.DecimalField(
        max_digits=5, decimal_places=2, default=3, validators=[MinValueValidator(0)]
    )
    target = models.PositiveSmallIntegerField(
        default=3,
        help_text=_("Pieces out to win."),
        validators=[MinValueValidator(1), MaxValueValidator(5)],
    )
    bye_score = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Weighted round score of a bye; empty = an even result."),
    )
    absence_score = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    # The egg timer of section 3 ("limit the time per move with an egg timer … about one
    # minute per move is practical … A player who does not move in time loses turn"):
    # seconds per move, empty = off.
    seconds_per_move = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(5), MaxValueValidator(3600)],
        help_text=_("The egg timer: seconds per move when games are recorded live; empty = off."),
    )
    late_score = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        default=0,
        help_text=_("Weighted round score of a late entrant for each round before her entry."),
    )
    tiebreaks = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Tie-break order, e.g. ['opponents', 'median', 'direct', 'wins', 'rating']."),
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Bumped by the services in the same transaction as anything that can change the
    # standings (results, rounds, entries, names and ratings shown, settings); the
    # standings' ETag and cache key are made from it (selectors/standings.py).
    standings_version = models.PositiveIntegerField(default=0, editable=False)
    # A round-robin league's whole schedule, fixed when round 1 is paired
    # (tournaments/pairing/league.py, LeagueSchedule.as_json): stored rather than derived
    # again, so later entries, withdrawals or a better search never change a league
    # under way. Empty for other kinds and before the start.
    league_schedule = models.JSONField(null=True, blank=True, editable=False)
    # The club's season this event counts toward (models_season.py); empty = none.
    season = models.ForeignKey(
        Season,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
        verbose_name=_("season"),
    )
    pre_round = models.CharField(
        _("pre-round"),
        max_length=8,
        choices=PreRound.choices,
        default=PreRound.NONE,
        blank=True,
        help_text=_(
            "Round 1 paired by rating or at random; its results give the order for the "
            "Swiss proper."
        ),
    )
    pre_round_counts = models.BooleanField(
        _("the pre-round counts"),
        default=True,
        help_text=_("Whether the pre-round's scores count toward the standings."),
    )
    # Sections 3 and 18: "Such a match can already produce a clear winner; if it
    # doesn't, let the two leaders in score play a two player to settle the issue."
    decider = models.BooleanField(
        _("decider at 3-player tables"),
        default=False,
        help_text=_(
            "When a 3-player match is tied at the top, the two leaders play one 2-player "
            "game to settle it."
        ),
    )
    # A no-show (docs/results.md, "No-shows"): minutes after a round's publication, by
    # the server's clock, after which a seat not seen (no ply, no report, no check, not
    # announced late) is offered to the organiser as a forfeit; empty = never.
    no_show_minutes = models.PositiveSmallIntegerField(
        _("no-show after minutes"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(240)],
        help_text=_(
            "A seat not seen this many minutes after the round's start is offered as a "
            "forfeit; empty = never."
        ),
    )
    no_show_forfeit = models.BooleanField(
        _("forfeit no-shows automatically"),
        default=False,
        help_text=_("Forfeit a no-show without asking the organiser."),
    )

    class Meta:
        ordering = ["-date", "-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(target__gte=1) & Q(target__lte=5), name="tournament_target_1_5"
            ),
            models.CheckConstraint(
                condition=Q(games_per_turn_2__gte=1) & Q(games_per_turn_3__gte=1),
                name="tournament_games_per_turn_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ruleset(self) -> Ruleset:
        return rulesets.get(self.game)

    @property
    def sheet_target(self) -> int:
        """The largest per-seat value on a score sheet: Pentagame's pieces out to win
        (a setting), or the game's own maximum."""
        if self.kind == self.Kind.TEAMS:
            return TEAM_SHEET_TARGET
        ruleset = self.ruleset
        return self.target if ruleset.target_is_setting else ruleset.target

    @property
    def is_team_event(self) -> bool:
        return self.kind == self.Kind.TEAMS


class Entry(models.Model):
    """A player's entry in a tournament or club evening."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        LATE = "late", _("late entry")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(help_text=_("1 = strongest; orders the first round."))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    rating = models.IntegerField(null=True, blank=True, help_text=_("Rating at entry, if known."))
    # At a club evening only those checked in play; at a tournament, once anyone is
    # checked in, only those checked in are paired (services/rounds.py `_pairable`).
    checked_in = models.BooleanField(default=False)
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # A late entry's round score for each round played before it joined, chosen by the
    # organiser; empty = the tournament's default (nothing).
    missed_round_score = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seed"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once"),
            models.UniqueConstraint(fields=["tournament", "seed"], name="entry_unique_seed"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def pairable(self) -> bool:
        return self.status != self.Status.WITHDRAWN


class Skip(models.Model):
    """A round an entered player announced they will not play: a requested bye (scored
    as the tournament's bye) or an absence (scored as the tournament's absence). They
    are not paired in that round."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="skips")
    round_number = models.PositiveSmallIntegerField()
    bye = models.BooleanField(default=False, help_text="A requested bye rather than an absence.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="skip_once_per_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="skip_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} skips round {self.round_number}"


class Round(models.Model):
    """A round, which the book calls a *turn* (section 21: about 40 minutes)."""

    class Status(models.TextChoices):
        PAIRED = "paired", _("paired (not yet published)")
        PUBLISHED = "published", _("published")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PAIRED)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Table(models.Model):
    """One table of a round; a bye is a table of one with no games."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    is_bye = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


def new_report_token() -> str:
    """A seat's private report link: 24 random bytes (192 bits), so it cannot be guessed."""
    return secrets.token_urlsafe(24)


class Seat(models.Model):
    """A player's place at a table; position 1 moves first in the table's first game."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Denormalised so the database itself keeps a player to one seat per round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    # RESTRICT, not PROTECT: a played entry cannot be deleted on its own (withdraw it),
    # yet deleting the whole tournament still cascades through it.
    entry = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # The player's own private link (QR code beside their name on the score sheet): it
    # reports and confirms this seat's games, as this player only.
    report_token = models.CharField(max_length=64, unique=True, default=new_report_token)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_once_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=5), name="seat_position_1_5"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.table}"


class ResultSubmission(models.Model):
    """One report of a game's result: by a director, or by the player in one seat through
    that seat's own link. The game's current result is derived from its submissions
    (services/results.py); this list is the audit trail."""

    class State(models.TextChoices):
        ENTERED = "entered", _("entered by a director (final)")
        REPORTED = "reported", _("reported, awaiting an opponent")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        DISCARDED = "discarded", _("discarded")
        # A queued (offline) entry that no longer fitted when it arrived: the game
        # changed meanwhile, or the round was closed (docs/offline.md). Kept, never
        # counted, until the organiser accepts it or sets it aside (``decided_at``).
        HELD = "held", _("kept for the organiser")

    class HeldReason(models.TextChoices):
        CHANGED = "changed", _("the game changed while it was typed offline")
        CLOSED = "closed", _("the round was closed before it arrived")

    game = models.ForeignKey(
        "tournaments.Game", on_delete=models.CASCADE, related_name="submissions"
    )
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Set for a player's report; empty for a director's entry.
    by_seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="submissions"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=12, choices=State.choices)
    # What was reported: the game's status, pieces out per seat position, and the move
    # record with its setup and the colours out when given.
    status = models.CharField(max_length=12)
    out = models.JSONField(default=list)
    moves = models.JSONField(default=list, blank=True)
    colours_out = models.JSONField(default=dict, blank=True)
    setup = models.JSONField(default=dict, blank=True)
    # Who confirmed, accepted or discarded it, and when.
    decided_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by_seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # Why a held submission was kept for the organiser (empty for every other state).
    held_reason = models.CharField(max_length=12, choices=HeldReason.choices, blank=True)

    class Meta:
        ordering = ["game", "created_at", "id"]
        constraints = [
            # A seat reports once per game; the database is the last guard. A held
            # (offline, late) report is kept beside her report, not instead of it.
            models.UniqueConstraint(
                fields=["game", "by_seat"],
                condition=Q(by_seat__isnull=False) & ~Q(state="held"),
                name="submission_once_per_seat",
            ),
            # A player's report never becomes a director's final entry...
            models.CheckConstraint(
                condition=Q(by_seat__isnull=True) | ~Q(state="entered"),
                name="submission_player_not_entered",
            ),
            # ...and a director's entry is final or discarded, never waiting (or held:
            # typed offline, it arrived after the game changed).
            models.CheckConstraint(
                condition=Q(by_seat__isnull=False) | Q(state__in=["entered", "discarded", "held"]),
                name="submission_director_final",
            ),
            models.CheckConstraint(
                condition=~Q(by_seat=models.F("decided_by_seat")),
                name="submission_not_confirmed_by_reporter",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_state_display()} result of {self.game}"

    @property
    def position(self) -> int | None:
        return self.by_seat.position if self.by_seat_id is not None and self.by_seat else None


class AuditEntry(models.Model):
    """Who changed what after the fact (edits after a round is closed, withdrawals...)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # Who acted, as text: kept when the user is deleted and when the entry comes from
    # another site's export, where no local user stands behind the name.
    actor = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=64)
    target = models.CharField(max_length=120, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.target}".strip()


class ForbiddenPair(models.Model):
    """Two entries the organiser never seats together (family, same small club)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=120, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "first", "second"], name="forbid_once"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="forbid_two"),
        ]

    def __str__(self) -> str:
        return f"{self.first.player} / {self.second.player}"
