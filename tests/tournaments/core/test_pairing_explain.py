"""The explanations of a round's tables (tournaments/pairing/explain.py; no Django) agree
with the pairing editor's own check (tournaments/pairing/warnings.py): every warning the
check gives for a layout is told at the tables it concerns, none is told that the check
does not give, and what an explanation says is kept (no rematch, the book's 3-player
table or bye, a score group with no one left) the check finds nothing against."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import Meeting, PairingError, PairingPlayer, pair_round_or_fallback
from tournaments.pairing.explain import (
    ABOVE,
    BOOK,
    BYE,
    FREE,
    MET,
    NEVER,
    ODD,
    POLICY,
    SEARCH,
    explain_round,
    warning_tables,
)
from tournaments.pairing.warnings import (
    FORBIDDEN,
    REMATCH,
    SCORE_GAP,
    SPECIAL_AGAIN,
    SPECIAL_GROUP,
    SPECIAL_RANK,
    TABLE_SIZE,
    ProposedLayout,
    RoundRules,
    book_rule,
    layout_warnings,
)

SPECIAL = (SPECIAL_GROUP, SPECIAL_AGAIN, SPECIAL_RANK)


def field(*scores: float) -> list[PairingPlayer]:
    return [PairingPlayer(id=f"p{i}", score=s, seed=i) for i, s in enumerate(scores, start=1)]


def rules_for(
    players, *, met=(), forbidden=(), had_triple=None, had_bye=None, policy="pairs+triple"
):
    book = book_rule(
        players,
        met=met,
        forbidden=forbidden,
        had_triple=had_triple,
        had_bye=had_bye,
        policy=policy,
    )
    return RoundRules(
        met=list(met),
        forbidden=list(forbidden),
        scores={p.id: p.score for p in players},
        policy=policy,
        gap_limit=18.0,
        book=book,
    )


@st.composite
def rounds(draw):
    """A random field (2-9 players, scores from a few levels so that groups form), earlier
    meetings, forbidden pairs, earlier 3-player tables and byes, a policy, the book's rule
    or none (closest scores), and a random layout: a partition of the field into tables of
    1-4 players (a table of one is a bye), so that both the book's pairing and hand-made
    layouts that break every rule come up."""
    n = draw(st.integers(2, 9))
    scores = draw(st.lists(st.sampled_from([0, 6, 12, 18, 24, 36, 40]), min_size=n, max_size=n))
    players = field(*scores)
    ids = [p.id for p in players]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    met = [
        Meeting(a, b, r)
        for (a, b) in draw(st.lists(st.sampled_from(pairs), max_size=len(pairs) // 2))
        for r in [draw(st.integers(1, 3))]
    ]
    forbidden = draw(st.lists(st.sampled_from(pairs), max_size=2, unique=True))
    had_triple = {p: [draw(st.integers(1, 3))] for p in draw(st.sets(st.sampled_from(ids)))}
    had_bye = {p: [draw(st.integers(1, 3))] for p in draw(st.sets(st.sampled_from(ids)))}
    policy = draw(st.sampled_from(["pairs+triple", "prefer-triples", "pairs+bye"]))
    by_book = draw(st.booleans())
    rules = rules_for(
        players,
        met=met,
        forbidden=forbidden,
        had_triple=had_triple,
        had_bye=had_bye,
        policy=policy,
    )
    if not by_book:
        rules = RoundRules(
            met=rules.met,
            forbidden=rules.forbidden,
            scores=rules.scores,
            policy=policy,
            gap_limit=rules.gap_limit,
        )
    order = draw(st.permutations(ids))
    if draw(st.booleans()):
        # The book's own pairing of the field, as the round page pairs it.
        try:
            pairing = pair_round_or_fallback(
                players,
                met=met,
                forbidden=forbidden,
                had_triple=list(had_triple),
                had_bye=list(had_bye),
                policy=policy,
                method="book",
            )
            layout = ProposedLayout(
                tables=tuple(t.seats for t in pairing.tables),
                byes=() if pairing.bye is None else (pairing.bye,),
            )
        except PairingError:
            layout = ProposedLayout(tables=(tuple(order),))
    else:
        tables, byes, rest = [], [], list(order)
        while rest:
            size = min(draw(st.sampled_from([1, 2, 2, 2, 3, 3, 4])), len(rest))
            chunk, rest = rest[:size], rest[size:]
            (byes.extend if size == 1 else tables.append)(chunk if size == 1 else tuple(chunk))
        layout = ProposedLayout(tables=tuple(tables), byes=tuple(byes))
    return players, rules, layout, had_triple, had_bye


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_explanations_tell_exactly_the_checks_warnings_and_claim_nothing_it_sees_broken(case):
    players, rules, layout, had_triple, had_bye = case
    explained = explain_round(layout, players, rules, had_triple=had_triple, had_bye=had_bye)
    check = layout_warnings(
        layout,
        met=rules.met,
        forbidden=rules.forbidden,
        scores=rules.scores,
        policy=rules.policy,
        gap_limit=rules.gap_limit,
        book=rules.book,
    )
    tables = [*layout.tables, *((p,) for p in layout.byes)]
    assert [t.number for t in explained.tables] == list(range(1, len(tables) + 1))
    where = {p: n for n, t in enumerate(tables, start=1) for p in t}

    # Every warning of the check is told, at each table it concerns; a warning about
    # players is told where they sit.
    for w in check:
        home = warning_tables(w, layout, where)
        assert home, w
        if w.kind in (REMATCH, FORBIDDEN) or (w.kind == TABLE_SIZE and w.players):
            assert home == {where[p] for p in w.players}
        for n in home:
            assert w in explained.table(n).warnings
    # ... and nothing else: what is told comes from the check (as many times as it gives it).
    told = [w for t in explained.tables for w in t.warnings]
    for w in told:
        assert w in check
    assert list(explained.warnings) == check

    for t, seats in zip(explained.tables, tables, strict=True):
        rematches = [w for w in check if w.kind == REMATCH and set(w.players) <= set(seats)]
        # "No rematch here" only where the check finds none at the table.
        assert t.fresh == (not rematches)
        specials = [w for w in t.warnings if w.kind in SPECIAL]
        if t.special is not None and t.special.why == BOOK:
            # The book's own 3-player table or bye: the check names no book's rule broken
            # there, and it is the one book_rule computes.
            assert not specials
            assert rules.book is not None
            if t.bye:
                assert rules.book.bye == seats[0]
            else:
                assert set(seats) == set(rules.book.triple)
        if t.special is not None and t.special.why == POLICY:
            assert rules.policy == "prefer-triples" and len(seats) == 3
        if t.special is not None and t.special.why == ODD:
            assert rules.book is None and len(players) % 2 == 1
            assert not [w for w in t.warnings if w.kind == TABLE_SIZE]
        if specials:
            assert t.special is not None and t.special.why != BOOK
        # A player moved between score groups: lower than the table's top player, and each
        # reason why her group had no one else for the top player is what the check would
        # see, were the two seated together.
        top = t.players[0] if t.players else None
        lower = {s.id for s in t.players if top is not None and s.group != top.group}
        assert {m.player for m in t.moves} == lower
        for m in t.moves:
            assert m.to == top.id and m.gap > 0
            for b in m.blocked:
                pair = ProposedLayout(tables=((m.to, b.player),))
                kinds = {w.kind for w in rules.warnings(pair)}
                if b.why == MET:
                    assert REMATCH in kinds
                elif b.why == NEVER:
                    assert FORBIDDEN in kinds and REMATCH not in kinds
                else:
                    assert REMATCH not in kinds and FORBIDDEN not in kinds
                if b.why == ABOVE:
                    assert where[b.partner] == where[b.player] == b.table
                    assert explained.table(b.table).players[0].rank < top.rank
                if b.why == BYE:
                    assert b.player in layout.byes
                if b.why in (FREE, SEARCH):
                    assert b.player not in layout.byes
                    assert explained.table(b.table).players[0].rank > top.rank
                if b.why == SEARCH:
                    assert_the_book_could_not_seat_them_together(
                        players, rules, layout, explained, m.to, b.player
                    )


def _partitions(ids, byes_left):
    """Every layout of ``ids`` in tables of 2 and 3 and at most ``byes_left`` byes."""
    if not ids:
        yield (), ()
        return
    first, rest = ids[0], ids[1:]
    if byes_left:
        for tables, byes in _partitions(rest, byes_left - 1):
            yield tables, (first, *byes)
    for i, b in enumerate(rest):
        after = rest[:i] + rest[i + 1 :]
        for tables, byes in _partitions(after, byes_left):
            yield ((first, b), *tables), byes
        for j, c in enumerate(after):
            for tables, byes in _partitions(after[:j] + after[j + 1 :], byes_left):
                yield ((first, b, c), *tables), byes


def assert_the_book_could_not_seat_them_together(players, rules, layout, explained, top, mate):
    """SEARCH claims that the book's own pairing (the layout) seats ``mate`` away from
    ``top`` because seating them together breaks an earlier criterion of the book's rule.
    Checked by brute force on small fields: every layout that keeps the tables of the
    players ranked above ``top`` and seats the two together has a forbidden pair, more
    rematches (or as many, when some are unavoidable: the finer rematch rules decide),
    other table sizes, or its 3-player table or bye later in the book's order."""
    assert rules.book is not None and set(rules.book.tables) == {
        frozenset(t) for t in layout.tables
    }
    if len(players) > 8:
        return
    rank = {s.id: s.rank for t in explained.tables for s in t.players}
    above = [t for t in layout.tables if min(rank[p] for p in t) < rank[top]]
    placed = {p for t in above for p in t}
    rest = [p.id for p in players if p.id not in placed]

    def rematches(ws):
        return sum(1 for w in ws if w.kind == REMATCH)

    def specials(tables, byes):
        had = rules.book.had_triple
        keys = sorted(rules.book.key(t, had) for t in tables if len(t) == 3)
        return keys, sorted(rules.book.key((p,), rules.book.had_bye) for p in byes)

    book_warnings = rules.warnings(layout)
    book_sizes = sorted(len(t) for t in layout.tables)
    book_special = specials(layout.tables, layout.byes)
    for tables, byes in _partitions(rest, len(layout.byes)):
        if not any(top in t and mate in t for t in tables):
            continue
        alt = ProposedLayout(tables=(*above, *tables), byes=byes)
        ws = rules.warnings(alt)
        if any(w.kind == FORBIDDEN for w in ws):
            continue
        if rematches(ws) > rematches(book_warnings):
            continue
        if rematches(ws) == rematches(book_warnings) > 0:
            continue
        if sorted(len(t) for t in alt.tables) != book_sizes:
            continue
        assert specials(alt.tables, alt.byes) > book_special, (
            f"{top} and {mate} could sit together in {alt} as well as the book's {layout}"
        )


def test_the_book_pairing_of_a_field_is_explained_group_by_group():
    # scores 40, 36, 34, 28, 22, 8; only p3-p4 have met: the book pairs p1-p2, p3-p5, p4-p6
    # (docs/pairing.md, "Examples").
    players = field(40, 36, 34, 28, 22, 8)
    met = [Meeting("p3", "p4", 1)]
    rules = rules_for(players, met=met)
    layout = ProposedLayout(tables=(("p1", "p2"), ("p3", "p5"), ("p4", "p6")))
    explained = explain_round(layout, players, rules)
    # p4 (28) and p6 (8) are more than one even turn apart: the check's warning, told there.
    assert [(w.kind, w.players) for w in explained.table(3).warnings] == [(SCORE_GAP, ("p4", "p6"))]
    assert explained.table(1).warnings == explained.table(2).warnings == ()
    second = explained.table(2)
    # p5 (22) moves up to p3 (34): p3's group holds no one else.
    assert [m.player for m in second.moves] == ["p5"]
    assert second.moves[0].gap == 12 and second.moves[0].exhausted
    assert second.fresh
    assert [n for _, n in explained.groups] == [1] * 6


def test_a_group_whose_players_met_already_moves_the_next_one_up():
    # p1, p2, p3 on 30; p1 met p2 and p3: the leader must take the next group's p4.
    players = field(30, 30, 30, 20, 20, 10)
    met = [Meeting("p1", "p2", 1), Meeting("p1", "p3", 2)]
    rules = rules_for(players, met=met)
    layout = ProposedLayout(tables=(("p1", "p4"), ("p2", "p3"), ("p5", "p6")))
    explained = explain_round(layout, players, rules)
    (move,) = explained.table(1).moves
    assert (move.player, move.to, move.gap) == ("p4", "p1", 10)
    assert move.exhausted
    assert [(b.player, b.why, b.rounds) for b in move.blocked] == [
        ("p2", MET, (1,)),
        ("p3", MET, (2,)),
    ]


def test_the_book_3_player_table_and_a_hand_made_one_against_the_book():
    players = field(30, 24, 18, 12, 6, 6, 0)
    rules = rules_for(players, had_triple={"p7": [1]})
    book = rules.book.triple
    assert book is not None
    rest = [p.id for p in players if p.id not in book]
    layout = ProposedLayout(tables=(tuple(rest[:2]), tuple(rest[2:]), tuple(book)))
    explained = explain_round(layout, players, rules, had_triple={"p7": [1]})
    triple = explained.table(3)
    assert triple.special.why == BOOK
    assert triple.special.had == (("p7", (1,)),) or "p7" not in book
    # The leader moved down to the 3-player table: the check's own warning is told there,
    # and the table is not called the book's.
    moved = ProposedLayout(tables=(("p5", "p2"), ("p3", "p4"), ("p1", "p6", "p7")))
    explained = explain_round(moved, players, rules)
    triple = explained.table(3)
    assert triple.special.why != BOOK
    assert [w.kind for w in triple.warnings if w.kind in SPECIAL] == [SPECIAL_GROUP]


def test_the_bye_of_the_book_and_its_reason():
    # scores 30, 24, 18, 6, 6 under "pairs+bye"; p5 has had a bye: the book gives p4 the
    # bye (docs/pairing.md, "Examples").
    players = field(30, 24, 18, 6, 6)
    rules = rules_for(players, had_bye={"p5": [1]}, policy="pairs+bye")
    layout = ProposedLayout(tables=(("p1", "p2"), ("p3", "p5")), byes=("p4",))
    explained = explain_round(layout, players, rules, had_bye={"p5": [1]})
    bye = explained.table(3)
    assert bye.bye and bye.special.why == BOOK and bye.warnings == ()
    # p5's bye again, by hand: the check's second-bye warning is told at her bye.
    again = ProposedLayout(tables=(("p1", "p2"), ("p3", "p4")), byes=("p5",))
    bye = explain_round(again, players, rules, had_bye={"p5": [1]}).table(3)
    assert bye.special.why != BOOK
    assert bye.special.had == (("p5", (1,)),)
    assert [w.kind for w in bye.warnings] == [SPECIAL_AGAIN]


def test_closest_scores_names_the_odd_table_without_the_books_rule():
    players = field(30, 24, 18, 12, 6)
    rules = RoundRules(scores={p.id: p.score for p in players}, policy="pairs+triple")
    layout = ProposedLayout(tables=(("p1", "p2"), ("p3", "p4", "p5")))
    assert explain_round(layout, players, rules).table(2).special.why == ODD


def test_a_group_mate_left_free_is_not_called_taken():
    # p1 and p2 both on 30 but seated apart by hand: p2 is FREE, not "taken above".
    players = field(30, 30, 20, 20)
    rules = rules_for(players)
    layout = ProposedLayout(tables=(("p1", "p3"), ("p2", "p4")))
    (move,) = explain_round(layout, players, rules).table(1).moves
    assert [(b.player, b.why) for b in move.blocked] == [("p2", FREE)]


def test_the_books_search_moving_a_group_mate_away_is_named_and_holds():
    # Seven players: Anna and Cleo lead on 30, Emil 27 met Finn and Greta at the round 1
    # 3-player table. The book's 3-player table goes to the lowest group (Finn, Ben,
    # Dora); with Anna-Cleo, Emil and Greta (who met) would be left: so Anna plays Emil,
    # Cleo plays Greta (the browser test's event).
    players = [
        PairingPlayer(id=n, score=s, seed=i)
        for i, (n, s) in enumerate(
            [
                ("anna", 30),
                ("cleo", 30),
                ("emil", 27),
                ("greta", 18),
                ("finn", 9),
                ("ben", 6),
                ("dora", 6),
            ],
            start=1,
        )
    ]
    met = [
        Meeting("anna", "ben", 1),
        Meeting("cleo", "dora", 1),
        Meeting("emil", "finn", 1),
        Meeting("emil", "greta", 1),
        Meeting("finn", "greta", 1),
    ]
    had = {"emil": [1], "finn": [1], "greta": [1]}
    rules = rules_for(players, met=met, had_triple=had)
    book = rules.book
    layout = ProposedLayout(tables=tuple(tuple(sorted(t)) for t in book.tables))
    explained = explain_round(layout, players, rules, had_triple=had)
    anna = next(t for t in explained.tables if "anna" in {s.id for s in t.players})
    (move,) = anna.moves
    assert (move.player, move.to) == ("emil", "anna")
    assert [(b.player, b.why) for b in move.blocked] == [("cleo", SEARCH)]
    assert_the_book_could_not_seat_them_together(players, rules, layout, explained, "anna", "cleo")
    assert not move.exhausted
