"""Reads for standings: a fixed number of queries, whatever the field size, feeding the
pure scoring and standings cores."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache

from tournaments.models import Entry, Game, Seat, Skip, Tournament
from tournaments.scoring import ScoringSettings
from tournaments.standings import (
    TIE_BREAKS,
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    TieBreak,
    compute_standings,
)


def scoring_settings(tournament: Tournament) -> ScoringSettings:
    ruleset = tournament.ruleset
    return ScoringSettings(
        target=tournament.sheet_target,
        points=None if ruleset.name == "pentagame" else ruleset.points,
        games_per_turn=((2, tournament.games_per_turn_2), (3, tournament.games_per_turn_3)),
        factors=((2, float(tournament.factor_2)), (3, float(tournament.factor_3))),
        bye_score=None if tournament.bye_score is None else float(tournament.bye_score),
        absence_score=float(tournament.absence_score),
    )


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


def tournament_tables(*, tournament: Tournament, closed_only: bool = False) -> list[TableRecord]:
    """Every table with its seats and results, in two queries."""
    seats = Seat.objects.filter(round__tournament=tournament)
    if closed_only:
        seats = seats.filter(round__status="closed")
    rows = seats.order_by("round__number", "table__number", "position").values_list(
        "table_id", "round__number", "table__number", "table__is_bye", "entry_id"
    )
    tables: dict[int, TableRecord] = {}
    for table_id, number, table_number, is_bye, entry_id in rows:
        record = tables.get(table_id)
        if record is None:
            record = tables[table_id] = TableRecord(number, table_number, is_bye, [])
        record.entries.append(entry_id)
    games = (
        Game.objects.filter(table_id__in=tables.keys())
        .exclude(status=Game.Status.PENDING)
        .filter(confirmed=True)
        .order_by("table_id", "number")
        .values_list("table_id", "status", "out_1", "out_2", "out_3", "out_4")
    )
    for table_id, status, *outs in games:
        record = tables[table_id]
        record.games.append([int(o) for o in outs[: len(record.entries)]])
        record.finished.append(status == Game.Status.FINISHED)
    return list(tables.values())


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
    notes: str = ""


@dataclass
class Standings:
    rows: list[StandingRow]
    tiebreak_labels: list[str]
    rounds_closed: int

    def as_json(self) -> dict[str, object]:
        return {
            "rounds_closed": self.rounds_closed,
            "tiebreaks": self.tiebreak_labels,
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
                }
                for r in self.rows
            ],
        }


TIE_BREAK_LABELS = {
    "opponents": "Opp.",
    "median": "Median opp.",
    "direct": "Direct",
    "wins": "Wins",
    "rating": "Rating",
}


def _tie_breaks(tournament: Tournament) -> tuple[TieBreak, ...]:
    chosen = [t for t in tournament.tiebreaks or [] if t in TIE_BREAKS]
    return tuple(chosen) if chosen else TIE_BREAKS


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
    players = [
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
                        GameResult(tuple(out), finished)
                        for out, finished in zip(t.games, t.finished, strict=True)
                    ),
                )
                for t in tables
                if not t.is_bye and t.games
            ),
            byes=tuple(str(t.entries[0]) for t in tables if t.is_bye)
            + tuple(
                pid for pid, bye in skipped[number].items() if bye and pid not in seated[number]
            ),
            absent=tuple(
                pid for pid, bye in skipped[number].items() if not bye and pid not in seated[number]
            ),
        )
        for number, tables in sorted(rounds.items())
    ]
    tie_breaks = _tie_breaks(tournament)
    rows = compute_standings(players, results, tie_breaks, scoring_settings(tournament))
    by_id = {str(e.pk): e for e in entries}
    return Standings(
        rows=[
            StandingRow(
                rank=row.rank,
                entry_id=int(row.player),
                name=by_id[row.player].player.name,
                score=row.score,
                rounds=row.rounds_played,
                games=row.games_played,
                per_game=row.average_per_game,
                per_match=row.average_per_match,
                tiebreaks=row.tie_breaks,
                withdrawn=row.status == "withdrawn",
                notes=_notes(row.marks, by_id[row.player]),
            )
            for row in rows
        ],
        tiebreak_labels=[TIE_BREAK_LABELS[t] for t in tie_breaks],
        rounds_closed=len(rounds),
    )


def _notes(marks: tuple[str, ...], entry: Entry) -> str:
    """Byes, absences and missed rounds, by round; a withdrawn player's absences after
    the withdrawal are one note, not one per round."""
    gone = entry.withdrawn_after_round if entry.status == Entry.Status.WITHDRAWN else None
    notes = [
        f"{mark} in round {i}"
        for i, mark in enumerate(marks, start=1)
        if mark in ("bye", "absent", "late") and (gone is None or i <= gone)
    ]
    if gone:
        notes.append(f"withdrawn after round {gone}")
    return ", ".join(notes)


def tournament_scores(*, tournament: Tournament) -> dict[int, float]:
    """Total weighted score per entry over the closed rounds (what the pairing ranks by)."""
    return {row.entry_id: row.score for row in tournament_standings(tournament=tournament).rows}
