"""The pairing editor's "not the book's rule" warnings for the 3-player table and the bye,
what a move leaves a player alone with, and which players' places differ from the
pairing as proposed (tournaments/pairing/warnings.py; no Django)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Meeting,
    PairingError,
    PairingPlayer,
    Policy,
    pair_round_or_fallback,
)
from tournaments.pairing.warnings import (
    LEFT_ALONE,
    REMATCH,
    SPECIAL_AGAIN,
    SPECIAL_GROUP,
    SPECIAL_RANK,
    TABLE_SIZE,
    PairingWarning,
    ProposedLayout,
    RoundRules,
    book_rule,
    book_warnings,
    changed_players,
    edit_warnings,
    left_alone,
)


def field(*scores: float) -> list[PairingPlayer]:
    """p1, p2, ... with these scores, seeded in this order."""
    return [PairingPlayer(id=f"p{i}", score=s, seed=i) for i, s in enumerate(scores, start=1)]


def pairs_and(special: Sequence[str], rest: Sequence[str]) -> ProposedLayout:
    """``rest`` paired in order, then ``special`` as a 3-player table (three) or a bye."""
    tables = [tuple(rest[i : i + 2]) for i in range(0, len(rest), 2)]
    if len(special) == 3:
        return ProposedLayout(tables=(*tables, tuple(special)))
    return ProposedLayout(tables=tuple(tables), byes=tuple(special))


def test_the_book_gives_the_3_player_table_to_the_lowest_score_group():
    rule = book_rule(field(30, 24, 18, 12, 6, 6, 0))
    assert sorted(rule.triple or ()) == ["p5", "p6", "p7"]
    assert book_warnings(pairs_and(["p5", "p6", "p7"], ["p1", "p2", "p3", "p4"]), rule) == []
    # The leader moved to the 3-player table, p5 up to her pair: the leader's group is
    # above the book's, and p5 is the book's player the message names.
    moved = pairs_and(["p1", "p6", "p7"], ["p5", "p2", "p3", "p4"])
    assert book_warnings(moved, rule) == [
        PairingWarning(SPECIAL_GROUP, ("p1", "p5"), size=3, points=(30, 6))
    ]


def test_a_3_player_table_in_the_right_group_for_someone_who_had_one_names_who_has_not():
    # Everyone on 0 points; p7 had the 3-player table in round 1: the book's goes to the
    # lowest of those who have not had one (p4, p5, p6).
    rule = book_rule(field(0, 0, 0, 0, 0, 0, 0), had_triple={"p7": [1]})
    assert sorted(rule.triple or ()) == ["p4", "p5", "p6"]
    again = pairs_and(["p5", "p6", "p7"], ["p1", "p2", "p3", "p4"])
    assert book_warnings(again, rule) == [
        PairingWarning(SPECIAL_AGAIN, ("p7", "p4"), rounds=(1,), size=3, points=(0, 0))
    ]


def test_within_its_group_the_3_player_table_goes_to_the_lowest_ranks():
    rule = book_rule(field(0, 0, 0, 0, 0))
    higher = pairs_and(["p1", "p2", "p5"], ["p3", "p4"])
    assert book_warnings(higher, rule) == [
        PairingWarning(SPECIAL_RANK, ("p1", "p4"), size=3, points=(0, 0))
    ]


def test_the_bye_goes_to_the_lowest_score_group_then_the_lowest_rank():
    rule = book_rule(field(30, 24, 18, 12, 6), policy="pairs+bye")
    assert rule.bye == "p5" and rule.triple is None
    assert book_warnings(pairs_and(["p1"], ["p2", "p3", "p4", "p5"]), rule) == [
        PairingWarning(SPECIAL_GROUP, ("p1", "p5"), size=1, points=(30, 6))
    ]
    even = book_rule(field(6, 6, 6, 6, 6), policy="pairs+bye")
    assert book_warnings(pairs_and(["p3"], ["p1", "p2", "p4", "p5"]), even) == [
        PairingWarning(SPECIAL_RANK, ("p3", "p5"), size=1, points=(6, 6))
    ]


def test_a_second_bye_is_named_with_the_round_of_the_first():
    # p5 had the bye in round 2: the book's bye goes to p4, the lowest who has not.
    rule = book_rule(field(6, 6, 6, 6, 6), had_bye={"p5": [2]}, policy="pairs+bye")
    assert rule.bye == "p4"
    assert book_warnings(pairs_and(["p5"], ["p1", "p2", "p3", "p4"]), rule) == [
        PairingWarning(SPECIAL_AGAIN, ("p5", "p4"), rounds=(2,), size=1, points=(6, 6))
    ]
    # A policy without byes: any bye is a table-size warning, a second one also this.
    triple = book_rule(field(6, 6, 6, 6, 6, 6), had_bye={"p5": [2]})
    assert book_warnings(pairs_and(["p5"], ["p1", "p2", "p3", "p4"]), triple) == [
        PairingWarning(SPECIAL_AGAIN, ("p5",), rounds=(2,), size=1, points=(6,))
    ]


def test_the_book_giving_the_bye_again_is_no_warning():
    # docs/pairing.md's example: the lowest score group holds only p5, who had the bye.
    rule = book_rule(field(30, 24, 18, 12, 6), had_bye={"p5": [1]}, policy="pairs+bye")
    assert rule.bye == "p5"
    assert book_warnings(pairs_and(["p5"], ["p1", "p2", "p3", "p4"]), rule) == []


def test_a_3_player_table_lower_than_the_books_is_no_warning_of_the_book_s_order():
    # p5, p6 and p7 have all met: the book seats its 3-player table higher, with p4.
    met = [Meeting("p5", "p6", 1), Meeting("p5", "p7", 2), Meeting("p6", "p7", 3)]
    rule = book_rule(field(30, 24, 18, 12, 6, 6, 0), met=met)
    assert rule.triple is not None and "p4" in rule.triple
    bottom = pairs_and(["p5", "p6", "p7"], ["p1", "p2", "p3", "p4"])
    assert book_warnings(bottom, rule) == []  # the rematches are its warnings
    kinds = [w.kind for w in RoundRules(met=met, book=rule).warnings(bottom)]
    assert kinds == [REMATCH, REMATCH, REMATCH]


def test_a_player_left_alone_by_a_move_is_named_with_her_table():
    before = ProposedLayout(tables=(("a", "b"), ("c", "d"), ("e", "f", "g")))
    after = ProposedLayout(tables=(("c", "d", "a"), ("e", "f", "g")), byes=("b",))
    assert left_alone(before, after, moved={"a"}) == [PairingWarning(LEFT_ALONE, ("b",), table=1)]
    # Sent to the bye herself: not left alone.
    to_bye = ProposedLayout(tables=(("c", "d"), ("e", "f", "g")), byes=("b", "a"))
    assert left_alone(before, to_bye, moved={"a", "b"}) == []


def test_edit_warnings_lists_what_the_move_leaves_first_and_only_new_warnings():
    rule = book_rule(field(30, 24, 18, 12, 6, 6, 0))
    rules = RoundRules(met=[Meeting("p3", "p4", 1)], book=rule)
    # The saved pairing already has p3-p4's rematch; p1 moves to p3 and p4's table.
    before = ProposedLayout(tables=(("p1", "p2"), ("p3", "p4"), ("p5", "p6", "p7")))
    after = ProposedLayout(tables=(("p3", "p4", "p1"), ("p5", "p6", "p7")), byes=("p2",))
    found = edit_warnings(before, after, rules, moved={"p1"})
    assert [w.kind for w in found.current] == [REMATCH]
    assert found.created == [
        PairingWarning(LEFT_ALONE, ("p2",), table=1),
        PairingWarning(TABLE_SIZE, size=3),  # a second 3-player table
        PairingWarning(TABLE_SIZE, ("p2",), size=1),  # a bye under "pairs+triple"
        PairingWarning(SPECIAL_GROUP, ("p1", "p5"), size=3, points=(30, 6)),
    ]


def test_changed_players_are_those_with_other_table_mates_or_the_bye():
    proposed = ProposedLayout(tables=(("a", "b"), ("c", "d"), ("e", "f", "g")))
    # Seat order and table order are no change; a's move changes a, b, c and d.
    same = ProposedLayout(tables=(("d", "c"), ("b", "a"), ("g", "e", "f")))
    assert changed_players(proposed, same) == []
    moved = ProposedLayout(tables=(("c", "d", "a"), ("e", "f", "g")), byes=("b",))
    assert changed_players(proposed, moved) == ["c", "d", "a", "b"]
    assert changed_players(proposed, ProposedLayout(tables=(("x", "y"),))) == []


# --- the book's own pairing against the warnings, on random fields ------------------


def arrangements(players: Sequence[str], special: int) -> Iterator[ProposedLayout]:
    """Every layout of ``players``: 2-player tables and one 3-player table (``special``
    3) or one bye (1)."""

    def pairings(rest: Sequence[str]) -> Iterator[list[tuple[str, ...]]]:
        if not rest:
            yield []
            return
        first = rest[0]
        for i in range(1, len(rest)):
            for more in pairings([*rest[1:i], *rest[i + 1 :]]):
                yield [(first, rest[i]), *more]

    for chosen in itertools.combinations(players, special):
        rest = [p for p in players if p not in chosen]
        for tables in pairings(rest):
            if special == 3:
                yield ProposedLayout(tables=(*tables, chosen))
            else:
                yield ProposedLayout(tables=tuple(tables), byes=chosen)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[PairingPlayer], list[Meeting], list[tuple[str, str]]]:
    n = draw(st.sampled_from([3, 5, 7, 9]))
    scores = draw(st.lists(st.sampled_from([0, 6, 12, 18]), min_size=n, max_size=n))
    players = field(*scores)
    ids = [p.id for p in players]
    pairs = list(itertools.combinations(ids, 2))
    met = [
        Meeting(a, b, draw(st.integers(1, 3)))
        for a, b in draw(st.lists(st.sampled_from(pairs), max_size=n, unique=True))
    ]
    forbidden = draw(st.lists(st.sampled_from(pairs), max_size=2, unique=True))
    return players, met, forbidden


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fields(),
    st.sampled_from(["pairs+triple", "pairs+bye"]),
    st.sets(st.sampled_from([f"p{i}" for i in range(1, 10)]), max_size=4),
)
def test_no_rematch_free_layout_escapes_the_warnings_but_the_books_own(case, policy, had):
    """The book's own pairing never gets a "not the book's rule" warning for its
    3-player table or bye; and among the layouts without a rematch or forbidden pair,
    every other 3-player table or bye gets one: the warnings' order is the engine's."""
    players, met, forbidden = case
    policy_: Policy = policy  # type: ignore[assignment]
    triples = had if policy == "pairs+triple" else set()
    byes = had if policy == "pairs+bye" else set()
    rule = book_rule(
        players,
        met=met,
        forbidden=forbidden,
        had_triple={p: [1] for p in triples},
        had_bye={p: [1] for p in byes},
        policy=policy_,
    )
    rules = RoundRules(met=met, forbidden=forbidden, policy=policy_, book=rule)
    try:
        own = pair_round_or_fallback(
            players, met, forbidden, had_triple=triples, had_bye=byes, policy=policy_
        )
    except PairingError:  # forbidden pairs may leave no arrangement at all
        return
    layout = ProposedLayout(
        tables=tuple(t.seats for t in own.tables), byes=() if own.bye is None else (own.bye,)
    )
    assert book_warnings(layout, rule) == []
    kinds = {w.kind for w in rules.warnings(layout)}
    assert not kinds & {SPECIAL_GROUP, SPECIAL_AGAIN, SPECIAL_RANK}
    assert (REMATCH in kinds) == (own.rematches > 0)

    book_special = rule.triple if rule.triple is not None else (rule.bye,)
    if rule.triple is None and rule.bye is None:
        return
    size = len(book_special)
    for other in arrangements([p.id for p in players], size):
        judged = {w.kind for w in rules.warnings(other)}
        if judged & {REMATCH, "forbidden"}:
            continue
        mine = other.tables[-1] if size == 3 else other.byes
        specials = book_warnings(other, rule)
        assert (specials == []) == (sorted(mine) == sorted(book_special)), (other, specials)
