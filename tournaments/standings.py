"""Standings of a Swiss tournament or club evening, Django-free (issue 4, section 5).

Section 21: "Rank players per score", "Make sure to record ranking, score and number of
turns" and "You can compare average scores per game and match." Scores are the book's
dropped scores with the time weighting (tournaments.scoring). Tie-breaks come in an
order the organiser chooses; players tied on score and on every chosen tie-break share
their rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import factorial
from typing import Literal

from .scoring import DEFAULT_SETTINGS, ScoringSettings

Status = Literal["active", "withdrawn", "late"]
TieBreak = Literal["opponents", "median", "direct", "wins", "rating"]
TIE_BREAKS: tuple[TieBreak, ...] = ("opponents", "median", "direct", "wins", "rating")
# What a player did in a round (turn): sat at a table, had the bye, was absent, or had
# not entered yet.
Mark = Literal["table", "bye", "absent", "late"]


@dataclass(frozen=True)
class StandingsPlayer:
    id: str
    rating: float = 0.0
    seed: int = 0
    status: Status = "active"
    first_round: int = 1  # a late entrant's first round; earlier ones score ``late_score``
    late_score: float | None = None  # this entrant's score per missed round; None: settings'


@dataclass(frozen=True)
class GameResult:
    """Pieces out per seat (seat order of the table). ``finished=False``: the turn ended
    before anyone won; the pieces out so far count (section 21's turns of ca. 40 min)."""

    out: tuple[int, ...]
    finished: bool = True


@dataclass(frozen=True)
class TableResult:
    seats: tuple[str, ...]
    games: tuple[GameResult, ...]
    factor: float | None = None  # None: the settings' factor for the table size
    teams: tuple[tuple[int, ...], ...] | None = None  # seat indexes per team (section 19)


@dataclass(frozen=True)
class RoundResult:
    number: int
    tables: tuple[TableResult, ...]
    byes: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: str
    score: float
    rounds_played: int
    games_played: int
    average_per_game: float  # dropped score per game, before time weighting
    average_per_match: float  # dropped score per match ((n - 1)! games at n seats)
    tie_breaks: tuple[float, ...]
    marks: tuple[Mark, ...]
    status: Status
    rating: float


@dataclass
class _Tally:
    score: float = 0.0
    rounds: int = 0
    games: int = 0
    matches: float = 0.0
    dropped: float = 0.0
    wins: int = 0
    marks: list[Mark] = field(default_factory=list)
    # Per table the player sat at: (round score, table-mates with their round scores).
    tables: list[tuple[float, list[tuple[str, float]]]] = field(default_factory=list)


def compute_standings(
    players: Sequence[StandingsPlayer],
    rounds: Sequence[RoundResult],
    tie_breaks: Sequence[TieBreak] = TIE_BREAKS,
    settings: ScoringSettings = DEFAULT_SETTINGS,
) -> list[StandingRow]:
    """Ranked rows, best first. Raises ValueError for unknown players or a player seated
    twice in one round."""
    for name in tie_breaks:
        if name not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {name!r}")
    tally = {p.id: _Tally() for p in players}
    if len(tally) != len(players):
        raise ValueError("player ids must be unique")
    for rnd in rounds:
        _score_round(rnd, tally, players, settings)

    opponents = {pid: _opponents(t, tally) for pid, t in tally.items()}
    by_id = {p.id: p for p in players}

    def value(name: TieBreak, pid: str, group: frozenset[str]) -> float:
        if name == "opponents":
            return sum(opponents[pid])
        if name == "median":
            # Median Buchholz: drop the best and the worst round once there are three.
            values = sorted(opponents[pid])
            return sum(values[1:-1] if len(values) >= 3 else values)
        if name == "direct":
            return _direct(tally[pid], group)
        if name == "wins":
            return float(tally[pid].wins)
        return by_id[pid].rating

    # Refine groups of players still tied, one criterion after the other; "direct"
    # depends on who is tied, so every criterion is evaluated within its group.
    totals = {pid: t.score for pid, t in tally.items()}
    groups = _split(sorted(tally, key=lambda pid: -totals[pid]), totals)
    keys: dict[str, list[float]] = {pid: [] for pid in tally}
    for name in tie_breaks:
        refined: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                keys[group[0]].append(value(name, group[0], frozenset(group)))
                refined.append(group)
                continue
            members = frozenset(group)
            scored = {pid: value(name, pid, members) for pid in group}
            for pid in group:
                keys[pid].append(scored[pid])
            refined.extend(_split(sorted(group, key=lambda pid: -scored[pid]), scored))
        groups = refined

    rows: list[StandingRow] = []
    position = 1
    for group in groups:
        for pid in sorted(group, key=lambda pid: (by_id[pid].seed, pid)):
            t = tally[pid]
            p = by_id[pid]
            rows.append(
                StandingRow(
                    rank=position,
                    player=pid,
                    score=t.score,
                    rounds_played=t.rounds,
                    games_played=t.games,
                    average_per_game=t.dropped / t.games if t.games else 0.0,
                    average_per_match=t.dropped / t.matches if t.matches else 0.0,
                    tie_breaks=tuple(keys[pid]),
                    marks=tuple(t.marks),
                    status=p.status,
                    rating=p.rating,
                )
            )
        position += len(group)
    return rows


def _split(ordered: list[str], values: Mapping[str, float]) -> list[list[str]]:
    """Cut a list ordered by ``values`` where the value changes; values closer than
    rounding noise (sums of halves times factors) count as equal."""
    groups: list[list[str]] = []
    last = 0.0
    for pid in ordered:
        if groups and abs(values[pid] - last) < 1e-9:
            groups[-1].append(pid)
        else:
            groups.append([pid])
        last = values[pid]
    return groups


def _score_round(
    rnd: RoundResult,
    tally: dict[str, _Tally],
    players: Iterable[StandingsPlayer],
    settings: ScoringSettings,
) -> None:
    seen: set[str] = set()

    def take(pid: str) -> _Tally:
        if pid not in tally:
            raise ValueError(f"round {rnd.number}: unknown player {pid!r}")
        if pid in seen:
            raise ValueError(f"round {rnd.number}: player {pid!r} appears twice")
        seen.add(pid)
        return tally[pid]

    for table in rnd.tables:
        n = len(table.seats)
        if table.factor is not None:
            factor = table.factor
        elif table.teams is None:
            factor = settings.factor_for(n)
        else:
            raise ValueError(f"round {rnd.number}: team tables need an explicit factor")
        match = [0.0] * n
        wins = [0] * n
        for game in table.games:
            if len(game.out) != n:
                raise ValueError(f"round {rnd.number}: a game has the wrong number of seats")
            scores = settings.game_scores(game.out, table.teams)
            for seat in range(n):
                match[seat] += scores[seat]
            if game.finished:
                # A win: strictly the best dropped score of the game (3:3 is a draw).
                best = max(scores)
                winners = [s for s in range(n) if scores[s] == best]
                if len(set(scores)) > 1:
                    for s in winners:
                        wins[s] += 1
        # A match is (n - 1)! games (section 21); teams play 2 sides, so 1 game per match.
        sides = n if table.teams is None else len(table.teams)
        per_match = factorial(sides - 1)
        weighted = [m * factor for m in match]
        for seat, pid in enumerate(table.seats):
            t = take(pid)
            t.score += weighted[seat]
            t.rounds += 1
            t.games += len(table.games)
            t.matches += len(table.games) / per_match
            t.dropped += match[seat]
            t.wins += wins[seat]
            t.marks.append("table")
            mates = [(m, weighted[i]) for i, m in enumerate(table.seats) if i != seat]
            t.tables.append((weighted[seat], mates))
    for pid in rnd.byes:
        t = take(pid)
        t.score += settings.bye_round_score()
        t.marks.append("bye")
    for pid in rnd.absent:
        t = take(pid)
        t.score += settings.absence_score
        t.marks.append("absent")
    for p in players:
        if p.id not in seen:
            # Not seated, no bye, not marked absent: late (before entry) or absent.
            late = rnd.number < p.first_round
            if late:
                missed = settings.late_score if p.late_score is None else p.late_score
                tally[p.id].score += missed
            else:
                tally[p.id].score += settings.absence_score
            tally[p.id].marks.append("late" if late else "absent")


def _opponents(t: _Tally, tally: dict[str, _Tally]) -> list[float]:
    """Opponents' score per table: the mean final score of the table-mates (Buchholz
    adapted to tables of 2 or 3). Byes and absences add nothing."""
    return [sum(tally[m].score for m, _ in mates) / len(mates) for _, mates in t.tables if mates]


def _direct(t: _Tally, group: frozenset[str]) -> float:
    """Direct encounter among the players still tied: the net weighted round score against
    each tied table-mate (own minus theirs), summed; zero-sum within the group."""
    total = 0.0
    for own, mates in t.tables:
        for mate, theirs in mates:
            if mate in group:
                total += own - theirs
    return total
