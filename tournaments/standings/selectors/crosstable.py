"""The crosstable page's data: a fixed number of queries whatever the field size (the
standings, read from their cache when fresh, and the closed rounds' tables and games),
fed to the pure core tournaments/standings/crosstable.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.models import Round, Tournament
from tournaments.models_team import TABLE_TEAMS
from tournaments.pairing.league import LeagueSchedule
from tournaments.standings.crosstable import (
    Cell,
    CrossRow,
    SharedTable,
    crosstable,
    team_crosstable,
)
from tournaments.standings.selectors.standings import (
    StandingRow,
    scoring_settings,
    tournament_standings,
    tournament_tables,
    uncounted_rounds,
)
from tournaments.standings.selectors.teams import TeamStandingRow, team_standings


@dataclass
class CrosstableLine:
    """A standings row with its crosstable cells, in the standings' order; ``cells``
    holds one entry per column (None on the diagonal and for opponents never met)."""

    number: int
    # A team event's lines are teams (TeamStandingRow: name, score, rank, withdrawn).
    standing: StandingRow | TeamStandingRow
    row: CrossRow
    cells: list[Cell | None]


@dataclass
class Crosstable:
    lines: list[CrosstableLine]
    rounds_closed: int
    # A league shows its meetings still to come too: its schedule is fixed at the start.
    league: bool
    # A league without a design in which every pair meets exactly once states how its
    # schedule deviates: (name, name, meetings per cycle) for pairs that meet more or
    # never (0).
    deviation: list[tuple[str, str, int]] = field(default_factory=list)
    # A 2 vs 2 event's crosstable is of teams.
    teams: bool = False
    # Some 3-player match was settled by a decider: the page explains its mark.
    deciders: bool = False


def _lines(standings: Any, rows: list[CrossRow], key: str) -> list[CrosstableLine]:
    lines = [
        CrosstableLine(number=i, standing=standing, row=row, cells=[])
        for i, (standing, row) in enumerate(zip(standings, rows, strict=True), start=1)
    ]
    for line in lines:
        line.cells = [
            None if other is line else line.row.cell(str(getattr(other.standing, key)))
            for other in lines
        ]
    return lines


def team_event_crosstable(*, tournament: Tournament) -> Crosstable:
    """Teams as rows and columns, in the team standings' order; each cell the row
    team's dropped score in every game of their matches."""
    standings = team_standings(tournament=tournament)
    team_of = {
        str(entry): str(team.pk)
        for team in tournament.teams.all()
        for entry in (team.first_id, team.second_id)
    }
    tables = [
        SharedTable(
            t.round,
            tuple(str(e) for e in t.entries),
            tuple(tuple(g) for g in t.games),
            teams=TABLE_TEAMS,
        )
        for t in tournament_tables(tournament=tournament, closed_only=True)
        if not t.is_bye and len(t.entries) == 4
    ]
    order = [str(r.team_id) for r in standings.rows]
    rows = team_crosstable(order, tables, team_of, scoring_settings(tournament))
    return Crosstable(
        lines=_lines(standings.rows, rows, "team_id"),
        rounds_closed=standings.rounds_closed,
        league=False,
        teams=True,
    )


def tournament_crosstable(*, tournament: Tournament) -> Crosstable:
    if tournament.is_team_event:
        return team_event_crosstable(tournament=tournament)
    standings = tournament_standings(tournament=tournament)
    # A pre-round that does not count is no part of the crosstable either.
    uncounted = uncounted_rounds(tournament)
    tables = [
        SharedTable(
            t.round,
            tuple(str(e) for e in t.entries),
            tuple(tuple(g) for g in t.games),
            decider=(
                (t.decider_winner, t.decider_loser)
                if t.decider_winner is not None and t.decider_loser is not None
                else None
            ),
        )
        for t in tournament_tables(tournament=tournament, closed_only=True)
        if not t.is_bye and t.round not in uncounted
    ]
    scheduled: list[tuple[int, tuple[str, ...]]] = []
    deviation: list[tuple[str, str, int]] = []
    names = {str(r.entry_id): r.name for r in standings.rows}
    # The schedule goes public with round 1: until then round 1 may be paired again,
    # which makes the schedule afresh.
    if (
        tournament.kind == Tournament.Kind.ROUND_ROBIN
        and tournament.league_schedule
        and tournament.rounds.exclude(status=Round.Status.PAIRED).exists()
    ):
        try:
            schedule = LeagueSchedule.from_json(tournament.league_schedule)
        except ValueError:
            schedule = None
        if schedule is not None:
            closed = {t.round for t in tables}
            scheduled = [
                (number, table)
                for number, r in enumerate(schedule.rounds, start=1)
                if number not in closed
                for table in r.tables
            ]
            deviation = [
                (names.get(a, a), names.get(b, b), count)
                for a, b, count in [*((a, b, 0) for a, b in schedule.never), *schedule.again]
            ]
    order = [str(r.entry_id) for r in standings.rows]
    rows = crosstable(order, tables, scoring_settings(tournament), scheduled)
    return Crosstable(
        lines=_lines(standings.rows, rows, "entry_id"),
        rounds_closed=standings.rounds_closed,
        league=bool(scheduled),
        deviation=deviation,
        deciders=any(t.decider is not None for t in tables),
    )
