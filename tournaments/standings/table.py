"""Standings of a Swiss tournament or club evening, Django-free (issue 4, section 5).

Section 21: "Rank players per score", "Make sure to record ranking, score and number of
turns" and "You can compare average scores per game and match." Scores are the book's
dropped scores with the time weighting (tournaments.scoring). Tie-breaks come in an
order the organiser chooses; players tied on score and on every chosen tie-break share
their rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from math import factorial
from typing import Literal

from tournaments.scoring import DEFAULT_SETTINGS, ScoringSettings

Status = Literal["active", "withdrawn", "late"]
TieBreak = Literal[
    "opponents", "median", "direct", "wins", "rating", "per_game", "per_match", "seated_after"
]
# Every tie-break there is, in the default order (the first five; the book's averages and
# section 3's fine tuning are there to be chosen).
ALL_TIE_BREAKS: tuple[TieBreak, ...] = (
    "opponents",
    "median",
    "direct",
    "wins",
    "rating",
    "per_game",
    "per_match",
    "seated_after",
)
TIE_BREAKS: tuple[TieBreak, ...] = ALL_TIE_BREAKS[:5]
# What a player did in a round (turn): sat at a table, had the bye, was absent, or had
# not entered yet.
Mark = Literal["table", "bye", "absent", "late"]
# Games in a 2 vs 2 match: "a match (of two games, one clockwise, one anti-clockwise)"
# (section 21).
TEAM_MATCH_GAMES = 2


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
    before anyone won; the pieces out so far count (section 21's turns of ca. 40 min).
    ``order``: seat indexes in the order they moved (None: seat order), which only the
    ``seated_after`` tie-break reads."""

    out: tuple[int, ...]
    finished: bool = True
    order: tuple[int, ...] | None = None

    @classmethod
    def unplayed(cls, seats: int, order: tuple[int, ...] | None = None) -> GameResult:
        """A game the turn ended before it started: an unfinished game with no piece out,
        the book's 3:3 (target each), so every table hands out its full total."""
        return cls((0,) * seats, finished=False, order=order)


@dataclass(frozen=True)
class TableResult:
    seats: tuple[str, ...]
    games: tuple[GameResult, ...]
    factor: float | None = None  # None: the settings' factor for the table size
    teams: tuple[tuple[int, ...], ...] | None = None  # seat indexes per team (section 19)
    # The seat index of the winner of the table's decider (sections 3 and 18: "let the
    # two leaders in score play a two player to settle the issue"). The decider is no
    # game of the turn: its score enters no round score, average or game count; its win
    # counts in the `wins` tie-break, as a game she won.
    decider_winner: int | None = None


@dataclass(frozen=True)
class RoundResult:
    number: int
    tables: tuple[TableResult, ...]
    byes: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    # False: a pre-round whose scores do not count (docs/pairing.md, "Pre-round"): its
    # players are marked as having played it (so they are ranked), nothing more.
    counts: bool = True


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
    # Dropped score per (n - 1)! games: each match's total over its games, so a 3-player
    # match (2 games) and a 2-player one (1 game) are on one scale.
    match_dropped: float = 0.0
    wins: int = 0
    marks: list[Mark] = field(default_factory=list)
    # Per table the player sat at: (round score, table-mates with their round scores).
    tables: list[tuple[float, list[tuple[str, float]]]] = field(default_factory=list)
    # Per game: (time factor, own dropped score, the player who moved just before her).
    after: list[tuple[float, float, str]] = field(default_factory=list)

    @property
    def per_game(self) -> float:
        return self.dropped / self.games if self.games else 0.0

    @property
    def per_match(self) -> float:
        return self.match_dropped / self.matches if self.matches else 0.0


def compute_standings(
    players: Sequence[StandingsPlayer],
    rounds: Sequence[RoundResult],
    tie_breaks: Sequence[TieBreak] = TIE_BREAKS,
    settings: ScoringSettings = DEFAULT_SETTINGS,
) -> list[StandingRow]:
    """Ranked rows, best first. Raises ValueError for unknown players or a player seated
    twice in one round."""
    for name in tie_breaks:
        if name not in ALL_TIE_BREAKS:
            raise ValueError(f"unknown tie-break {name!r}")
    tally = {p.id: _Tally() for p in players}
    if len(tally) != len(players):
        raise ValueError("player ids must be unique")
    for rnd in rounds:
        if rnd.counts:
            _score_round(rnd, tally, players, settings)
        else:
            _mark_round(rnd, tally, players, settings)

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
        if name == "per_game":
            return tally[pid].per_game
        if name == "per_match":
            return tally[pid].per_match
        if name == "seated_after":
            return _seated_after(tally[pid], tally, settings)
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
                    average_per_game=t.per_game,
                    average_per_match=t.per_match,
                    tie_breaks=tuple(keys[pid]),
                    marks=tuple(t.marks),
                    status=p.status,
                    rating=p.rating,
                )
            )
        position += len(group)
    return rows


def ranked_apart(rows: Sequence[StandingRow]) -> tuple[list[StandingRow], list[StandingRow]]:
    """The rows ranked, and those listed apart (docs/standings.md, "Who is ranked"). A
    player is ranked once she has taken part in a closed round: sat at a table, or had a
    bye (the pairing's, or one she asked for). One who has done neither (entered but
    never checked in at a club evening, a no-show, a late entrant whose first round is
    not closed yet) would be ranked on absence or missed-round points alone, as if she
    had played; she is listed apart, without a rank. The ranks of the others
    close up, players tied still sharing theirs. Before any round is closed nobody has
    played, and every row stays (all even, by seed)."""
    if not any(row.marks for row in rows):
        return list(rows), []
    ranked: list[StandingRow] = []
    apart: list[StandingRow] = []
    for row in rows:
        (ranked if "table" in row.marks or "bye" in row.marks else apart).append(row)
    closed_up: list[StandingRow] = []
    before: int | None = None
    rank = 0
    for position, row in enumerate(ranked, start=1):
        if row.rank != before:
            before, rank = row.rank, position
        closed_up.append(row if row.rank == rank else replace(row, rank=rank))
    return closed_up, apart


@dataclass(frozen=True)
class Separation:
    """What tells two neighbouring rows of the standings apart: ``by`` "score" or the
    name of the first tie-break they differ on, ``gap`` by how much the upper row is
    ahead on it; ``by`` None: equal on the score and every tie-break, a shared place."""

    by: str | None
    gap: float = 0.0


def separation(
    upper: StandingRow, lower: StandingRow, tie_breaks: Sequence[TieBreak]
) -> Separation:
    """Why ``upper`` stands above ``lower`` (neighbours, ranked by ``compute_standings``
    with ``tie_breaks``): the score, else the first tie-break that split their group (the
    values of "direct" are those within the group they shared, as the ranking computed
    them), with the same tolerance as the ranking; equal on all is a shared place."""
    if abs(upper.score - lower.score) >= 1e-9:
        return Separation("score", upper.score - lower.score)
    for name, a, b in zip(tie_breaks, upper.tie_breaks, lower.tie_breaks, strict=False):
        if abs(a - b) >= 1e-9:
            return Separation(name, a - b)
    return Separation(None)


def separations(
    rows: Sequence[StandingRow], tie_breaks: Sequence[TieBreak]
) -> list[tuple[Separation | None, Separation | None]]:
    """For each row of ranked standings (best first), what separates it from the row
    above and from the row below (None: no such neighbour)."""
    between = [separation(a, b, tie_breaks) for a, b in zip(rows, rows[1:], strict=False)]
    return [
        (between[i - 1] if i > 0 else None, between[i] if i < len(between) else None)
        for i in range(len(rows))
    ]


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
        after: list[list[tuple[float, float, str]]] = [[] for _ in range(n)]
        for game in table.games:
            if len(game.out) != n:
                raise ValueError(f"round {rnd.number}: a game has the wrong number of seats")
            scores = settings.game_scores(game.out, table.teams)
            for seat in range(n):
                match[seat] += scores[seat]
            if game.finished:
                # A win: the best dropped score of the game alone. Seats sharing the best
                # score tied the game (section 2: "see if they can tie the game"), as
                # 3:3 at two; with teams both partners win.
                best = max(scores)
                winners = [s for s in range(n) if abs(scores[s] - best) < 1e-9]
                alone = len(winners) == 1 or (table.teams is not None and len(winners) < n)
                if alone:
                    for s in winners:
                        wins[s] += 1
            order = game.order if game.order is not None else tuple(range(n))
            if sorted(order) != list(range(n)):
                raise ValueError(f"round {rnd.number}: a game's moving order is not its seats")
            for k, seat in enumerate(order):
                before = table.seats[order[k - 1]]
                after[seat].append((factor, scores[seat], before))
        # A match is (n - 1)! games (section 21). A 2 vs 2 match is two games, "one
        # clockwise, one anti-clockwise" (section 21 on the '2 vs. 2' setup).
        per_match = factorial(n - 1) if table.teams is None else TEAM_MATCH_GAMES
        partners = _partners(table)
        weighted = [m * factor for m in match]
        if table.decider_winner is not None:
            wins[table.decider_winner] += 1
        for seat, pid in enumerate(table.seats):
            t = take(pid)
            t.score += weighted[seat]
            t.rounds += 1
            t.games += len(table.games)
            t.matches += len(table.games) / per_match
            t.dropped += match[seat]
            t.match_dropped += match[seat] / per_match
            t.after.extend(after[seat])
            t.wins += wins[seat]
            t.marks.append("table")
            # Table-mates are the opponents: a partner is no opponent (section 19).
            mates = [
                (m, weighted[i])
                for i, m in enumerate(table.seats)
                if i != seat and i not in partners[seat]
            ]
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


def _mark_round(
    rnd: RoundResult,
    tally: dict[str, _Tally],
    players: Iterable[StandingsPlayer],
    settings: ScoringSettings,
) -> None:
    """A round that does not count: each player's mark for it (table, bye, absent,
    late), checked as any round's, and no score, game, win or opponent."""
    scratch = {pid: _Tally() for pid in tally}
    _score_round(rnd, scratch, players, settings)
    for pid, t in scratch.items():
        tally[pid].marks.extend(t.marks)


def _partners(table: TableResult) -> list[frozenset[int]]:
    """Per seat index, the seats of its own side (empty for a table of single players)."""
    partners: list[frozenset[int]] = [frozenset()] * len(table.seats)
    for side in table.teams or ():
        for seat in side:
            partners[seat] = frozenset(side)
    return partners


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


def _seated_after(t: _Tally, tally: dict[str, _Tally], settings: ScoringSettings) -> float:
    """Section 3's fine tuning: "a score won seated after a strong player must count more
    than the same score won seated after a weak player". Each game's dropped score, times
    the time factor, times the strength of the player who moved just before her: that
    player's average dropped score per game over the tournament, divided by the even
    score (target). Against even players it is her score; the same score won after
    stronger players is worth more."""
    even = settings.even_game_score()
    total = 0.0
    for factor, own, before in t.after:
        strength = tally[before].per_game if tally[before].games else even
        total += factor * own * strength / even
    return total
