"""Reads for standings: a fixed number of queries, whatever the field size, feeding the
pure scoring and standings cores."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache
from django.utils.translation import gettext_lazy, gettext_noop

from tournaments.models import Entry, Game, Seat, Skip, Tournament, moving_order
from tournaments.models_team import TABLE_TEAMS, TEAM_FACTOR, TEAM_TARGET
from tournaments.scoring import ScoringSettings, decider_winner
from tournaments.standings.table import (
    ALL_TIE_BREAKS,
    TEAM_MATCH_GAMES,
    TIE_BREAKS,
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    TieBreak,
    compute_standings,
    ranked_apart,
    separations,
)
from tournaments.standings.table import StandingRow as CoreRow


def scoring_settings(tournament: Tournament) -> ScoringSettings:
    if tournament.is_team_event:
        return team_scoring_settings(tournament)
    ruleset = tournament.ruleset
    return ScoringSettings(
        target=tournament.sheet_target,
        # None: the core's own dropped score, against the tournament's target (section 21).
        points=None if ruleset.points_are_dropped_scores else ruleset.points,
        games_per_turn=((2, tournament.games_per_turn_2), (3, tournament.games_per_turn_3)),
        factors=((2, float(tournament.factor_2)), (3, float(tournament.factor_3))),
        bye_score=None if tournament.bye_score is None else float(tournament.bye_score),
        absence_score=float(tournament.absence_score),
        late_score=float(tournament.late_score),
    )


def team_scoring_settings(tournament: Tournament) -> ScoringSettings:
    """A 2 vs 2 event: every table is a team table, whose match is two games (section 21)
    weighed by 1; a bye is worth an even match, 2 games * 5 = 10 (docs/scoring.md)."""
    return ScoringSettings(
        target=TEAM_TARGET,
        team_target=TEAM_TARGET,
        games_per_turn=((2, TEAM_MATCH_GAMES),),
        factors=((2, TEAM_FACTOR),),
        bye_score=None if tournament.bye_score is None else float(tournament.bye_score),
        absence_score=float(tournament.absence_score),
        late_score=float(tournament.late_score),
    )


def table_teams(tournament: Tournament, seats: int) -> tuple[tuple[int, ...], ...] | None:
    """The sides of a table by seat index: seats 1+3 against 2+4 in a team event."""
    return TABLE_TEAMS if tournament.is_team_event and seats == 4 else None


@dataclass
class TableRecord:
    """One table of one round as plain data: entry ids by seat position, and the
    pieces out of each game with a result (per seat position)."""

    round: int
    number: int
    is_bye: bool
    entries: list[int]
    games: list[list[int]] = field(default_factory=list)
    finished: list[bool] = field(default_factory=list)
    # Per game: seat indexes in moving order (the "seated after" tie-break reads it).
    orders: list[tuple[int, ...]] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    # The seat index of the player who won the table's decider (a 3-player match tied at
    # the top, settled by a 2-player game of the two leaders; docs/scoring.md), if one
    # did. The decider is no game of the turn: it is not in `games`.
    decider_winner: int | None = None
    # ... and the seat index of the leader who lost it (the crosstable marks their cell).
    decider_loser: int | None = None


def tournament_tables(*, tournament: Tournament, closed_only: bool = False) -> list[TableRecord]:
    """Every table with its seats and results, in two queries. With ``closed_only``, a
    game the turn ended before it started (still pending in a closed round) is an
    unfinished game with no piece out: the book's 3:3, so the table keeps its total
    (docs/scoring.md, "Unplayed games")."""
    seats = Seat.objects.filter(round__tournament=tournament)
    if closed_only:
        seats = seats.filter(round__status="closed")
    rows = seats.order_by("round__number", "table__number", "position").values_list(
        "table_id", "round__number", "table__number", "table__is_bye", "entry_id", "position"
    )
    tables: dict[int, TableRecord] = {}
    for table_id, number, table_number, is_bye, entry_id, position in rows:
        record = tables.get(table_id)
        if record is None:
            record = tables[table_id] = TableRecord(number, table_number, is_bye, [])
        record.entries.append(entry_id)
        record.positions.append(position)
    games = Game.objects.filter(table_id__in=tables.keys()).filter(confirmed=True)
    if not closed_only:
        games = games.exclude(status__in=Game.WITHOUT_RESULT)
    rows_games = (
        games.filter(voided=False)
        .order_by("table_id", "number")
        .values_list(
            "table_id",
            "status",
            "first_position",
            "direction",
            "decider",
            "leader_a",
            "leader_b",
            "out_1",
            "out_2",
            "out_3",
            "out_4",
        )
    )
    settings = scoring_settings(tournament)
    for table_id, status, first, direction, decider, a, b, *outs in rows_games:
        record = tables[table_id]
        n = len(record.entries)
        if decider:
            # It settles the match, and enters no round score (an unplayed one, left
            # when the round was closed anyway, settles nothing).
            pair = [outs[a - 1], outs[b - 1]]
            finished = status == Game.Status.FINISHED
            won = decider_winner([int(o or 0) for o in pair], finished, settings)
            if won is not None and (a, b)[won] in record.positions:
                record.decider_winner = record.positions.index((a, b)[won])
                if (a, b)[1 - won] in record.positions:
                    record.decider_loser = record.positions.index((a, b)[1 - won])
            continue
        if status in Game.WITHOUT_RESULT:
            # Forced closed before it started or ended: the book's unplayed 0:0.
            record.games.append([0] * n)
        else:
            record.games.append([int(o) for o in outs[:n]])
        record.finished.append(status == Game.Status.FINISHED)
        record.orders.append(_order(record.positions, first, direction))
    return list(tables.values())


def _order(positions: list[int], first: int, direction: str) -> tuple[int, ...]:
    """Seat indexes in the order they moved; seat order when the positions are not the
    plain 1..n the moving order is defined on."""
    n = len(positions)
    if positions != list(range(1, n + 1)) or first not in positions:
        return tuple(range(n))
    return tuple(p - 1 for p in moving_order(first, direction, n))


@dataclass
class StandingRow:
    rank: int
    entry_id: int
    name: str
    score: float
    rounds: int
    games: int
    per_game: float
    per_match: float
    tiebreaks: tuple[float, ...]
    withdrawn: bool = False
    # The tie-breaks as the pages show them: None where there is nothing to show (the
    # rating of an unrated player, which the sort counts as 0).
    tiebreaks_shown: tuple[float | None, ...] = ()
    # (mark, round number) for the rounds without a table: bye, absent, late (each
    # round before a late entry), and "withdrawn" after the player's last round. Kept as
    # codes, not text, because the standings are cached for readers of every language.
    marks: tuple[tuple[str, int], ...] = ()
    # What separates the row from the one above and the one below (table.separations):
    # (by: "score", a tie-break's key, or None for a shared place; how much; the
    # neighbour's name). None: no neighbour there (or standings cached before the field:
    # the class attribute answers for them). Codes, not text, as ``marks``.
    above: tuple[str | None, float, str] | None = None
    below: tuple[str | None, float, str] | None = None

    @property
    def shown(self) -> tuple[float | None, ...]:
        return getattr(self, "tiebreaks_shown", ()) or self.tiebreaks

    @property
    def entered_round(self) -> int | None:
        """A late entrant's first round (the rounds before it are marked late)."""
        late = [number for mark, number in getattr(self, "marks", ()) if mark == "late"]
        return max(late) + 1 if late else None

    @property
    def notes(self) -> str:
        """The marks as the reader's language says them: "entered in round 3" once for
        a late entrant (not each round before it), then "bye in round 4", "absent in
        round 5", "withdrawn after round 6"."""
        texts = {
            "bye": gettext_lazy("bye in round %(number)s"),
            "absent": gettext_lazy("absent in round %(number)s"),
            "withdrawn": gettext_lazy("withdrawn after round %(number)s"),
        }
        entered = self.entered_round
        notes = [str(_ENTERED) % {"number": entered}] if entered else []
        notes += [
            str(texts[mark]) % {"number": number}
            for mark, number in getattr(self, "marks", ())
            if mark in texts
        ]
        return ", ".join(notes)

    def _separations(self, with_score: bool) -> str:
        parts = []
        for side, found in (
            ("above", getattr(self, "above", None)),
            ("below", getattr(self, "below", None)),
        ):
            if found is None or (found[0] == "score" and not with_score):
                continue
            parts.append(separation_text(side, *found))
        return "; ".join(parts)

    @property
    def tiebreak_note(self) -> str:
        """The row's neighbours level with it on points, as the reader's language says
        them: which tie-break put one above the other and by how much, or a shared place
        (empty when the score alone separates the row from both)."""
        return self._separations(with_score=False)

    @property
    def separation_title(self) -> str:
        """What separates the row from both neighbours, the score included (the row's
        hover text)."""
        return self._separations(with_score=True)

    @property
    def apart_note(self) -> str:
        """Beside the name of a player listed apart as not having played: when she
        entered, if late, and whether she withdrew."""
        notes = []
        entered = self.entered_round
        if entered:
            notes.append(str(_ENTERED) % {"number": entered})
        if self.withdrawn:
            notes.append(str(gettext_lazy("withdrawn")))
        return ", ".join(notes)


_ENTERED = gettext_lazy("entered in round %(number)s")


@dataclass
class Standings:
    """``rows``: the players ranked; ``not_ranked``: those who have not played in a
    closed round, listed apart without a rank (tournaments.standings.table.ranked_apart)."""

    rows: list[StandingRow]
    tiebreak_labels: list[str]
    rounds_closed: int
    # A tuple, whose default a class attribute holds: standings cached before the field
    # existed read it as empty.
    not_ranked: tuple[StandingRow, ...] = ()
    # The tie-breaks' keys in order ("opponents", ...), as the separations name them.
    tiebreak_keys: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "rounds_closed": self.rounds_closed,
            "tiebreaks": self.tiebreak_labels,
            "tiebreak_keys": list(getattr(self, "tiebreak_keys", ())),
            "rows": [
                {
                    "rank": r.rank,
                    "entry": r.entry_id,
                    "player": r.name,
                    "score": r.score,
                    "rounds": r.rounds,
                    "games": r.games,
                    "per_game": r.per_game,
                    "per_match": r.per_match,
                    "tiebreaks": list(r.tiebreaks),
                    "withdrawn": r.withdrawn,
                    # What separates the row from its neighbours: "score" or a tie-break
                    # (as in ``tiebreak_keys``) and by how much; by null: a shared place.
                    "separated": {
                        "above": _separated(getattr(r, "above", None)),
                        "below": _separated(getattr(r, "below", None)),
                    },
                }
                for r in self.rows
            ],
            # Entered, but no table and no bye in a closed round: not ranked.
            "not_ranked": [
                {
                    "entry": r.entry_id,
                    "player": r.name,
                    "entered_round": r.entered_round,
                    "withdrawn": r.withdrawn,
                }
                for r in self.not_ranked
            ],
        }


# The tie-breaks in a sentence (the column labels are short).
TIE_BREAK_NAMES = {
    "opponents": gettext_lazy("the opponents' scores"),
    "median": gettext_lazy("the opponents' scores without the best and the worst"),
    "direct": gettext_lazy("the direct encounter"),
    "wins": gettext_lazy("wins"),
    "rating": gettext_lazy("the rating"),
    "per_game": gettext_lazy("the score per game"),
    "per_match": gettext_lazy("the score per match"),
    "seated_after": gettext_lazy("the score seated after stronger players"),
}


def _number(value: float) -> str:
    return f"{round(value, 2):g}"


def separation_text(side: str, by: str | None, gap: float, name: str) -> str:
    """One side of a row's separation in the reader's language: ``side`` "above" (the
    row above, ``name``, is ahead) or "below" (the row is ahead of ``name``)."""
    values = {"name": name, "gap": _number(gap)}
    if by is None:
        return (
            str(gettext_lazy("shares the rank with %(name)s: equal on points and every tie-break"))
            % values
        )
    if by == "score":
        text = (
            gettext_lazy("%(gap)s points behind %(name)s")
            if side == "above"
            else gettext_lazy("%(gap)s points ahead of %(name)s")
        )
        return str(text) % values
    values["tiebreak"] = str(TIE_BREAK_NAMES.get(by, by))
    text = (
        gettext_lazy("level on points with %(name)s, behind on %(tiebreak)s by %(gap)s")
        if side == "above"
        else gettext_lazy("level on points with %(name)s, ahead on %(tiebreak)s by %(gap)s")
    )
    return str(text) % values


def _separated(found: tuple[str | None, float, str] | None) -> dict[str, object] | None:
    if found is None:
        return None
    by, gap, name = found
    return {"by": by, "gap": gap, "player": name}


# Column labels; the API shows them as they are, the pages translate them.
TIE_BREAK_LABELS = {
    "opponents": gettext_noop("Opp."),
    "median": gettext_noop("Median opp."),
    "direct": gettext_noop("Direct"),
    "wins": gettext_noop("Wins"),
    "rating": gettext_noop("Rating"),
    "per_game": gettext_noop("Per game"),
    "per_match": gettext_noop("Per match"),
    "seated_after": gettext_noop("Seated after"),
}


def tie_breaks_of(tournament: Tournament) -> tuple[TieBreak, ...]:
    chosen = [t for t in tournament.tiebreaks or [] if t in ALL_TIE_BREAKS]
    return tuple(dict.fromkeys(chosen)) if chosen else TIE_BREAKS


def standings_token(tournament: Tournament) -> str:
    """Names one version of a tournament's standings (see `version_token`)."""
    return version_token(tournament.pk, tournament.created_at, tournament.standings_version)


def version_token(pk: int, created_at: datetime, version: int) -> str:
    """The tournament's id, when it was created (so an id reused after a database
    restore names other standings) and its `standings_version`, which the services bump
    with every change the standings can show."""
    return f"{pk}-{int(created_at.timestamp() * 1_000_000):x}-{version}"


def standings_etag(token: str) -> str:
    return f'"{token}"'


def standings_key(token: str, kind: str = "rows") -> str:
    return f"standings:{kind}:{token}"


def tournament_standings(*, tournament: Tournament) -> Standings:
    """Standings over the closed rounds, cached under the tournament's standings
    version, so pollers and projectors between two changes compute nothing. The
    tournament is read afresh (one query): the one passed in may have been loaded before
    the last change, and its settings must match the version it is cached under."""
    fresh = Tournament.objects.filter(pk=tournament.pk).first()
    if fresh is None:
        return _compute(tournament)
    key = standings_key(standings_token(fresh))
    standings = cache.get(key)
    if standings is None:
        standings = _compute(fresh)
        cache.set(key, standings, timeout=3600)
    return standings


def _compute(tournament: Tournament) -> Standings:
    """Standings from the pure core; three queries whatever the number of players."""
    entries = list(tournament.entries.select_related("player").order_by("seed"))
    players = _players(entries)
    results = _round_results(tournament, uncounted_rounds(tournament))
    tie_breaks = tie_breaks_of(tournament)
    ranked, apart = ranked_apart(
        compute_standings(players, results, tie_breaks, scoring_settings(tournament))
    )
    by_id = {str(e.pk): e for e in entries}

    def standing(row: CoreRow) -> StandingRow:
        return StandingRow(
            rank=row.rank,
            entry_id=int(row.player),
            name=by_id[row.player].player.name,
            score=row.score,
            rounds=row.rounds_played,
            games=row.games_played,
            per_game=row.average_per_game,
            per_match=row.average_per_match,
            tiebreaks=row.tie_breaks,
            tiebreaks_shown=tuple(
                None if key == "rating" and by_id[row.player].rating is None else value
                for key, value in zip(tie_breaks, row.tie_breaks, strict=False)
            ),
            withdrawn=row.status == "withdrawn",
            marks=_marks(row.marks, by_id[row.player]),
        )

    rows = [standing(row) for row in ranked]
    # Which tie-break separated each row from its neighbours (docs/standings.md,
    # "Tie-break explanations"): part of the same cached standings, so of its version.
    for i, (above, below) in enumerate(separations(ranked, tie_breaks)):
        if above is not None:
            rows[i].above = (above.by, above.gap, rows[i - 1].name)
        if below is not None:
            rows[i].below = (below.by, below.gap, rows[i + 1].name)
    return Standings(
        rows=rows,
        tiebreak_labels=[TIE_BREAK_LABELS[t] for t in tie_breaks],
        tiebreak_keys=tuple(tie_breaks),
        rounds_closed=len(results),
        not_ranked=tuple(standing(row) for row in apart),
    )


def uncounted_rounds(tournament: Tournament) -> frozenset[int]:
    """The rounds whose scores do not count toward the standings: a Swiss tournament's
    pre-round when the organiser says so (docs/pairing.md, "Pre-round"). The one place
    the standings, the crosstable and the pairing's scores learn it from."""
    if tournament.kind == Tournament.Kind.SWISS and tournament.pre_round:
        return frozenset() if tournament.pre_round_counts else frozenset({1})
    return frozenset()


def _players(entries: list[Entry]) -> list[StandingsPlayer]:
    return [
        StandingsPlayer(
            id=str(e.pk),
            rating=float(e.rating or 0),
            seed=e.seed,
            status=e.status,  # type: ignore[arg-type]
            first_round=e.joined_round,
            late_score=None if e.missed_round_score is None else float(e.missed_round_score),
        )
        for e in entries
    ]


def _round_results(tournament: Tournament, uncounted: frozenset[int]) -> list[RoundResult]:
    """The closed rounds as the core reads them; a round in ``uncounted`` is marked so."""
    rounds: dict[int, list[TableRecord]] = defaultdict(list)
    for table in tournament_tables(tournament=tournament, closed_only=True):
        rounds[table.round].append(table)
    # Announced byes and absences (a seat in that round, should there be one, wins).
    skipped: dict[int, dict[str, bool]] = defaultdict(dict)
    for entry_id, number, bye in Skip.objects.filter(entry__tournament=tournament).values_list(
        "entry_id", "round_number", "bye"
    ):
        skipped[number][str(entry_id)] = bye
    seated = {
        number: {str(e) for t in tables for e in t.entries} for number, tables in rounds.items()
    }
    results = [
        RoundResult(
            number=number,
            tables=tuple(
                TableResult(
                    seats=tuple(str(e) for e in t.entries),
                    games=tuple(
                        GameResult(tuple(out), finished, order)
                        for out, finished, order in zip(t.games, t.finished, t.orders, strict=True)
                    ),
                    factor=TEAM_FACTOR if table_teams(tournament, len(t.entries)) else None,
                    teams=table_teams(tournament, len(t.entries)),
                    decider_winner=t.decider_winner,
                )
                for t in tables
                if not t.is_bye and t.games
            ),
            # A team's bye seats both its players.
            byes=tuple(str(e) for t in tables if t.is_bye for e in t.entries)
            + tuple(
                pid for pid, bye in skipped[number].items() if bye and pid not in seated[number]
            ),
            absent=tuple(
                pid for pid, bye in skipped[number].items() if not bye and pid not in seated[number]
            ),
            counts=number not in uncounted,
        )
        for number, tables in sorted(rounds.items())
    ]
    return results


def _marks(marks: tuple[str, ...], entry: Entry) -> tuple[tuple[str, int], ...]:
    """Byes, absences and missed rounds, by round; a withdrawn player's absences after
    the withdrawal are one mark, not one per round."""
    gone = entry.withdrawn_after_round if entry.status == Entry.Status.WITHDRAWN else None
    found = [
        (mark, i)
        for i, mark in enumerate(marks, start=1)
        if mark in ("bye", "absent", "late") and (gone is None or i <= gone)
    ]
    if gone:
        found.append(("withdrawn", gone))
    return tuple(found)


def tournament_scores(*, tournament: Tournament) -> dict[int, float]:
    """Total weighted score per entry over the closed rounds (what the pairing ranks by),
    of the players listed apart too (a no-show of round 1 who comes to round 2)."""
    standings = tournament_standings(tournament=tournament)
    return {row.entry_id: row.score for row in (*standings.rows, *standings.not_ranked)}


def scores_before(*, tournament: Tournament, number: int) -> dict[int, float]:
    """Each entry's score over the closed rounds before round ``number``: what that
    round was paired by (``tournament_scores`` when it was paired, the rounds before it
    all closed), for its explanations (docs/pairing.md, "Explanations"). Four queries."""
    entries = list(tournament.entries.order_by("seed"))
    results = [
        r for r in _round_results(tournament, uncounted_rounds(tournament)) if r.number < number
    ]
    rows = compute_standings(_players(entries), results, (), scoring_settings(tournament))
    return {int(row.player): row.score for row in rows}


def pre_round_scores(*, tournament: Tournament) -> dict[int, float]:
    """Each entry's score in round 1 alone, as the standings count a round (a table's
    weighted round score, a bye, an absence, a late entrant's score), whether or not the
    pre-round counts toward the standings: the pre-round's result, which orders the
    Swiss proper (docs/pairing.md, "Pre-round"). Three queries."""
    entries = list(tournament.entries.order_by("seed"))
    first = [r for r in _round_results(tournament, frozenset()) if r.number == 1]
    rows = compute_standings(_players(entries), first, (), scoring_settings(tournament))
    return {int(row.player): row.score for row in rows}


def standings_state(tournament: Tournament) -> str:
    """The standings' version, read afresh (the tournament row may be older)."""
    fresh = Tournament.objects.filter(pk=tournament.pk).first() or tournament
    return standings_token(fresh)
