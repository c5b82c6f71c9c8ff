"""The book's search (tournaments/pairing/book.py, ``Book.search``) against the search it
replaced, kept here as a slow reference: the free players as one big integer, copied,
shifted and hashed at every step (issue "Speed near the limit", item 1).

The fast search keeps the free players in a linked list and remembers dead ends by the
top free player and the seated players below her; the walk, the step count (and so
where a step limit gives up) and the first arrangement found must all be the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import Meeting, PairingPlayer
from tournaments.pairing.book import Book, Table, _Exhausted
from tournaments.pairing.criteria import build_field, rank_players

# --- the reference: the search as it was before (commit 6af5000) -----------------------


def reference_search(
    book: Book,
    members: Sequence[int],
    pairs: int,
    triples: int,
    budget: int,
    triples_first: bool,
    limit: int | None,
) -> list[Table] | None:
    if 2 * pairs + 3 * triples != len(members):
        return None
    if not members:
        return []
    n = book.field.size
    blocked = book.blocked

    def options(
        free: int, np: int, nt: int, room: int
    ) -> Iterator[tuple[Table, int, int, int, int]]:
        p = (free & -free).bit_length() - 1
        rest = free & ~(1 << p)

        def later(after: int) -> Iterator[int]:
            for q in range(after + 1, n):
                if rest >> q & 1:
                    yield q

        kinds = ("3", "2") if triples_first else ("2", "3")
        for with_rematch in (False, True):
            if with_rematch and room == 0:
                return
            for kind in kinds:
                if kind == "2" and np:
                    for q in later(p):
                        if not book.field.allowed(p, q):
                            continue
                        cost = book.pair_cost(p, q) if q in blocked[p] else 0
                        if (cost > 0) != with_rematch or cost > room:
                            continue
                        yield (p, q), cost, rest & ~(1 << q), np - 1, nt
                if kind == "3" and nt:
                    for q in later(p):
                        if not book.field.allowed(p, q) or (not with_rematch and q in blocked[p]):
                            continue
                        for r in later(q):
                            if not with_rematch and (r in blocked[p] or r in blocked[q]):
                                continue
                            if not (book.field.allowed(p, r) and book.field.allowed(q, r)):
                                continue
                            cost = book.table_cost((p, q, r))
                            if (cost > 0) != with_rematch or cost > room:
                                continue
                            yield (p, q, r), cost, rest & ~(1 << q) & ~(1 << r), np, nt - 1

    start = 0
    for m in members:
        start |= 1 << m
    failed: set[tuple[int, int, int, int]] = set()
    chosen: list[Table] = []
    frames: list[tuple[tuple[int, int, int, int], Iterator[tuple[Table, int, int, int, int]]]]
    frames = [((start, pairs, triples, budget), options(start, pairs, triples, budget))]
    steps = 0
    while frames:
        key, walk = frames[-1]
        step = next(walk, None)
        if step is None:
            failed.add(key)
            frames.pop()
            if chosen:
                chosen.pop()
            continue
        steps += 1
        if limit is not None and steps > limit:
            raise _Exhausted
        seats, cost, free, np, nt = step
        if free == 0:
            return [*chosen, seats]
        room = key[3] - cost
        nxt = (free, np, nt, room)
        if nxt in failed:
            continue
        chosen.append(seats)
        frames.append((nxt, options(free, np, nt, room)))
    return None


def outcome(search: object, *args: object) -> object:
    """The arrangement, None, or "exhausted" when the step limit was reached."""
    try:
        return search(*args)  # type: ignore[operator]
    except _Exhausted:
        return "exhausted"


# --- random fields -------------------------------------------------------------------


def book_of(
    n: int, scores: Sequence[int], met: Sequence[Meeting], forbidden: Sequence[tuple[str, str]]
) -> Book:
    players = [PairingPlayer(id=f"p{i}", score=6.0 * s, seed=i + 1) for i, s in enumerate(scores)]
    return Book(build_field(rank_players(players), met, forbidden, ()))


@st.composite
def searches(
    draw: st.DrawFn, high: int = 22
) -> tuple[Book, list[int], int, int, int, bool, int | None]:
    n = draw(st.integers(1, high))
    scores = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    pairs_all = list(itertools.combinations(range(n), 2))
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.5, 0.8]))
    picks = draw(st.lists(st.floats(0, 1), min_size=len(pairs_all), max_size=len(pairs_all)))
    rounds = draw(st.lists(st.integers(1, 5), min_size=len(pairs_all), max_size=len(pairs_all)))
    met = [
        Meeting(f"p{a}", f"p{b}", r)
        for (a, b), f, r in zip(pairs_all, picks, rounds, strict=True)
        if f < density
    ]
    forbidden = [
        (f"p{a}", f"p{b}")
        for a, b in draw(
            st.lists(st.sampled_from(pairs_all), max_size=3) if pairs_all else st.just([])
        )
    ]
    book = book_of(n, scores, met, forbidden)
    # Members: the whole field or a part (the rest of a field around a special table).
    members = sorted(draw(st.sets(st.integers(0, n - 1), min_size=max(0, n - 4), max_size=n)))
    k = len(members)
    fits = [t for t in range(k // 3 + 1) if (k - 3 * t) % 2 == 0] or [0]
    triples = draw(st.sampled_from(fits))
    pairs = (k - 3 * triples) // 2  # for k = 1 they do not add up: None from both
    budget = draw(st.sampled_from([0, 0, 1, 5, 10**6]))
    triples_first = draw(st.booleans())
    limit = draw(st.sampled_from([None, None, 1, 3, 10, 50]))
    return book, members, pairs, triples, budget, triples_first, limit


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_the_search_walks_exactly_as_the_reference(
    case: tuple[Book, list[int], int, int, int, bool, int | None],
) -> None:
    book, members, pairs, triples, budget, triples_first, limit = case
    args = (members, pairs, triples, budget, triples_first, limit)
    assert outcome(book.search, *args) == outcome(reference_search, book, *args)


@pytest.mark.parametrize("n", [40, 120, 301])
@pytest.mark.parametrize("triples", [0, 1, 5])
def test_the_search_equals_the_reference_on_swiss_like_fields(n: int, triples: int) -> None:
    """Bigger fields with a Swiss history (neighbours in rank have often met), both
    orders, a budget that lets a rematch in, and a step limit that the walk reaches."""
    import random

    rng = random.Random(n * 7 + triples)
    scores = sorted((rng.randint(0, 6) for _ in range(n)), reverse=True)
    met = [
        Meeting(f"p{a}", f"p{b}", rng.randint(1, 5))
        for a in range(n)
        for b in range(a + 1, min(n, a + 12))
        if rng.random() < 0.45
    ]
    forbidden = [(f"p{a}", f"p{a + 1}") for a in rng.sample(range(n - 1), 3)]
    book = book_of(n, scores, met, forbidden)
    members = [m for m in range(n) if m not in (n - 2, n - 7)]
    k = len(members)
    if (k - 3 * triples) % 2:
        members = members[:-1]
        k -= 1
    pairs = (k - 3 * triples) // 2
    for triples_first in (False, True):
        for budget in (0, 10**6):
            for limit in (None, 25, 2_000):
                args = (members, pairs, triples, budget, triples_first, limit)
                assert outcome(book.search, *args) == outcome(reference_search, book, *args)


def test_the_search_leaves_the_cycle_collector_as_it_was() -> None:
    import gc

    book = book_of(6, [3, 3, 2, 2, 1, 0], [Meeting("p0", "p1", 1)], [])
    assert gc.isenabled()
    assert book.search(list(range(6)), 3, 0, 0, False, None) is not None
    assert gc.isenabled()
    gc.disable()
    try:
        book.search(list(range(6)), 3, 0, 0, False, None)
        assert not gc.isenabled()
    finally:
        gc.enable()
