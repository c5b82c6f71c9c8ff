"""The book's pairing (section 21), the default method.

"Rank players per score. Working top-down, pair each player with the next player down
the list against whom she has not yet played." The criteria, in strict priority
(docs/pairing.md):

(a) no rematch while any arrangement avoids one (otherwise the fewest, oldest first),
    whatever the layout: how many 3-player tables, or a bye, as the policy allows;
(b) the policy's preferred layout;
(c) the 3-player table (policy "pairs+triple") or the bye (policy "pairs+bye") goes to the
    lowest score group that can hold it, by rotation among those who have had it least,
    then to the lowest ranks; never the leader pulled down to the last;
(d) the book's top-down rule, lexicographically: the highest-ranked unseated player gets
    the next player down she has not met, backtracking only as far as needed. Under
    "prefer-triples" she takes the next two down instead, and 2-player tables end up at
    the bottom.

The search is a depth-first walk in exactly that order, so the first complete
arrangement it finds is the book's. Dead ends are remembered by the set of players still
free, which keeps backtracking local. A matching test (Dirac's degree bound, else a
maximum matching) tells up front whether the 2-player tables can be rematch-free at all.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations

from tournaments.pairing.criteria import RECENT, REMATCH, TIMES, Encoder, Field
from tournaments.pairing.exact import Arrangement, solve_exact
from tournaments.pairing.layout import Layout
from tournaments.pairing.types import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.pairing.types import Policy

# Up to this many players every question is answered by exhaustive search.
EXACT_LIMIT = 16
# Search steps before a big field's search gives up on one layout (never reached in the
# benchmark's fields; the 2-player tables then fall back to the matching-guided walk).
NODE_LIMIT = 200_000
# How many of a score group's lowest players are considered for the special table on a
# big field (all of them up to EXACT_LIMIT players).
SPECIAL_POOL = 24

Table = tuple[int, ...]
# A dead end of the search: the top free player, the players below her already seated
# (bits relative to her), and the 2-player tables, 3-player tables and rematch budget left.
_Key = tuple[int, int, int, int, int]


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The search allocates a generator per step and nothing in a reference cycle; on a
    big field the cycle collector would scan the whole heap again and again (about 17 %
    of a 20,000-player pairing command's CPU, measured 2026-11-25). Reference counting
    still frees everything; the collector's previous state comes back afterwards (as in
    ratings/rate.py). The pairing command runs whole under it (cli.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Exhausted(Exception):
    """The search took more than NODE_LIMIT steps."""


class Book:
    """One round's field with the helpers the search needs."""

    def __init__(self, field: Field) -> None:
        self.field = field
        n = field.size
        self.blocked: list[set[int]] = [set() for _ in range(n)]
        for a, b in field.met_count:
            self.blocked[a].add(b)
            self.blocked[b].add(a)
        # Forbidden pairs alone, per player (``field.allowed`` as a set look-up).
        self.banned: list[set[int]] = [set() for _ in range(n)]
        for a, b in field.forbidden:
            self.blocked[a].add(b)
            self.blocked[b].add(a)
            self.banned[a].add(b)
            self.banned[b].add(a)
        w = Encoder.for_members(field, list(range(n))).weights
        base = w[RECENT]
        self.high = (w[REMATCH] // base, w[TIMES] // base)

    def pair_cost(self, a: int, b: int) -> int:
        """The rematch tiers of two players at one table, packed (0 = first meeting)."""
        rem, times, recent, _ = self.field.pair_tiers(a, b)
        return rem * self.high[0] + times * self.high[1] + recent

    def table_cost(self, seats: Sequence[int]) -> int:
        return sum(self.pair_cost(a, b) for a, b in combinations(seats, 2))

    def allowed(self, seats: Sequence[int]) -> bool:
        return all(self.field.allowed(a, b) for a, b in combinations(seats, 2))

    # --- can these players sit at 2-player tables with no rematch? ---------------------

    def dirac(self, members: Sequence[int]) -> bool:
        """Dirac's bound: everyone can still meet at least half the others, so there is
        a Hamiltonian cycle and with it a rematch-free pairing (an even count). A Swiss
        field a few rounds in always passes; a fast "yes", never a "no"."""
        k = len(members)
        inside = set(members)
        return k % 2 == 0 and all(k - 1 - len(self.blocked[a] & inside) >= k / 2 for a in members)

    def pairable(self, members: Sequence[int]) -> bool:
        k = len(members)
        if k % 2:
            return False
        if k == 0 or self.dirac(members):
            return True
        # Imported here, not at the top: networkx takes about 0.5 s to import, 90 % of a
        # pairing command's run, and most pairings never reach this line.
        import networkx as nx  # type: ignore[import-untyped]  # no stubs among the dependencies

        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(members)
        graph.add_edges_from(
            (a, b)
            for x, a in enumerate(members)
            for b in members[x + 1 :]
            if b not in self.blocked[a]
        )
        return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == k

    def guided_pairs(self, members: Sequence[int]) -> list[Table] | None:
        """The book's rematch-free 2-player tables, each step checked by ``pairable``:
        slower than the search but never stuck (the fallback on a pathological field)."""
        free = sorted(members)
        if not self.pairable(free):
            return None
        tables: list[Table] = []
        while free:
            p, rest = free[0], free[1:]
            for q in rest:
                if q in self.blocked[p]:
                    continue
                left = [x for x in rest if x != q]
                if self.pairable(left):
                    tables.append((p, q))
                    free = left
                    break
            else:  # pragma: no cover - pairable() promised a completion
                return None
        return tables

    # --- the top-down search ----------------------------------------------------------

    def search(
        self,
        members: Sequence[int],
        pairs: int,
        triples: int,
        budget: int,
        triples_first: bool,
        limit: int | None,
    ) -> list[Table] | None:
        """The first arrangement of ``members`` in top-down order with ``pairs`` 2-player
        and ``triples`` 3-player tables whose rematch cost is at most ``budget``; None if
        there is none. Raises _Exhausted after ``limit`` steps.

        A step costs the same at any field size. The free players are a doubly linked
        list in rank order (dancing links: a seated player is unlinked, and linked back
        in reverse order on backtracking), so the top free player is the list's head and
        the scan down the list skips the seated at no cost. A dead end is remembered by
        an exact, canonical key that is cheap to update: the top free player ``p`` and
        the players below her already seated, as bits relative to ``p`` (every member
        above ``p`` is seated, so these two give the set of free players); the bits
        reach only as far down as the lowest seated player, not the whole field."""
        if 2 * pairs + 3 * triples != len(members):
            return None
        if not members:
            return []
        with no_cycle_collection():
            return self._search(members, pairs, triples, budget, triples_first, limit)

    def _search(
        self,
        members: Sequence[int],
        pairs: int,
        triples: int,
        budget: int,
        triples_first: bool,
        limit: int | None,
    ) -> list[Table] | None:
        n = self.field.size
        blocked = self.blocked
        banned = self.banned
        pair_cost = self.pair_cost
        table_cost = self.table_cost
        end, head = n, n + 1
        # nxt/prv: the free members in rank order, between the sentinels head and end.
        nxt = [end] * (n + 2)
        prv = [head] * (n + 2)
        last = head
        for m in sorted(members):
            nxt[last] = m
            prv[m] = last
            last = m
        nxt[last] = end
        prv[end] = last

        def later(after: int) -> Iterator[int]:
            # Lazily: the next free player down is nearly always taken at once. The list
            # is as it was at the last yield whenever this resumes (deeper steps have
            # linked their players back).
            q = nxt[after]
            while q != end:
                yield q
                q = nxt[q]

        def options(p: int, np: int, nt: int, room: int) -> Iterator[tuple[Table, int, int, int]]:
            kinds = ("3", "2") if triples_first else ("2", "3")
            blocked_p = blocked[p]
            banned_p = banned[p]
            # First every option without a rematch, then (only if the budget allows one)
            # the others, each pass in the same top-down order.
            for with_rematch in (False, True):
                if with_rematch and room == 0:
                    return
                for kind in kinds:
                    if kind == "2" and np:
                        for q in later(p):
                            if q in banned_p:
                                continue
                            cost = pair_cost(p, q) if q in blocked_p else 0
                            if (cost > 0) != with_rematch or cost > room:
                                continue
                            yield (p, q), cost, np - 1, nt
                    if kind == "3" and nt:
                        for q in later(p):
                            if q in banned_p or (not with_rematch and q in blocked_p):
                                continue
                            blocked_q = blocked[q]
                            banned_q = banned[q]
                            for r in later(q):
                                if not with_rematch and (r in blocked_p or r in blocked_q):
                                    continue
                                if r in banned_p or r in banned_q:
                                    continue
                                cost = table_cost((p, q, r))
                                if (cost > 0) != with_rematch or cost > room:
                                    continue
                                yield (p, q, r), cost, np, nt - 1

        top = nxt[head]
        start: _Key = (top, 0, pairs, triples, budget)
        failed: set[_Key] = set()
        chosen: list[Table] = []
        frames: list[tuple[_Key, Iterator[tuple[Table, int, int, int]]]]
        frames = [(start, options(top, pairs, triples, budget))]
        steps = 0
        while frames:
            key, walk = frames[-1]
            step = next(walk, None)
            if step is None:
                failed.add(key)
                frames.pop()
                if chosen:
                    for x in reversed(chosen.pop()):  # link back, last unlinked first
                        nxt[prv[x]] = x
                        prv[nxt[x]] = x
                continue
            steps += 1
            if limit is not None and steps > limit:
                raise _Exhausted
            seats, cost, np, nt = step
            p = seats[0]
            # The next top free player: the first after p not seated now.
            below = nxt[p]
            while below in seats:
                below = nxt[below]
            if below == end:
                return [*chosen, seats]
            seated = key[1]
            for s in seats[1:]:
                seated |= 1 << (s - p)
            room = key[4] - cost
            child: _Key = (below, seated >> (below - p), np, nt, room)
            if child in failed:
                continue
            for x in seats:  # unlink
                nxt[prv[x]] = nxt[x]
                prv[nxt[x]] = prv[x]
            chosen.append(seats)
            frames.append((child, options(below, np, nt, room)))
        return None

    # --- the special table: the 3-player table or the bye ------------------------------

    def special_candidates(self, members: Sequence[int], size: int) -> Iterator[Table]:
        """Candidates in the book's order: the lowest score group that can hold the table
        first (groups taken together from the bottom up until they seat ``size``), there
        those who have had it least, then the lowest ranks."""
        field = self.field
        ranked = sorted(members)
        pool_limit = len(ranked) if len(ranked) <= EXACT_LIMIT else SPECIAL_POOL
        below: list[int] = []  # lowest first
        i = len(ranked)
        while i > 0:
            score = field.quantised[ranked[i - 1]]
            group: list[int] = []
            while i > 0 and field.quantised[ranked[i - 1]] == score:
                group.append(ranked[i - 1])
                i -= 1
            newcomers = set(group)
            below.extend(group)
            if len(below) < size:
                continue
            # Bottom-most players of what the groups hold so far (lowest first).
            fresh = [a for a in below if not field.had_special[a]][:pool_limit]
            used = [a for a in below if field.had_special[a]][:pool_limit]
            for had in range(size + 1):
                bucket = [
                    tuple(sorted(a + b))
                    for a in combinations(fresh, size - had)
                    for b in combinations(used, had)
                ]
                # Lowest ranks first: compare the lowest member, then the next, ...
                bucket.sort(key=lambda t: tuple(-x for x in reversed(t)))
                for combo in bucket:
                    if newcomers.intersection(combo):
                        yield combo


def _layout_kind(policy: Policy, layout: Layout) -> str:
    if layout.bye:
        return "bye"
    if policy == "pairs+triple" and layout.triples == 1:
        return "triple"
    return "plain"


def book_in_layout(book: Book, layout: Layout, policy: Policy, budget: int) -> list[Table] | None:
    """The book's arrangement in one layout within a rematch budget; a bye comes back as
    a 1-seat table. None if the layout cannot stay within the budget."""
    n = book.field.size
    members = list(range(n))
    limit = None if n <= EXACT_LIMIT else NODE_LIMIT
    kind = _layout_kind(policy, layout)
    if kind == "plain":
        try:
            return book.search(
                members, layout.pairs, layout.triples, budget, policy == "prefer-triples", limit
            )
        except _Exhausted:
            if budget == 0 and layout.triples == 0:
                return book.guided_pairs(members)
            return None
    size = 1 if kind == "bye" else 3
    for special in book.special_candidates(members, size):
        if not book.allowed(special):
            continue
        room = budget - book.table_cost(special)
        if room < 0:
            continue
        rest = [a for a in members if a not in special]
        # Where Dirac's bound holds the search goes straight down; elsewhere it proves
        # quickly that a candidate fails, and only a pathological field needs the
        # matching-guided walk.
        try:
            found = book.search(
                rest, len(rest) // 2, 0, room, False, None if book.dirac(rest) else limit
            )
        except _Exhausted:
            found = book.guided_pairs(rest) if room == 0 else None
        if found is not None:
            return [*found, special]
        if n > EXACT_LIMIT and room > 0:
            return None  # a big field with unavoidable rematches: leave it to the caller
    return None


def least_rematch_cost(book: Book, options: Sequence[Layout]) -> int | None:
    """The fewest rematches (packed with how often and how recently) over every layout,
    by exhaustive search; None when forbidden pairs leave no arrangement at all."""
    field = book.field
    members = list(range(field.size))
    full = Encoder.for_members(field, members).weights
    encoder = Encoder((*full[:3], 0, 0, 0, 0))
    best: int | None = None
    for layout in options:
        found = solve_exact(field, members, layout, encoder, False, best)
        if found is not None and (best is None or found.cost < best):
            best = found.cost
        if best == 0:
            break
    return None if best is None else best // full[RECENT]


def book_arrangement(
    field: Field,
    options: Sequence[Layout],
    policy: Policy,
    fallback: Callable[[], Arrangement],
) -> Arrangement | None:
    """Criteria (a)-(d) over the policy's layouts. ``fallback`` (the closest-scores
    arrangement) gives a rematch budget on big fields where rematches are unavoidable,
    and is returned if the book's search cannot meet it. None: no arrangement at all."""
    book = Book(field)
    for layout in options:
        tables = book_in_layout(book, layout, policy, 0)
        if tables is not None:
            return _to_arrangement(tables)
    # Every arrangement has a rematch: the fewest (oldest first), then (b)-(d).
    if field.size <= EXACT_LIMIT:
        target = least_rematch_cost(book, options)
        if target is None:
            return None
        for layout in options:
            tables = book_in_layout(book, layout, policy, target)
            if tables is not None:
                return _to_arrangement(tables)
        return None  # pragma: no cover - least_rematch_cost found one
    closest = fallback()
    target = sum(book.table_cost(t) for t in closest.tables)
    for layout in options:
        tables = book_in_layout(book, layout, policy, target)
        if tables is not None:
            return _to_arrangement(tables)
    return closest


def _to_arrangement(tables: Sequence[Table]) -> Arrangement:
    bye = next((t[0] for t in tables if len(t) == 1), None)
    return Arrangement(0, tuple(t for t in tables if len(t) > 1), bye)
