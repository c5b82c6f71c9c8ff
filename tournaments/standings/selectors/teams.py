"""Standings of the teams of a 2 vs 2 event: the pure standings core with one row per
team. (The players' own standings are `tournament_standings`: a player scores her
team's dropped score in every game.)"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.core.cache import cache

from games.dropped import dropped_scores
from tournaments.models import Seat, Team, Tournament
from tournaments.models_team import TABLE_TEAMS, TEAM_TARGET
from tournaments.standings.selectors.standings import (
    TIE_BREAK_LABELS,
    standings_key,
    standings_token,
    team_scoring_settings,
    tie_breaks_of,
    tournament_tables,
)
from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingRow,
    StandingsPlayer,
    TableResult,
    compute_standings,
    ranked_apart,
)


def team_points(out: Sequence[int]) -> list[float]:
    """A team table seen as two sides with the teams' pieces out: the team dropped
    score. (How the partners split the pieces does not change a team's score, so each
    team's total sits in its first seat.)"""
    a, b = out
    scores = dropped_scores([a, b, 0, 0], TEAM_TARGET, teams=TABLE_TEAMS)
    return [scores[0], scores[1]]


@dataclass(frozen=True)
class TeamStandingRow:
    rank: int
    team_id: int
    name: str
    players: tuple[str, str]
    score: float
    rounds: int
    games: int
    per_game: float
    per_match: float
    tiebreaks: tuple[float, ...]
    withdrawn: bool

    @property
    def named(self) -> bool:
        """Whether the team has a name of its own: a team entered without one is called
        after its players, which the pages then need not repeat."""
        return self.name != " + ".join(self.players)


@dataclass(frozen=True)
class TeamStandings:
    """``rows``: the teams ranked; ``not_ranked``: those that have not played in a
    closed round, listed apart without a rank (tournaments.standings.table.ranked_apart)."""

    rows: list[TeamStandingRow]
    tiebreak_labels: list[str]
    rounds_closed: int
    # A tuple, whose default a class attribute holds: standings cached before the field
    # existed read it as empty.
    not_ranked: tuple[TeamStandingRow, ...] = ()

    @property
    def any_named(self) -> bool:
        """Whether the page needs a players column (some team has a name of its own)."""
        return any(row.named for row in self.rows)

    def as_json(self) -> dict[str, object]:
        return {
            "rounds_closed": self.rounds_closed,
            "tiebreaks": self.tiebreak_labels,
            "rows": [
                {
                    "rank": r.rank,
                    "team": r.team_id,
                    "name": r.name,
                    "players": list(r.players),
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
            # Entered, but no table and no bye in a closed round: not ranked.
            "not_ranked": [
                {"team": r.team_id, "name": r.name, "players": list(r.players)}
                for r in self.not_ranked
            ],
        }


def team_standings(*, tournament: Tournament) -> TeamStandings:
    """Team standings over the closed rounds, cached under the standings version."""
    fresh = Tournament.objects.filter(pk=tournament.pk).first() or tournament
    key = standings_key(standings_token(fresh), "teams")
    standings = cache.get(key)
    if standings is None:
        standings = _compute(fresh)
        cache.set(key, standings, timeout=3600)
    return standings


def _status(team: Team) -> str:
    statuses = {team.first.status, team.second.status}
    for status in ("withdrawn", "late"):
        if status in statuses:
            return status
    return "active"


def _compute(tournament: Tournament) -> TeamStandings:
    teams = list(
        tournament.teams.select_related("first__player", "second__player").order_by("seed")
    )
    team_of = {e: t for t in teams for e in (t.first_id, t.second_id)}
    units = [
        StandingsPlayer(
            id=str(t.pk),
            rating=((t.first.rating or 0) + (t.second.rating or 0)) / 2,
            seed=t.seed,
            status=_status(t),  # type: ignore[arg-type]
            first_round=max(t.first.joined_round, t.second.joined_round),
        )
        for t in teams
    ]
    rounds: dict[int, list[TableResult]] = defaultdict(list)
    byes: dict[int, list[str]] = defaultdict(list)
    for table in tournament_tables(tournament=tournament, closed_only=True):
        rounds.setdefault(table.round, [])  # a round of byes only still counts
        if table.is_bye:
            byes[table.round].append(str(team_of[table.entries[0]].pk))
            continue
        if len(table.entries) != 4 or not table.games:
            continue
        seats = (str(team_of[table.entries[0]].pk), str(team_of[table.entries[1]].pk))
        games = tuple(
            GameResult((out[0] + out[2], out[1] + out[3]), finished)
            for out, finished in zip(table.games, table.finished, strict=True)
        )
        rounds[table.round].append(TableResult(seats=seats, games=games))
    results = [
        RoundResult(number=number, tables=tuple(tables), byes=tuple(byes[number]))
        for number, tables in sorted(rounds.items())
    ]
    settings = replace(team_scoring_settings(tournament), points=team_points)
    tie_breaks = tie_breaks_of(tournament)
    ranked, apart = ranked_apart(compute_standings(units, results, tie_breaks, settings))
    by_id = {str(t.pk): t for t in teams}

    def standing(row: StandingRow) -> TeamStandingRow:
        return TeamStandingRow(
            rank=row.rank,
            team_id=int(row.player),
            name=by_id[row.player].name,
            players=(by_id[row.player].first.player.name, by_id[row.player].second.player.name),
            score=row.score,
            rounds=row.rounds_played,
            games=row.games_played,
            per_game=row.average_per_game,
            # The core counts a 2-side table's match as one game; a team match is two.
            per_match=row.average_per_match,
            tiebreaks=row.tie_breaks,
            withdrawn=row.status == "withdrawn",
        )

    return TeamStandings(
        rows=[standing(row) for row in ranked],
        tiebreak_labels=[TIE_BREAK_LABELS[t] for t in tie_breaks],
        rounds_closed=len(rounds),
        not_ranked=tuple(standing(row) for row in apart),
    )


def team_scores(*, tournament: Tournament) -> dict[int, float]:
    """Total score per team over the closed rounds (what the team pairing ranks by), of
    the teams listed apart too."""
    standings = team_standings(tournament=tournament)
    return {row.team_id: row.score for row in (*standings.rows, *standings.not_ranked)}


@dataclass(frozen=True)
class DeskTeam:
    """A team as the organiser's players page lists it."""

    team: Team
    status: str  # active, late or withdrawn (withdrawn if either player is)
    played: bool  # has sat at a table: withdrawn then, never dissolved


def desk_teams(*, tournament: Tournament) -> list[DeskTeam]:
    """The event's teams by seed, with their status and whether they have played: two
    queries whatever the number of teams."""
    teams = list(
        tournament.teams.select_related("first__player", "second__player").order_by("seed")
    )
    seated = set(
        Seat.objects.filter(round__tournament=tournament).values_list("entry_id", flat=True)
    )
    return [
        DeskTeam(team=t, status=_status(t), played=bool({t.first_id, t.second_id} & seated))
        for t in teams
    ]
