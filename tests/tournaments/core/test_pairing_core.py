"""Swiss pairing with mixed 2- and 3-player tables (issue 4, section 4)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    METHODS,
    ClubPlayer,
    Meeting,
    Method,
    Pairing,
    PairingError,
    PairingPlayer,
    Policy,
    club_tables,
    game_orders,
    pair_round,
)
from tournaments.pairing.simulate import simulate

POLICIES: tuple[Policy, ...] = ("pairs+triple", "prefer-triples", "pairs+bye")


@dataclass(frozen=True)
class Case:
    players: list[PairingPlayer]
    met: list[Meeting]
    forbidden: list[tuple[str, str]]
    had_special: list[str]
    policy: Policy
    method: Method = "book"


@st.composite
def cases(draw: st.DrawFn, max_players: int = 12, policies: Sequence[Policy] = POLICIES) -> Case:
    n = draw(st.integers(2, max_players))
    ids = [f"p{i}" for i in range(n)]
    scores = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    withdrawn = draw(st.sets(st.sampled_from(ids), max_size=2))
    players = [
        PairingPlayer(id=i, score=6.0 * s, seed=k + 1, active=i not in withdrawn)
        for k, (i, s) in enumerate(zip(ids, scores, strict=True))
    ]
    all_pairs = list(itertools.combinations(ids, 2))
    density = draw(st.floats(0.0, 0.7))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(all_pairs), max_size=len(all_pairs)))
    rounds = draw(st.lists(st.integers(1, 5), min_size=len(all_pairs), max_size=len(all_pairs)))
    met = [
        Meeting(a, b, r)
        for (a, b), f, r in zip(all_pairs, flags, rounds, strict=True)
        if f < density
    ]
    forbidden = draw(st.lists(st.sampled_from(all_pairs), max_size=2))
    had = sorted(draw(st.sets(st.sampled_from(ids), max_size=n // 2)))
    policy = draw(st.sampled_from(list(policies)))
    method = draw(st.sampled_from(list(METHODS)))
    return Case(players, met, forbidden, had, policy, method)


def run(case: Case) -> Pairing:
    return pair_round(
        case.players,
        case.met,
        case.forbidden,
        had_triple=case.had_special,
        had_bye=case.had_special,
        policy=case.policy,
        method=case.method,
    )


def met_set(met: Sequence[Meeting]) -> set[frozenset[str]]:
    return {frozenset((m.a, m.b)) for m in met}


def rematch_free_exists(
    ids: list[str], met: set[frozenset[str]], banned: set[frozenset[str]], policy: Policy
) -> bool | None:
    """Exhaustive check, independent of the engine: can everyone be seated under the
    policy's table kinds with no rematch? None when no valid arrangement exists at all."""

    def ok(group: tuple[str, ...], strict: bool) -> bool:
        pairs = [frozenset(p) for p in itertools.combinations(group, 2)]
        return not any(p in banned for p in pairs) and not (strict and any(p in met for p in pairs))

    def seat(free: tuple[str, ...], bye_left: bool, strict: bool) -> bool:
        if not free:
            return not bye_left
        p, rest = free[0], free[1:]
        if bye_left and seat(rest, False, strict):
            return True
        sizes = (1,) if policy == "pairs+bye" else (1, 2)
        for k in sizes:
            for mates in itertools.combinations(rest, k):
                if ok((p, *mates), strict):
                    remaining = tuple(x for x in rest if x not in mates)
                    if seat(remaining, bye_left, strict):
                        return True
        return False

    bye = policy == "pairs+bye" and len(ids) % 2 == 1
    if seat(tuple(ids), bye, True):
        return True
    return False if seat(tuple(ids), bye, False) else None


def check_valid(case: Case, pairing: Pairing) -> None:
    active = [p.id for p in case.players if p.active]
    seated = [s for t in pairing.tables for s in t.seats]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    assert sorted(seated) == sorted(active), "every active player exactly once"
    banned = {frozenset(p) for p in case.forbidden}
    met = met_set(case.met)
    rematches = 0
    for table in pairing.tables:
        assert len(table.seats) in ((2,) if case.policy == "pairs+bye" else (2, 3))
        for a, b in itertools.combinations(table.seats, 2):
            assert frozenset((a, b)) not in banned
            rematches += frozenset((a, b)) in met
    assert pairing.rematches == rematches
    if case.policy != "pairs+bye":
        assert pairing.bye is None
    else:
        assert (pairing.bye is not None) == (len(active) % 2 == 1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_small_fields_are_valid_and_rematch_free_whenever_possible(case: Case) -> None:
    active = [p.id for p in case.players if p.active]
    banned = {frozenset(p) for p in case.forbidden}
    exists = rematch_free_exists(active, met_set(case.met), banned, case.policy)
    if exists is None:
        with pytest.raises(PairingError):
            run(case)
        return
    pairing = run(case)
    check_valid(case, pairing)
    if exists:
        assert pairing.rematches == 0
    else:
        assert pairing.rematches > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_players=40))
def test_bigger_fields_are_valid(case: Case) -> None:
    try:
        pairing = run(case)
    except PairingError:
        return  # only forbidden pairs can cause this; small fields check it exactly
    check_valid(case, pairing)


# --- 2-player rounds: optimal under the criteria, checked with networkx -----------------


def criteria_cost(
    ranked: list[PairingPlayer], met: Sequence[Meeting], a: str, b: str
) -> tuple[int, int, int, float, int]:
    """The issue's criteria for one 2-player table, written independently of the engine:
    rematch, then how often and how recently (oldest first), then the squared score gap,
    then the book's top-down order (distance in the ranking beyond the next one down)."""
    rank = {p.id: i for i, p in enumerate(ranked)}
    score = {p.id: p.score for p in ranked}
    rounds = sorted({m.round for m in met})
    times = [m for m in met if {m.a, m.b} == {a, b}]
    recent = max((rounds.index(m.round) + 1 for m in times), default=0)
    return (
        int(bool(times)),
        len(times),
        recent,
        (score[a] - score[b]) ** 2,
        abs(rank[a] - rank[b]) - 1,
    )


def total_cost(
    ranked: list[PairingPlayer], met: Sequence[Meeting], pairs: Sequence[Sequence[str]]
) -> tuple[float, ...]:
    costs = [criteria_cost(ranked, met, p[0], p[1]) for p in pairs]
    return tuple(sum(c[k] for c in costs) for k in range(5))


def optimal_by_networkx(
    ranked: list[PairingPlayer], met: Sequence[Meeting], forbidden: set[frozenset[str]]
) -> tuple[float, ...]:
    graph: nx.Graph[str] = nx.Graph()
    base = 10**7
    for a, b in itertools.combinations([p.id for p in ranked], 2):
        if frozenset((a, b)) in forbidden:
            continue
        cost = 0
        for part in criteria_cost(ranked, met, a, b):
            cost = cost * base + int(part * 4)
        graph.add_edge(a, b, weight=base**6 - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(ranked)
    return total_cost(ranked, met, list(matching))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 30).map(lambda k: 2 * k),
    rounds=st.integers(0, 6),
    seed=st.integers(0, 10_000),
    forbid=st.integers(0, 3),
)
@example(n=6, rounds=3, seed=1, forbid=0)
def test_two_player_rounds_are_optimal(n: int, rounds: int, seed: int, forbid: int) -> None:
    state = simulate(n, rounds, policy="pairs+bye", seed=seed)
    ranked = sorted(state.players, key=lambda p: (-p.score, p.seed, p.id))
    forbidden = [
        (ranked[i].id, ranked[i + 1].id) for i in range(0, 2 * forbid, 2) if n >= 4 and i + 1 < n
    ]
    # Pairs only (n is even): under "pairs+triple" two 3-player tables are rightly chosen
    # where every pairing needs a rematch (n=6, rounds=3, seed=1), and no pairing can
    # then be compared with the optimum of pairs. The score-gap optimum is the
    # "closest" method's promise (the book's top-down rule is tested in
    # test_pairing_book.py).
    pairing = pair_round(state.players, state.met, forbidden, policy="pairs+bye", method="closest")
    assert all(len(t.seats) == 2 for t in pairing.tables)
    got = total_cost(ranked, state.met, [t.seats for t in pairing.tables])
    best = optimal_by_networkx(ranked, state.met, {frozenset(p) for p in forbidden})
    assert got == best


@pytest.mark.parametrize(("n", "seed"), [(120, 1), (160, 2), (200, 3), (250, 4)])
def test_sliding_window_matches_the_dense_optimum(n: int, seed: int) -> None:
    state = simulate(n, 5, policy="pairs+bye", seed=seed)
    ranked = sorted(state.players, key=lambda p: (-p.score, p.seed, p.id))
    # The window belongs to the "closest" method.
    windowed = pair_round(state.players, state.met, policy="pairs+bye", method="closest")
    dense = pair_round(state.players, state.met, policy="pairs+bye", window=0, method="closest")
    assert total_cost(ranked, state.met, [t.seats for t in windowed.tables]) == total_cost(
        ranked, state.met, [t.seats for t in dense.tables]
    )


# --- The book's method and the organiser's rules, by example ----------------------------


def players(*scores: float) -> list[PairingPlayer]:
    return [PairingPlayer(id=f"p{i + 1}", score=s, seed=i + 1) for i, s in enumerate(scores)]


def tables(pairing: Pairing) -> list[set[str]]:
    return [set(t.seats) for t in pairing.tables]


def test_first_round_pairs_by_seed() -> None:
    field = [PairingPlayer(id=f"p{i}", seed=i) for i in (4, 2, 3, 1)]
    assert tables(pair_round(field)) == [{"p1", "p2"}, {"p3", "p4"}]


def test_top_down_next_one_down_not_yet_met() -> None:
    # Section 21: "pair each player with the next player down the list against whom she
    # has not yet played": p1 met p2, so p1 plays p3 and p2 plays p4.
    pairing = pair_round(players(30, 24, 24, 18), met=[("p1", "p2")])
    assert tables(pairing) == [{"p1", "p3"}, {"p2", "p4"}]
    assert pairing.rematches == 0


def test_odd_field_gets_one_triple_at_the_bottom() -> None:
    pairing = pair_round(players(30, 24, 18, 12, 6))
    assert tables(pairing) == [{"p1", "p2"}, {"p3", "p4", "p5"}]
    assert pairing.bye is None


def test_closest_gives_the_triple_to_the_lowest_who_have_not_had_one() -> None:
    # The old default, now the "closest" method: rotation before score groups (the
    # book's method keeps the 3-player table in the lowest score group, see
    # test_pairing_book.py).
    pairing = pair_round(players(30, 24, 18, 12, 6), had_triple=["p5"], method="closest")
    assert tables(pairing) == [{"p1", "p5"}, {"p2", "p3", "p4"}]


def test_closest_gives_the_bye_to_the_lowest_without_a_bye() -> None:
    # The old default, now the "closest" method (see the test above).
    pairing = pair_round(
        players(30, 24, 18, 12, 6), had_bye=["p5"], policy="pairs+bye", method="closest"
    )
    assert pairing.bye == "p4"
    assert tables(pairing) == [{"p1", "p2"}, {"p3", "p5"}]


def test_prefer_triples_layouts() -> None:
    for n, sizes in [(6, [3, 3]), (7, [2, 2, 3]), (8, [2, 3, 3]), (9, [3, 3, 3])]:
        pairing = pair_round(players(*range(n, 0, -1)), policy="prefer-triples")
        assert sorted(len(t.seats) for t in pairing.tables) == sizes


def test_rematch_avoided_with_an_extra_triple_when_pairs_cannot() -> None:
    # Four players who all met except in a way no two pairs avoid: only p1-p2, p3-p4...
    met = [("p1", "p2"), ("p3", "p4"), ("p1", "p3"), ("p2", "p4"), ("p1", "p4"), ("p2", "p3")]
    field = players(6, 5, 4, 3, 2, 1)
    # ... so the 6 players sit as two triples mixing p5 and p6 in.
    pairing = pair_round(field, met=met[:4])
    assert pairing.rematches == 0
    assert sorted(len(t.seats) for t in pairing.tables) in ([2, 2, 2], [3, 3])


def test_fewest_repeats_oldest_first() -> None:
    # Everyone has met everyone; the oldest meetings are repeated.
    met = [
        Meeting("p1", "p2", 3),
        Meeting("p3", "p4", 3),
        Meeting("p1", "p3", 1),
        Meeting("p2", "p4", 1),
        Meeting("p1", "p4", 2),
        Meeting("p2", "p3", 2),
    ]
    pairing = pair_round(players(4, 3, 2, 1), met=met)
    assert pairing.rematches == 2
    assert tables(pairing) == [{"p1", "p3"}, {"p2", "p4"}]


def test_forbidden_pairs_and_withdrawn_players() -> None:
    field = [*players(30, 24, 18, 12), PairingPlayer(id="gone", score=40, active=False)]
    pairing = pair_round(field, forbidden=[("p1", "p2")])
    assert tables(pairing) == [{"p1", "p3"}, {"p2", "p4"}]
    with pytest.raises(PairingError):
        pair_round(players(2, 1), forbidden=[("p1", "p2")])
    with pytest.raises(ValueError):
        pair_round([PairingPlayer(id="a"), PairingPlayer(id="a")])


def test_first_move_favours_who_started_less() -> None:
    field = [PairingPlayer(id="a", score=6, starts=5), PairingPlayer(id="b", score=6, starts=4)]
    (table,) = pair_round(field).tables
    assert table.seats == ("b", "a")
    assert game_orders(table.seats, 3) == [("b", "a"), ("a", "b"), ("b", "a")]
    assert game_orders(("x", "y", "z"), 2) == [("x", "y", "z"), ("x", "z", "y")]


def test_simulated_starts_stay_balanced() -> None:
    state = simulate(20, 6, policy="pairs+bye", seed=3)
    starts = [p.starts for p in state.players]
    games = 3 * 6
    assert max(starts) - min(starts) <= 3
    assert all(abs(s - games / 2) <= 3 for s in starts)


def test_club_tables_mix_people_who_have_not_met() -> None:
    present = [ClubPlayer("ann", 1600), ClubPlayer("bob", 1590), ClubPlayer("cy", 1400)]
    present += [ClubPlayer("dee", 1390), ClubPlayer("eve", 1200)]
    pairing = club_tables(present, recent=[Meeting("ann", "bob", 1)])
    assert pairing.rematches == 0
    assert sorted(len(t.seats) for t in pairing.tables) == [2, 3]
    assert {"ann", "bob"} not in tables(pairing)


@pytest.mark.parametrize("policy", POLICIES)
def test_simulated_tournament_has_no_rematches(policy: Policy) -> None:
    state = simulate(41, 6, policy=policy, seed=5)
    assert all(r.rematches == 0 for r in state.rounds)
