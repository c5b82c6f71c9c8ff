"""A round's tables as plain rows for pages and exports (four queries)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Func, IntegerField, Q
from django.utils.translation import gettext as _

from games.letters import colour_letter
from tournaments.models import Game, PlyConflict, ResultSubmission, Round, Seat, Table
from tournaments.models_game import MAX_SEATS, out_fields
from tournaments.models_team import TEAM_FACTOR
from tournaments.scoring import decider_winner, match_leaders, round_scores
from tournaments.standings.selectors.standings import scoring_settings, table_teams


@dataclass
class SeatRow:
    position: int
    entry_id: int
    name: str
    round_score: float | None = None
    player_id: int = 0
    # The rating system's chance that this seat finishes first, before the match.
    chance: float | None = None
    # The player's private report link: for organiser pages and score sheets only.
    report_token: str = field(default="", repr=False)


@dataclass
class GameRow:
    id: int
    number: int
    first_position: int
    direction: str
    status: str
    out: list[int | None]
    letters: list[str]
    moves: int
    version: int
    confirmed: bool = True
    reported_by: int | None = None
    # Players reported different results; the organiser decides.
    disputed: bool = False
    # The organiser made a player's report the result (result_accept): no seat confirmed it.
    accepted: bool = False
    # The game's submissions, oldest first, when a page asks for them (organisers only).
    trail: list[ResultSubmission] = field(default_factory=list)
    # A game being played: its live state (selectors/live.py attach_live), when a page
    # shows games live.
    live: dict[str, Any] | None = None
    # A 3-player match's decider (services/deciders.py): a 2-player game of the two
    # leaders, the seat positions in ``positions`` (``out`` and ``letters`` have one
    # value per position there); voided: its match is no longer tied at the top.
    decider: bool = False
    positions: tuple[int, ...] = ()
    voided: bool = False

    @property
    def played(self) -> bool:
        """A result stands (counted or awaiting confirmation): not a game in progress."""
        return self.status not in Game.WITHOUT_RESULT

    @property
    def entered(self) -> bool:
        """The organiser's own entry counts (no seat reported the result that stands)."""
        return self.counted and self.reported_by is None

    @property
    def in_progress(self) -> bool:
        """A move record saved before the game ended (``moves`` plies so far)."""
        return self.status == Game.Status.IN_PROGRESS

    @property
    def counted(self) -> bool:
        """In: a result that counts (a director's, or a confirmed report)."""
        return self.played and self.confirmed

    @property
    def entry_text(self) -> str:
        """The counted result as the results screen's pieces-out field shows it (`3 1`,
        `2 1 u` for an unfinished game); empty while nothing counts."""
        if not self.counted:
            return ""
        text = " ".join("" if o is None else str(o) for o in self.out)
        return text + " u" if self.status == Game.Status.UNFINISHED else text

    @property
    def open_reports(self) -> list[ResultSubmission]:
        """Players' reports still waiting or disputed (from the trail, so no query). A
        record in progress is no report: nothing to accept until the game ends."""
        open_states = (ResultSubmission.State.REPORTED, ResultSubmission.State.DISPUTED)
        return [
            s for s in self.trail if s.state in open_states and s.status != Game.Status.IN_PROGRESS
        ]

    @property
    def held(self) -> list[ResultSubmission]:
        """Entries sent from an offline queue that no longer fitted (the game changed or
        the round closed meanwhile), kept for the organiser and not decided yet."""
        return [
            s for s in self.trail if s.state == ResultSubmission.State.HELD and s.decided_at is None
        ]


@dataclass(frozen=True)
class MatchResult:
    """Who won a 3-player table's match, shown at the table where the tournament plays
    deciders (docs/scoring.md, "The 3-player decider"): the best match total alone, or
    the decider's winner; ``pending`` while the decider has no result; else shared by
    ``leaders`` (a drawn or unplayed decider, three tied)."""

    leaders: tuple[int, ...]
    winner: int | None = None
    by_decider: bool = False
    pending: bool = False


@dataclass
class TableRow:
    id: int
    number: int
    is_bye: bool
    seats: list[SeatRow] = field(default_factory=list)
    games: list[GameRow] = field(default_factory=list)
    # The match's result where the tournament plays deciders, once every game counts.
    match: MatchResult | None = None

    @property
    def counting_games(self) -> list[GameRow]:
        """The games that count toward the table's results: a voided decider does not."""
        return [g for g in self.games if not g.voided]

    @property
    def complete(self) -> bool:
        return all(g.played and g.confirmed for g in self.counting_games)

    @property
    def awaiting_confirmation(self) -> bool:
        return any(g.played and not g.confirmed for g in self.counting_games)

    def name_at(self, position: int) -> str:
        return next((s.name for s in self.seats if s.position == position), str(position))


@dataclass(frozen=True)
class RoundProgress:
    done: int
    total: int


def round_progress(tables: list[TableRow]) -> RoundProgress:
    """How many of the round's games have a result that counts (byes have none)."""
    games = [g for t in tables if not t.is_bye for g in t.counting_games]
    return RoundProgress(done=sum(g.counted for g in games), total=len(games))


def round_progress_counted(round_: Round) -> RoundProgress:
    """round_progress counted in the database: one query, without loading the tables."""
    counts = Game.objects.filter(table__round=round_, table__is_bye=False, voided=False).aggregate(
        total=Count("pk"),
        done=Count("pk", filter=Q(confirmed=True) & ~Q(status__in=Game.WITHOUT_RESULT)),
    )
    return RoundProgress(done=counts["done"], total=counts["total"])


def round_trails(tables: list[TableRow]) -> None:
    """Attach each game's submissions (who reported what, when, and its state) to the rows:
    one query, for the organiser's results page."""
    games = {g.id: g for t in tables for g in t.games}
    for submission in ResultSubmission.objects.filter(game_id__in=games).select_related(
        "by_user", "by_seat__entry__player", "decided_by_user", "decided_by_seat__entry__player"
    ):
        games[submission.game_id].trail.append(submission)


class PlyCount(Func):
    """How many plies a game's record (``moves``, a JSON array) holds, counted by the
    database: a round's page would otherwise decode every game's whole record to count it."""

    function = "jsonb_array_length"
    output_field = IntegerField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(compiler, connection, function="json_array_length", **extra)


_GAME_FIELDS = (
    "pk", "table_id", "number", "first_position", "direction", "status",
    *out_fields(MAX_SEATS),
    "colours_out", "ply_count", "version", "confirmed", "reported_by_position",
    "decider", "leader_a", "leader_b", "voided",
)  # fmt: skip


def round_tables(*, round_: Round, table_id: int | None = None) -> list[TableRow]:
    """The round's tables, or only the one ``table_id`` names (one row of a page)."""
    settings = scoring_settings(round_.tournament)
    one = {} if table_id is None else {"table_id": table_id}
    # Plain rows, not model instances: a 500-player round has 1,500 seats with their
    # players and 750 games, and building models cost more than the queries.
    tables = {
        pk: TableRow(pk, number, is_bye)
        for pk, number, is_bye in Table.objects.filter(
            round=round_, **({} if table_id is None else {"pk": table_id})
        )
        .order_by("number")
        .values_list("pk", "number", "is_bye")
    }
    for table, position, entry_id, name, player_id, token in (
        Seat.objects.filter(round=round_, **one)
        .order_by("position")
        .values_list(
            "table_id",
            "position",
            "entry_id",
            "entry__player__name",
            "entry__player_id",
            "report_token",
        )
    ):
        tables[table].seats.append(
            SeatRow(position, entry_id, name, player_id=player_id, report_token=token)
        )
    games_by_table: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in (
        Game.objects.filter(table__round=round_, **one)
        .annotate(ply_count=PlyCount("moves"))
        .order_by("number")
        .values(*_GAME_FIELDS)
    ):
        games_by_table[game["table_id"]].append(game)
    # Disputed games, and reports the organiser accepted (confirmed by no seat): one query.
    disputed: set[int] = set()
    accepted: set[int] = set()
    for game_id, state in ResultSubmission.objects.filter(
        Q(state=ResultSubmission.State.DISPUTED)
        | Q(state=ResultSubmission.State.CONFIRMED, decided_by_seat__isnull=True),
        game__table__round=round_,
        **({} if table_id is None else {"game__table_id": table_id}),
    ).values_list("game_id", "state"):
        (disputed if state == ResultSubmission.State.DISPUTED else accepted).add(game_id)
    for table in tables.values():
        n = len(table.seats)
        for game in games_by_table[table.id]:
            colours = game["colours_out"] or {}
            positions = (
                (game["leader_a"], game["leader_b"]) if game["decider"] else tuple(range(1, n + 1))
            )
            table.games.append(
                GameRow(
                    id=game["pk"],
                    number=game["number"],
                    first_position=game["first_position"],
                    direction=game["direction"],
                    status=game["status"],
                    out=[game[f"out_{p}"] for p in positions],
                    letters=[colour_letter(colours.get(str(p), [])) for p in positions],
                    moves=game["ply_count"] or 0,
                    version=game["version"],
                    confirmed=game["confirmed"],
                    reported_by=game["reported_by_position"],
                    disputed=game["pk"] in disputed,
                    accepted=game["pk"] in accepted,
                    decider=game["decider"],
                    positions=positions,
                    voided=game["voided"],
                )
            )
        if table.is_bye:
            # A team's bye seats both its players.
            for seat_row in table.seats:
                seat_row.round_score = settings.bye_round_score()
            continue
        # In a closed round a game never started (or still in progress when it was
        # forced closed) counts as 0:0 unfinished, the book's even result, as in the
        # standings (docs/scoring.md, "Unplayed games").
        closed = round_.status == Round.Status.CLOSED
        # A decider enters no round score: it settles the match (docs/scoring.md).
        played = [
            [int(o or 0) if g.played else 0 for o in g.out]
            for g in table.games
            if (g.played or closed) and g.confirmed and not g.decider
        ]
        if round_.tournament.decider and n == 3:
            table.match = _match_result(table, settings, closed=closed)
        if played:
            teams = table_teams(round_.tournament, n)
            factor = TEAM_FACTOR if teams else None
            scores = round_scores(played, settings, teams=teams, factor=factor)
            for seat, score in zip(table.seats, scores, strict=True):
                seat.round_score = score
    return list(tables.values())


def _match_result(table: TableRow, settings: Any, *, closed: bool) -> MatchResult | None:
    """The 3-player match's result once every game of it counts (docs/scoring.md, "The
    3-player decider"); None before. A decider still without a result when the round
    was closed anyway leaves the match shared."""
    games = [g for g in table.games if not g.decider]
    if not games or not all(g.counted for g in games):
        return None
    positions = [s.position for s in table.seats]
    outs = [[int(o or 0) for o in g.out] for g in games]
    leaders = tuple(positions[i] for i in match_leaders(outs, settings))
    if len(leaders) == 1:
        return MatchResult(leaders=leaders, winner=leaders[0])
    decider = next((g for g in table.games if g.decider and not g.voided), None)
    if decider is None or decider.positions != leaders:
        return MatchResult(leaders=leaders)
    if not decider.counted:
        return MatchResult(leaders=leaders, pending=not closed)
    won = decider_winner(
        [int(o or 0) for o in decider.out], decider.status == Game.Status.FINISHED, settings
    )
    if won is None:
        return MatchResult(leaders=leaders, by_decider=True)
    return MatchResult(leaders=leaders, winner=decider.positions[won], by_decider=True)


# What keeps a round open, in the order the pages and the close refusal list them.
OPEN_REASONS = ("missing", "in_progress", "awaiting", "disputed", "held", "flagged")
# The organiser's force-close scores these as unplayed (docs/scoring.md); the others
# are decisions still hers, which closing would bury.
FORCEABLE = frozenset({"missing", "in_progress"})


@dataclass(frozen=True)
class OpenReason:
    """One reason a table keeps its round open, with the games it concerns (their
    numbers; ``deciders`` names those that are the table's decider)."""

    reason: str
    games: list[int]
    deciders: frozenset[int] = frozenset()

    @property
    def title(self) -> str:
        return _reason_titles()[self.reason]

    @property
    def text(self) -> str:
        """ "game 1, the decider": the games as the pages and the refusal name them."""
        return ", ".join(
            _("the decider") if n in self.deciders else _("game %(number)s") % {"number": n}
            for n in self.games
        )


def _reason_titles() -> dict[str, str]:
    return {
        "missing": _("Missing"),
        "in_progress": _("In progress"),
        "awaiting": _("Awaiting confirmation"),
        "disputed": _("Disputed"),
        # An entry sent from an offline queue that no longer fitted (docs/offline.md).
        "held": _("Held"),
        # A ply another device sent was refused (PlyConflict), not yet seen.
        "flagged": _("Flagged"),
    }


def round_open_reasons(*, round_: Round) -> dict[int, list[OpenReason]]:
    """Per table number (only tables kept open), why the round cannot close yet: the
    one answer for the open-tables page, the results screen and ``round_close``. Three
    queries, however many tables."""
    games = list(
        Game.objects.filter(table__round=round_, table__is_bye=False, voided=False)
        .order_by("table__number", "number")
        .values_list("pk", "table__number", "number", "status", "confirmed", "decider")
    )
    disputed: set[int] = set()
    held: set[int] = set()
    for game_id, state in ResultSubmission.objects.filter(
        Q(state=ResultSubmission.State.DISPUTED)
        | Q(state=ResultSubmission.State.HELD, decided_at__isnull=True),
        game__table__round=round_,
    ).values_list("game_id", "state"):
        (held if state == ResultSubmission.State.HELD else disputed).add(game_id)
    flagged = set(
        PlyConflict.objects.filter(game__table__round=round_, cleared_at__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    found: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    deciders: dict[int, set[int]] = defaultdict(set)
    for pk, table, number, status, confirmed, decider in games:
        reasons = found[table]
        if decider:
            deciders[table].add(number)
        if pk in disputed:
            reasons["disputed"].append(number)
        elif status == Game.Status.IN_PROGRESS:
            reasons["in_progress"].append(number)
        elif status in Game.WITHOUT_RESULT:
            reasons["missing"].append(number)
        elif not confirmed:
            reasons["awaiting"].append(number)
        if pk in held:
            reasons["held"].append(number)
        if pk in flagged:
            reasons["flagged"].append(number)
    return {
        table: [
            OpenReason(r, reasons[r], frozenset(deciders[table]))
            for r in OPEN_REASONS
            if reasons.get(r)
        ]
        for table, reasons in found.items()
        if reasons
    }


def open_tables_text(open_: dict[int, list[OpenReason]]) -> str:
    """ "table 2 (held: game 1; flagged: game 2)": the tables keeping a round open."""
    return "; ".join(
        _("table %(table)s (%(reasons)s)")
        % {
            "table": table,
            "reasons": "; ".join(f"{r.title.lower()}: {r.text}" for r in reasons),
        }
        for table, reasons in open_.items()
    )


def round_still_open_text(*, round_: Round) -> str:
    """The tables a published round's close would be refused for, as the refusal says
    them (empty for a round not published)."""
    if round_.status != Round.Status.PUBLISHED:
        return ""
    return open_tables_text(round_open_reasons(round_=round_))
