"""Reads for standings: a fixed number of queries, whatever the field size, feeding the
pure scoring and standings cores."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from games.models import Game
from tournaments.models import Seat, Tournament
from tournaments.scoring import ScoringSettings

# Tie-break keys an organiser can order (docs/scoring.md).
TIEBREAKS = {"opponents", "median", "direct", "wins", "rating"}


def scoring_settings(tournament: Tournament) -> ScoringSettings:
    return ScoringSettings(
        target=tournament.target,
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
    games_played: int = 0


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
        .order_by("table_id", "number")
        .values_list("table_id", "out_1", "out_2", "out_3", "out_4")
    )
    for table_id, *outs in games:
        record = tables[table_id]
        record.games.append([int(o) for o in outs[: len(record.entries)]])
        record.games_played += 1
    return list(tables.values())


def tournament_scores(*, tournament: Tournament) -> dict[int, float]:
    """Total weighted score per entry over the closed rounds (what the pairing ranks by)."""
    from tournaments.scoring import round_scores

    settings = scoring_settings(tournament)
    totals: dict[int, float] = defaultdict(float)
    for table in tournament_tables(tournament=tournament, closed_only=True):
        if table.is_bye:
            totals[table.entries[0]] += settings.bye_round_score()
        elif table.games:
            for entry, score in zip(
                table.entries, round_scores(table.games, settings), strict=True
            ):
                totals[entry] += score
    return dict(totals)


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


def tournament_standings(*, tournament: Tournament) -> Standings:
    """Provisional: totals only, ranked by score then seed."""
    from tournaments.models import Entry

    scores = tournament_scores(tournament=tournament)
    entries = list(tournament.entries.select_related("player").order_by("seed"))
    rows = sorted(entries, key=lambda e: (-scores.get(e.pk, 0.0), e.seed))
    closed = tournament.rounds.filter(status="closed").count()
    return Standings(
        rows=[
            StandingRow(
                rank=i + 1,
                entry_id=e.pk,
                name=e.player.name,
                score=scores.get(e.pk, 0.0),
                rounds=0,
                games=0,
                per_game=0.0,
                per_match=0.0,
                tiebreaks=(),
                withdrawn=e.status == Entry.Status.WITHDRAWN,
            )
            for i, e in enumerate(rows)
        ],
        tiebreak_labels=[],
        rounds_closed=closed,
    )
