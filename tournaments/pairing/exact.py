"""Exhaustive search for small fields (club evenings, the tail of a big field).

Branch and bound over all arrangements of one layout: the highest-ranked unseated player
is seated first, so every arrangement is generated exactly once. All criteria are
non-negative and add up over tables, so a partial cost that already reaches the best
complete cost can be cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.criteria import Encoder, Field
from tournaments.pairing.layout import Layout
from tournaments.pairing.record import Record, set_field


class Arrangement(Record):
    __slots__ = ("cost", "tables", "bye")
    cost: int
    tables: tuple[tuple[int, ...], ...]
    bye: int | None

    def __init__(self, cost: int, tables: tuple[tuple[int, ...], ...], bye: int | None) -> None:
        set_field(self, "cost", cost)
        set_field(self, "tables", tables)
        set_field(self, "bye", bye)


def solve_exact(
    field: Field,
    members: Sequence[int],
    layout: Layout,
    encoder: Encoder,
    special_triples: bool,
    bound: int | None = None,
) -> Arrangement | None:
    """The cheapest arrangement of ``members`` (rank indexes) in ``layout`` costing less
    than ``bound``, or None. Forbidden pairs never share a table."""
    order = sorted(members)
    k = len(order)
    pair_cost = [[0] * k for _ in range(k)]
    ok = [[False] * k for _ in range(k)]
    for x in range(k):
        for y in range(x + 1, k):
            a, b = order[x], order[y]
            ok[x][y] = ok[y][x] = field.allowed(a, b)
            if ok[x][y]:
                pair_cost[x][y] = pair_cost[y][x] = encoder.pair(field, a, b)
    special = [encoder.special(field, a) for a in order]

    best_cost = bound
    best: list[tuple[int, ...]] = []
    best_bye: list[int | None] = [None]
    found = [False]
    tables: list[tuple[int, ...]] = []
    bye_holder: list[int | None] = [None]

    def search(free: int, cost: int, pairs: int, triples: int, bye: bool) -> None:
        nonlocal best_cost
        if free == 0:
            if best_cost is None or cost < best_cost:
                best_cost = cost
                best[:] = list(tables)
                best_bye[0] = bye_holder[0]
                found[0] = True
            return
        p = (free & -free).bit_length() - 1
        rest = free & ~(1 << p)
        options: list[tuple[int, tuple[int, ...], int, int, int, bool]] = []
        if bye:
            options.append((special[p], (), rest, pairs, triples, False))
        others = [q for q in range(p + 1, k) if rest >> q & 1 and ok[p][q]]
        if pairs:
            for q in others:
                options.append((pair_cost[p][q], (p, q), rest & ~(1 << q), pairs - 1, triples, bye))
        if triples:
            for i, q in enumerate(others):
                for r in others[i + 1 :]:
                    if not ok[q][r]:
                        continue
                    c = encoder.table(field, (order[p], order[q], order[r]), special_triples)
                    options.append(
                        (c, (p, q, r), rest & ~(1 << q) & ~(1 << r), pairs, triples - 1, bye)
                    )
        options.sort(key=lambda o: o[0])
        for c, seats, nxt, np, nt, nb in options:
            total = cost + c
            if best_cost is not None and total >= best_cost:
                break  # options are sorted, so the rest cost at least as much
            if seats:
                tables.append(seats)
            else:
                bye_holder[0] = p
            search(nxt, total, np, nt, nb)
            if seats:
                tables.pop()
            else:
                bye_holder[0] = None

    search((1 << k) - 1, 0, layout.pairs, layout.triples, layout.bye)
    if not found[0] or best_cost is None:
        return None
    bye_index = best_bye[0]
    return Arrangement(
        cost=best_cost,
        tables=tuple(tuple(order[s] for s in t) for t in best),
        bye=None if bye_index is None else order[bye_index],
    )
