"""Reads for standings: a fixed number of queries, whatever the field size, feeding the
pure scoring and standings cores."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.models import Count, Max, Q, Sum

from tournaments.models import Game, Seat, Tournament
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


# tournament pk -> (database snapshot, stamps), per process; see standings_stamps.
_STAMPS: dict[int, tuple[str, tuple[str, str]]] = {}
_SNAPSHOT_SQL = "SELECT pg_current_snapshot()::text"


def database_snapshot() -> str | None:
    """PostgreSQL's current snapshot (`xmin:xmax:in-progress xids`), or None. It
    changes whenever a writing transaction starts or ends, anywhere in the database, and
    stays the same while nobody writes; reading it touches no table. None inside a
    transaction (whose own writes do not show in it) and on other databases."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return None
    try:
        with connection.cursor() as cursor:
            cursor.execute(_SNAPSHOT_SQL)
            return str(cursor.fetchone()[0])
    except DatabaseError:  # PostgreSQL before 13: compute the stamps every time
        return None


def standings_stamp(tournament: Tournament) -> str:
    """Changes whenever anything the standings read changes (results, rounds, entries,
    settings); pollers and the cache key on it."""
    return standings_stamps(tournament)[0]


def standings_stamps(tournament: Tournament, snapshot: str | None = None) -> tuple[str, str]:
    """(stamp, content stamp). The stamp changes with any result, round, entry or
    setting; the content stamp leaves out results in rounds not yet closed, which the
    standings do not count, and keys what is computed from them.

    Computing them takes three small aggregate queries, the first over all the
    tournament's games (a few ms at 500 players). Pollers ask far more often than
    anyone writes, so on PostgreSQL the stamps are kept per process with the database
    snapshot they were computed after, and reused while the snapshot has not moved:
    then one query that reads no table. Any commit moves the snapshot, so a new result
    is seen at once. A caller that has just read `database_snapshot()` may pass it."""
    snapshot = snapshot or database_snapshot()
    if snapshot is not None:
        known = _STAMPS.get(tournament.pk)
        if known is not None and known[0] == snapshot:
            return known[1]
    stamps = _compute_stamps(tournament)
    if snapshot is not None:
        if len(_STAMPS) > 10_000:
            _STAMPS.clear()
        _STAMPS[tournament.pk] = (snapshot, stamps)
    return stamps


def _compute_stamps(tournament: Tournament) -> tuple[str, str]:
    closed = Q(table__round__status="closed")
    games = Game.objects.filter(table__round__tournament=tournament).aggregate(
        at=Max("entered_at"),
        v=Sum("version"),
        n=Count("id"),
        closed_at=Max("entered_at", filter=closed),
        closed_v=Sum("version", filter=closed),
        closed_n=Count("id", filter=closed),
    )
    rounds = tournament.rounds.aggregate(n=Max("number"), c=Max("closed_at"))
    entries = tournament.entries.aggregate(
        n=Count("id"), w=Count("id", filter=Q(status="withdrawn")), m=Max("id")
    )
    every = (games["at"], games["v"], games["n"])
    counted = (games["closed_at"], games["closed_v"], games["closed_n"])
    return (
        _digest((every, rounds, entries, tournament.updated_at)),
        _digest((counted, rounds, entries, tournament.updated_at)),
    )


def _digest(parts: object) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:20]


def tournament_standings(*, tournament: Tournament) -> Standings:
    """Standings over the closed rounds, cached under the tournament's content stamp so
    that pollers and projectors cost a few small queries between two results, and a
    result in the round being played computes nothing again."""
    key = f"standings:{tournament.pk}:{standings_stamps(tournament)[1]}"
    standings = cache.get(key)
    if standings is None:
        standings = _compute(tournament)
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
        )
        for e in entries
    ]
    rounds: dict[int, list[TableRecord]] = defaultdict(list)
    for table in tournament_tables(tournament=tournament, closed_only=True):
        rounds[table.round].append(table)
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
            byes=tuple(str(t.entries[0]) for t in tables if t.is_bye),
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
                notes=", ".join(
                    f"{mark} in round {i}"
                    for i, mark in enumerate(row.marks, start=1)
                    if mark in ("bye", "absent", "late")
                ),
            )
            for row in rows
        ],
        tiebreak_labels=[TIE_BREAK_LABELS[t] for t in tie_breaks],
        rounds_closed=len(rounds),
    )


def tournament_scores(*, tournament: Tournament) -> dict[int, float]:
    """Total weighted score per entry over the closed rounds (what the pairing ranks by)."""
    return {row.entry_id: row.score for row in tournament_standings(tournament=tournament).rows}
