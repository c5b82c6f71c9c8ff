"""A fixed league schedule (round robin), Django-free: the book's first system.

Section 21: "One is the round-robin or 'league' system, where everyone plays everyone
else once (or twice). It has the disadvantage to be lengthy, plus you need very
committed players. To run such a system with both two and three player tables is
complicated."

* 2-player tables (every even field, and policy "pairs+bye"): Berger tables. An odd field
  gets a dummy player, whose opponent has the bye. Seat 0 moves first in game 1
  (first_move.game_orders), so it plays the part of White: every player has it in half
  her games, give or take one. A double league plays the cycle again with the seats
  reversed, so each pair has each seat once.
* Fields that need 3-player tables: the whole schedule is one design in which every pair
  of players shares a table exactly once, where such a design exists (Kirkman triple
  systems for 9 and 15 players at tables of three, Kirkman frames such as 8 or 14 players
  at 3-3-2 tables, 9 players at one 3-player table and three 2-player tables); otherwise
  every pair meets at least once with as few repeated meetings as found, and the
  schedule states the deviation (pairs that never meet, pairs that meet again).

The schedule is deterministic: the same players in the same order give the same schedule.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, cast

from tournaments.pairing.layout import Layout, layouts
from tournaments.pairing.types import POLICIES, Policy

# Local search budget per attempted number of rounds: moves tried, restarts.
SEARCH_MOVES = 30_000
SEARCH_RESTARTS = 3
# How many rounds beyond the arithmetic minimum the search may add so that every pair
# meets at least once.
EXTRA_ROUNDS = 2
# A pair that never meets weighs more than a pair that meets twice: a league's promise is
# "everyone plays everyone else".
UNMET_COST = 6

# Kirkman's schoolgirls (1850): 15 players, 7 rounds of five tables of three.
_KTS15 = (
    ("ABJ", "CEM", "FKL", "HIN", "DGO"),
    ("ACH", "DEI", "FGM", "JLN", "BKO"),
    ("ADL", "BHM", "GIK", "CFN", "EJO"),
    ("AEG", "BIL", "CJK", "DMN", "FHO"),
    ("AFI", "BCD", "GHJ", "EKN", "LMO"),
    ("AKM", "DFJ", "EHL", "BGN", "CIO"),
    ("BEF", "CGL", "DHK", "IJM", "ANO"),
)


# 8 players at 3-3-2 tables, 4 rounds (a Kirkman frame of type 2^4): the players 2g and
# 2g + 1 meet at the 2-player table in round g, and each 3-player table takes one player
# from each of the other three pairs.
_FRAME8 = (
    ((2, 4, 6), (3, 5, 7), (0, 1)),
    ((0, 4, 7), (1, 5, 6), (2, 3)),
    ((0, 3, 6), (1, 2, 7), (4, 5)),
    ((0, 2, 5), (1, 3, 4), (6, 7)),
)


# Schedules at the counting minimum of rounds (``_min_rounds``) for fields where the
# local search below needs one round more. They were found by an exact search
# (bench/league_designs.py) and are checked by the tests: every pair meets, none more
# than twice. Keyed by (players, 2-player tables, 3-player tables).
_SOLVED: dict[tuple[int, int, int], tuple[tuple[tuple[int, ...], ...], ...]] = {
    # 11 players at 3-2-2-2-2 tables, 8 rounds (the search: 9); one pair meets twice.
    (11, 4, 1): (
        ((0, 1, 2), (3, 4), (5, 6), (7, 8), (9, 10)),
        ((1, 3, 5), (0, 7), (2, 10), (4, 8), (6, 9)),
        ((4, 5, 10), (0, 9), (1, 6), (2, 7), (3, 8)),
        ((2, 6, 8), (0, 3), (1, 10), (4, 9), (5, 7)),
        ((3, 7, 9), (0, 5), (1, 6), (2, 4), (8, 10)),
        ((6, 7, 10), (0, 8), (1, 4), (2, 3), (5, 9)),
        ((1, 8, 9), (0, 10), (2, 5), (3, 6), (4, 7)),
        ((0, 4, 6), (1, 7), (2, 9), (3, 10), (5, 8)),
    ),
    # 11 players at 3-3-3-2 tables, 6 rounds (the search: 7); five pairs meet twice.
    (11, 1, 3): (
        ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10)),
        ((0, 1, 9), (2, 3, 6), (4, 7, 10), (5, 8)),
        ((0, 4, 6), (1, 3, 10), (5, 7, 9), (2, 8)),
        ((1, 2, 7), (3, 8, 9), (4, 6, 10), (0, 5)),
        ((0, 8, 10), (1, 5, 6), (2, 4, 9), (3, 7)),
        ((0, 3, 7), (1, 4, 8), (2, 5, 10), (6, 9)),
    ),
}


@dataclass(frozen=True)
class LeagueRound:
    """One round (turn): its tables, seat 0 first, and who has a bye."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LeagueSchedule:
    """The whole league, fixed at the start.

    ``never`` lists the pairs that share no table in a cycle, ``again`` the pairs that
    share more than one (with how often): both are empty when every pair meets exactly
    once per cycle.
    """

    players: tuple[str, ...]
    policy: Policy
    cycles: int
    rounds: tuple[LeagueRound, ...]
    never: tuple[tuple[str, str], ...] = ()
    again: tuple[tuple[str, str, int], ...] = field(default=())

    @property
    def exact(self) -> bool:
        return not self.never and not self.again

    def meetings(self) -> Counter[frozenset[str]]:
        """How often each pair shares a table over the whole schedule."""
        return _meetings(self.rounds)

    def as_json(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "policy": self.policy,
            "cycles": self.cycles,
            "rounds": [
                {"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in self.rounds
            ],
            "never": [list(p) for p in self.never],
            "again": [list(p) for p in self.again],
        }

    @classmethod
    def from_json(cls, data: Any) -> LeagueSchedule:
        """The stored form back; raises ValueError when it is not a schedule."""
        try:
            policy = data["policy"]
            if policy not in POLICIES:
                raise ValueError(f"unknown policy {policy!r}")
            rounds = tuple(
                LeagueRound(
                    tables=tuple(tuple(str(s) for s in t) for t in r["tables"]),
                    byes=tuple(str(s) for s in r.get("byes", ())),
                )
                for r in data["rounds"]
            )
            return cls(
                players=tuple(str(p) for p in data["players"]),
                policy=cast(Policy, policy),
                cycles=int(data["cycles"]),
                rounds=rounds,
                never=tuple((str(a), str(b)) for a, b in data.get("never", ())),
                again=tuple((str(a), str(b), int(c)) for a, b, c in data.get("again", ())),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a league schedule: {exc}") from None


def league_schedule(
    players: Sequence[str], policy: Policy = "pairs+bye", cycles: int = 1
) -> LeagueSchedule:
    """The schedule for ``players`` (in seed order) at the policy's preferred table
    layout; ``cycles`` 1 (everyone meets everyone once) or 2 (twice)."""
    ids = [str(p) for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("player ids must be unique")
    if len(ids) < 2:
        raise ValueError("a league needs at least two players")
    if cycles not in (1, 2):
        raise ValueError("a league has one or two cycles")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    layout = layouts(policy, len(ids))[0]
    if layout.triples == 0:
        cycle = berger_rounds(ids)
    else:
        cycle = _balance_seats(_design_rounds(ids, layout))
    never, again = deviation(ids, cycle)
    rounds = list(cycle)
    if cycles == 2:
        rounds += [LeagueRound(tuple(tuple(reversed(t)) for t in r.tables), r.byes) for r in cycle]
    return LeagueSchedule(tuple(ids), policy, cycles, tuple(rounds), never, again)


def berger_rounds(players: Sequence[str]) -> list[LeagueRound]:
    """Berger tables: the circle method, with the last player fixed (a dummy when the
    field is odd: her opponent has the bye). In round r the player at position r meets
    the fixed one, and the players at r + k and r - k meet for k = 1 .. n/2 - 1; the one at
    r + k takes seat 0. Each circle player is thus seat 0 in n/2 - 1 of her circle games
    and seat 1 in as many; the fixed player alternates, so nobody's seats differ by more
    than one. The rounds follow Berger's order (r advancing by n/2), which alternates
    seats from round to round for most players."""
    ids = list(players)
    dummy = len(ids) % 2 == 1
    n = len(ids) + int(dummy)
    circle = n - 1
    fixed = None if dummy else ids[-1]
    ring = ids if dummy else ids[:-1]
    half = n // 2
    rounds: list[LeagueRound] = []
    for i in range(circle):
        r = (i * half) % circle
        tables: list[tuple[str, ...]] = []
        byes: tuple[str, ...] = ()
        first = ring[r]
        if fixed is None:
            byes = (first,)
        else:
            tables.append((first, fixed) if i % 2 == 0 else (fixed, first))
        for k in range(1, half):
            tables.append((ring[(r + k) % circle], ring[(r - k) % circle]))
        rounds.append(LeagueRound(tuple(tables), byes))
    return rounds


def deviation(
    players: Sequence[str], rounds: Iterable[LeagueRound]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str, int], ...]]:
    """Pairs that never share a table, and pairs that share more than one (with the
    count), in seed order."""
    met = _meetings(rounds)
    never: list[tuple[str, str]] = []
    again: list[tuple[str, str, int]] = []
    for a, b in combinations(players, 2):
        count = met[frozenset((a, b))]
        if count == 0:
            never.append((a, b))
        elif count > 1:
            again.append((a, b, count))
    return tuple(never), tuple(again)


def exact_design_possible(n: int, layout: Layout) -> bool:
    """Counting conditions for a cycle in which every pair meets exactly once at this
    layout: whole rounds cover the pairs, and every player's n - 1 table-mates fit her
    rounds. (Necessary; the schedules found meet them for 4 to 16 players.)"""
    pairs = n * (n - 1) // 2
    per_round = layout.pairs + 3 * layout.triples
    if per_round == 0 or pairs % per_round:
        return False
    rounds = pairs // per_round
    if layout.bye:
        return False
    # A player at t triples and rounds - t pairs has rounds + t table-mates.
    triples_each = n - 1 - rounds
    return 0 <= triples_each <= rounds and n * triples_each == 3 * layout.triples * rounds


def _meetings(rounds: Iterable[LeagueRound]) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for r in rounds:
        for table in r.tables:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


def _min_rounds(n: int, layout: Layout) -> int:
    """The fewest rounds in which every pair could meet: enough pairs per round, and
    enough table-mates for each player (a round gives 1 at a 2-player table, 2 at a
    3-player table)."""
    pairs = n * (n - 1) // 2
    per_round = layout.pairs + 3 * layout.triples
    rounds = max(math.ceil(pairs / per_round), math.ceil((n - 1) / 2))
    while n * (n - 1 - rounds) > 3 * layout.triples * rounds:
        rounds += 1
    return rounds


def _design_rounds(players: Sequence[str], layout: Layout) -> list[LeagueRound]:
    n = len(players)
    known = _known_design(n, layout)
    if known is None and layout.pairs == 1 and n % 2 == 0:
        known = _cyclic_frame(n // 2)
    if known is None and n == 8 and layout == Layout(1, 2, False):
        known = [[tuple(t) for t in r] for r in _FRAME8]
    if known is None and n == 9 and layout.triples == 1:
        known = _nine_at_one_triple()
    if known is None and not layout.bye and (n, layout.pairs, layout.triples) in _SOLVED:
        known = [list(r) for r in _SOLVED[n, layout.pairs, layout.triples]]
    if known is not None:
        return [LeagueRound(tuple(tuple(players[i] for i in t) for t in r)) for r in known]
    start = _min_rounds(n, layout)
    best = _search(n, layout, start)
    for rounds in range(start + 1, start + EXTRA_ROUNDS + 1):
        if best[0] == 0:
            break
        unmet, found = _search(n, layout, rounds)
        if unmet < best[0]:
            best = (unmet, found)
        if unmet == 0:
            break
    return [LeagueRound(tuple(tuple(players[i] for i in t) for t in r)) for r in best[1]]


def _known_design(n: int, layout: Layout) -> list[list[tuple[int, ...]]] | None:
    """Kirkman triple systems built rather than searched: the lines of the affine space
    over three elements for 9, 27, 81 players, Kirkman's own solution for 15."""
    if layout.pairs or layout.bye:
        return None
    if n == 15:
        return [[tuple(ord(c) - ord("A") for c in t) for t in r] for r in _KTS15]
    m = 2
    while 3**m < n:
        m += 1
    if 3**m != n:
        return None
    return _affine_lines(m)[1]


def _affine_lines(m: int) -> tuple[list[tuple[int, ...]], list[list[tuple[int, ...]]]]:
    """The points of the affine space over three elements (index = base-3 number) and
    its lines, one list per parallel class."""
    points = list(product(range(3), repeat=m))
    index = {p: i for i, p in enumerate(points)}
    # One direction per parallel class: its first nonzero coordinate is 1.
    directions = [d for d in points if any(d) and d[next(i for i, x in enumerate(d) if x)] == 1]
    classes: list[list[tuple[int, ...]]] = []
    for d in directions:
        seen: set[int] = set()
        lines: list[tuple[int, ...]] = []
        for p in points:
            if index[p] in seen:
                continue
            line = tuple(index[tuple((p[i] + k * d[i]) % 3 for i in range(m))] for k in range(3))
            seen.update(line)
            lines.append(line)
        classes.append(lines)
    return points, classes


def _nine_at_one_triple() -> list[list[tuple[int, ...]]]:
    """9 players at one 3-player and three 2-player tables, 6 rounds, every pair once.
    In the affine plane of order 3 take the lines of two parallel classes A and B as the
    3-player tables. With a line T of A at the 3-player table, every line of a third
    class C meets T in one point and the other two lines of A in one each: its edge away
    from T is a 2-player table, and the three such edges seat the other six. Over the
    three lines of A each edge of C is used once; B does the same with the fourth class."""
    _, (a, b, c, d) = _affine_lines(2)
    rounds: list[list[tuple[int, ...]]] = []
    for triples, others in ((a, c), (b, d)):
        for t in triples:
            edges = [tuple(p for p in line if p not in t) for line in others]
            rounds.append([t, *edges])
    return rounds


def _cyclic_frame(u: int) -> list[list[tuple[int, ...]]] | None:
    """2u players at one 2-player table and (2u - 2) / 3 tables of three, u rounds,
    every pair once (a Kirkman frame of type 2^u), found as a cyclic design: players are
    (x, s) with x mod u and s in {0, 1}; in round i the pair (i, 0)-(i, 1) plays at the
    2-player table and base triples shifted by i fill the rest. The base triples must
    cover every difference class once; they are found by a small backtracking search.
    Odd u only (an even u has a half-length difference class)."""
    if u % 2 == 0 or (2 * u - 2) % 3 or u < 3:
        return None

    def orbit(p: int, q: int) -> tuple[int, int]:
        (x, s), (y, t) = divmod(p, 2), divmod(q, 2)
        if s == t:
            d = (y - x) % u
            return (s, min(d, u - d))
        if s == 1:
            x, y = y, x
        return (2, (y - x) % u)

    free = list(range(2, 2 * u))  # players 0 and 1 are (0, 0) and (0, 1): the pair
    used: set[tuple[int, int]] = set()
    triples: list[tuple[int, int, int]] = []
    budget = [200_000]

    def solve(rest: list[int]) -> bool:
        if not rest:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        a = rest[0]
        for i, b in enumerate(rest[1:], start=1):
            ab = orbit(a, b)
            if ab in used:
                continue
            for c in rest[i + 1 :]:
                ac, bc = orbit(a, c), orbit(b, c)
                if len({ab, ac, bc}) < 3 or ac in used or bc in used:
                    continue
                used.update((ab, ac, bc))
                triples.append((a, b, c))
                if solve([p for p in rest if p not in (a, b, c)]):
                    return True
                triples.pop()
                used.difference_update((ab, ac, bc))
        return False

    if not solve(free):
        return None

    def shift(p: int, i: int) -> int:
        x, s = divmod(p, 2)
        return 2 * ((x + i) % u) + s

    return [
        [tuple(shift(p, i) for p in t) for t in triples] + [(2 * i, 2 * i + 1)] for i in range(u)
    ]


def _search(n: int, layout: Layout, rounds: int) -> tuple[int, list[list[list[int]]]]:
    """Local search (simulated annealing over swaps of two players of one round at
    different tables) for ``rounds`` rounds at ``layout``; returns the number of pairs
    that never meet and the best schedule found. Seeded by the field, so deterministic."""
    sizes = [3] * layout.triples + [2] * layout.pairs
    bounds: list[tuple[int, int]] = []
    pos = 0
    for size in sizes:
        bounds.append((pos, pos + size))
        pos += size
    table_of_slot = [k for k, (lo, hi) in enumerate(bounds) for _ in range(lo, hi)]
    rng = random.Random(f"league-{n}-{layout.pairs}-{layout.triples}-{rounds}")
    # Every seat beyond the n(n - 1)/2 pairs is a repeated meeting: the least cost.
    floor = max(0, rounds * (layout.pairs + 3 * layout.triples) - n * (n - 1) // 2)

    def cost(c: int) -> int:
        return UNMET_COST if c == 0 else (c - 1) * (c - 1)

    best: tuple[int, list[list[int]]] | None = None
    for _ in range(SEARCH_RESTARTS):
        slots = [rng.sample(range(n), n) for _ in range(rounds)]
        met = [[0] * n for _ in range(n)]
        for row in slots:
            for lo, hi in bounds:
                for a, b in combinations(row[lo:hi], 2):
                    met[a][b] += 1
                    met[b][a] += 1
        current = sum(cost(met[a][b]) for a, b in combinations(range(n), 2))
        snapshot = (current, [list(r) for r in slots])
        temperature = 2.0
        for step in range(SEARCH_MOVES):
            if current <= floor:
                break
            if step % 1000 == 999:
                temperature = max(0.05, temperature * 0.85)
            r = rng.randrange(rounds)
            row = slots[r]
            i = rng.randrange(n)
            j = rng.randrange(n)
            if step % 4 == 0:
                # Aimed: bring someone the player at slot i has not met to her table,
                # in place of one of her table-mates.
                p = row[i]
                strangers = [q for q in range(n) if q != p and met[p][q] == 0]
                if strangers:
                    lo, hi = bounds[table_of_slot[i]]
                    i = rng.choice([s for s in range(lo, hi) if s != i])
                    j = row.index(rng.choice(strangers))
            ti, tj = table_of_slot[i], table_of_slot[j]
            if ti == tj:
                continue
            a, b = row[i], row[j]
            mates_a = [row[s] for s in range(*bounds[ti]) if s != i]
            mates_b = [row[s] for s in range(*bounds[tj]) if s != j]
            delta = 0
            for x in mates_a:
                delta += cost(met[a][x] - 1) - cost(met[a][x])
                delta += cost(met[b][x] + 1) - cost(met[b][x])
            for y in mates_b:
                delta += cost(met[b][y] - 1) - cost(met[b][y])
                delta += cost(met[a][y] + 1) - cost(met[a][y])
            if delta > 0 and rng.random() >= math.exp(-delta / temperature):
                continue
            for x in mates_a:
                met[a][x] -= 1
                met[x][a] -= 1
                met[b][x] += 1
                met[x][b] += 1
            for y in mates_b:
                met[b][y] -= 1
                met[y][b] -= 1
                met[a][y] += 1
                met[y][a] += 1
            row[i], row[j] = b, a
            current += delta
            if current < snapshot[0]:
                snapshot = (current, [list(r) for r in slots])
        if best is None or snapshot[0] < best[0]:
            best = snapshot
        if best[0] <= floor:
            break
    found = best[1] if best is not None else []
    schedule = [[sorted(row[lo:hi]) for lo, hi in bounds] for row in found]
    return _unmet(n, found, bounds), schedule


def _unmet(n: int, slots: list[list[int]], bounds: list[tuple[int, int]]) -> int:
    met: set[tuple[int, int]] = set()
    for row in slots:
        for lo, hi in bounds:
            for a, b in combinations(sorted(row[lo:hi]), 2):
                met.add((a, b))
    return n * (n - 1) // 2 - len(met)


def _balance_seats(rounds: list[LeagueRound]) -> list[LeagueRound]:
    """Seat 0 (who moves first in game 1, and at a 3-player table in both games of the
    match, clockwise and widdershins) goes to the table's player who has had it least,
    relative to her tables so far; ties to the earlier seed (the order given)."""
    firsts: Counter[str] = Counter()
    sat: Counter[str] = Counter()
    out: list[LeagueRound] = []
    for r in rounds:
        tables: list[tuple[str, ...]] = []
        for table in r.tables:
            lead = min(table, key=lambda p: (firsts[p] - sat[p] / 2, firsts[p], table.index(p)))
            rest = [p for p in table if p != lead]
            tables.append((lead, *rest))
            firsts[lead] += 1
            for p in table:
                sat[p] += 1
        out.append(LeagueRound(tuple(tables), r.byes))
    return out
