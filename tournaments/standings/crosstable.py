"""The crosstable of a Swiss tournament, a league or a team event, Django-free.

For each player against each opponent: the head-to-head dropped score she got in every
game they shared, with totals. The head-to-head score of a game is the tournament's
scoring applied to the two players' result alone: for Pentagame the book's rule,
"everyone gets as many points as she has moved out pieces, plus the amount of pieces
the opponent has *failed* to move out" (section 21), so a cell and its mirror always add
up to 6 per game. At a 2-player table it is the dropped score itself; at a 3-player table
each pair at the table counts, and a player's dropped score in the game is the mean of
her two head-to-head scores. At a team table the opponents are the other team's players
and the head-to-head score is the team's dropped score; team-mates get no cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.scoring import DEFAULT_SETTINGS, ScoringSettings


@dataclass(frozen=True)
class SharedTable:
    """One table of one round: players by seat, and the pieces out per seat of each
    game with a result. ``teams`` (seat indexes per team) for a team table."""

    round: int
    seats: tuple[str, ...]
    games: tuple[tuple[int, ...], ...] = ()
    teams: tuple[tuple[int, ...], ...] | None = None
    # A 3-player match tied at the top and settled by the two leaders' decider (sections
    # 3 and 18): (winner, loser) as seat indexes. It enters no score, so no cell total.
    decider: tuple[int, int] | None = None


@dataclass(frozen=True)
class Encounter:
    """A round in which two players shared a table: the head-to-head score of each game
    (empty while the round is only scheduled, as in a league's fixed schedule), and
    whether the row player "won" or "lost" the table's decider against this opponent."""

    round: int
    scores: tuple[float, ...] = ()
    decider: str = ""

    @property
    def played(self) -> bool:
        return bool(self.scores)


@dataclass
class Cell:
    encounters: list[Encounter] = field(default_factory=list)

    @property
    def total(self) -> float:
        return sum(sum(e.scores) for e in self.encounters)

    @property
    def games(self) -> int:
        return sum(len(e.scores) for e in self.encounters)

    @property
    def played(self) -> bool:
        return any(e.played for e in self.encounters)


@dataclass
class CrossRow:
    player: str
    cells: dict[str, Cell]

    @property
    def total(self) -> float:
        return sum(c.total for c in self.cells.values())

    @property
    def games(self) -> int:
        """Games played, each once however many opponents shared its table: per round,
        the games of her table (the standings count the same way). Summing the cells
        would count a 3-player table's game twice, once per opponent."""
        per_round: dict[int, int] = {}
        for cell in self.cells.values():
            for encounter in cell.encounters:
                played = len(encounter.scores)
                per_round[encounter.round] = max(per_round.get(encounter.round, 0), played)
        return sum(per_round.values())

    def cell(self, opponent: str) -> Cell | None:
        return self.cells.get(opponent)


def crosstable(
    players: Sequence[str],
    tables: Iterable[SharedTable],
    settings: ScoringSettings = DEFAULT_SETTINGS,
    scheduled: Iterable[tuple[int, Sequence[str]]] = (),
) -> list[CrossRow]:
    """One row per player, in the order given (e.g. the standings'). ``scheduled`` lists
    (round, players of a table) meetings still to come; a table of ``tables`` without
    games counts as scheduled too. Players not in ``players`` are left out."""
    order = list(players)
    known = set(order)
    rows = {p: CrossRow(p, {}) for p in order}
    for table in tables:
        for i, j in _opponents(table):
            a, b = table.seats[i], table.seats[j]
            if a not in known or b not in known:
                continue
            rows[a].cells.setdefault(b, Cell()).encounters.append(
                Encounter(table.round, _head_to_head(table, i, j, settings), _decider(table, i, j))
            )
            rows[b].cells.setdefault(a, Cell()).encounters.append(
                Encounter(table.round, _head_to_head(table, j, i, settings), _decider(table, j, i))
            )
    for number, seats in scheduled:
        for k, a in enumerate(seats):
            for b in seats[k + 1 :]:
                if a not in known or b not in known:
                    continue
                for x, y in ((a, b), (b, a)):
                    cell = rows[x].cells.setdefault(y, Cell())
                    if all(e.round != number for e in cell.encounters):
                        cell.encounters.append(Encounter(number))
    for row in rows.values():
        for cell in row.cells.values():
            cell.encounters.sort(key=lambda e: e.round)
    return [rows[p] for p in order]


def _opponents(table: SharedTable) -> list[tuple[int, int]]:
    n = len(table.seats)
    team_of = {}
    if table.teams is not None:
        team_of = {seat: t for t, members in enumerate(table.teams) for seat in members}
    return [
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if table.teams is None or team_of.get(i) != team_of.get(j)
    ]


def _decider(table: SharedTable, i: int, j: int) -> str:
    if table.decider == (i, j):
        return "won"
    if table.decider == (j, i):
        return "lost"
    return ""


def _head_to_head(
    table: SharedTable, i: int, j: int, settings: ScoringSettings
) -> tuple[float, ...]:
    if table.teams is not None:
        return tuple(settings.game_scores(out, table.teams)[i] for out in table.games)
    return tuple(settings.game_scores((out[i], out[j]))[0] for out in table.games)


def team_crosstable(
    teams: Sequence[str],
    tables: Iterable[SharedTable],
    team_of: Mapping[str, str],
    settings: ScoringSettings = DEFAULT_SETTINGS,
) -> list[CrossRow]:
    """A 2 vs 2 event's crosstable: one row per team, in the order given. Each team
    table (two ``teams`` of seats) is a meeting of the two teams its players belong to
    (``team_of``: player to team); a cell holds the row team's dropped score in each
    game, so a cell and its mirror add up to twice the team target per game. Tables of
    players outside ``teams`` are left out."""
    order = list(teams)
    known = set(order)
    rows = {t: CrossRow(t, {}) for t in order}
    for table in tables:
        if table.teams is None or len(table.teams) != 2:
            continue
        sides = [team_of.get(table.seats[members[0]]) for members in table.teams]
        a, b = sides
        if a is None or b is None or a == b or a not in known or b not in known:
            continue
        scores = [settings.game_scores(out, table.teams) for out in table.games]
        for (me, other), members in zip(((a, b), (b, a)), table.teams, strict=True):
            rows[me].cells.setdefault(other, Cell()).encounters.append(
                Encounter(table.round, tuple(s[members[0]] for s in scores))
            )
    for row in rows.values():
        for cell in row.cells.values():
            cell.encounters.sort(key=lambda e: e.round)
    return [rows[t] for t in order]
