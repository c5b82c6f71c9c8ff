"""The pre-round's orders, pure (tournaments/pairing/pre_round.py; docs/pairing.md,
"Pre-round"): by rating, by a draw anyone can replay, and by the pre-round's result; and
the standings core leaving out a round that does not count."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import PairingPlayer, pair_round
from tournaments.pairing.pre_round import (
    DRAW_LIMIT,
    Entrant,
    drawn_order,
    lot,
    ranks,
    rating_order,
    result_order,
)
from tournaments.standings.table import (
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

# docs/pairing.md, "Example: six players, by rating".
SIX = [
    Entrant("Anna", 1, 1500),
    Entrant("Ben", 2, 1720),
    Entrant("Cleo", 3, None),
    Entrant("Dora", 4, 1610),
    Entrant("Emil", 5, 1720),
    Entrant("Finn", 6, 1400),
]


def paired(order: list[str]) -> list[tuple[str, ...]]:
    """Round 1 over ``order``: everyone on 0, the order as the seeds."""
    seeds = ranks(order)
    players = [PairingPlayer(id=pid, seed=seeds[pid]) for pid in order]
    return [t.seats for t in pair_round(players).tables]


def test_by_rating_the_highest_first_equal_ratings_by_seed_the_unrated_last():
    assert rating_order(SIX) == ["Ben", "Emil", "Dora", "Anna", "Finn", "Cleo"]


def test_the_documented_pre_round_by_rating_seats_ben_emil_dora_anna_finn_cleo():
    assert paired(rating_order(SIX)) == [("Ben", "Emil"), ("Dora", "Anna"), ("Finn", "Cleo")]


def test_a_lot_is_the_first_eight_bytes_of_sha256_of_draw_colon_seed():
    digest = hashlib.sha256(b"2026:1").hexdigest()
    assert lot(2026, 1) == int(digest[:16], 16) == 0x3ABF1D156A621CA2


def test_the_documented_draw_2026_orders_anna_finn_dora_cleo_ben_emil():
    assert drawn_order(SIX, 2026) == ["Anna", "Finn", "Dora", "Cleo", "Ben", "Emil"]
    assert paired(drawn_order(SIX, 2026)) == [("Anna", "Finn"), ("Dora", "Cleo"), ("Ben", "Emil")]


def test_a_draw_outside_its_range_is_refused():
    for draw in (-1, DRAW_LIMIT):
        try:
            drawn_order(SIX, draw)
        except ValueError:
            continue
        raise AssertionError(f"draw {draw} was accepted")


def test_the_documented_result_orders_by_score_then_rating_then_seed():
    scores = {"Ben": 20, "Emil": 16, "Dora": 16, "Anna": 20, "Finn": 24, "Cleo": 12}
    assert result_order(SIX, scores) == ["Finn", "Ben", "Anna", "Emil", "Dora", "Cleo"]


def test_equal_scores_and_ratings_go_by_seed_and_the_unrated_after_the_rated():
    field = [Entrant("a", 3, 1500), Entrant("b", 1, None), Entrant("c", 2, 1500)]
    assert result_order(field, {"a": 10.0, "b": 10.0, "c": 10.0}) == ["c", "a", "b"]
    # Noise of sums of halves times factors is no difference.
    assert result_order(field, {"a": 10.0, "b": 10.0, "c": 10.0 - 1e-12}) == ["c", "a", "b"]


fields = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(0, 3000))), min_size=1, max_size=40
).map(lambda rows: [Entrant(f"p{i}", i, rating) for i, (rating,) in enumerate(rows, start=1)])


# Pairing a field takes a few milliseconds, more on a busy machine: no deadline.
@settings(deadline=None)
@given(fields, st.integers(0, DRAW_LIMIT - 1))
def test_the_same_draw_always_gives_the_same_tables_and_seats_everyone_once(field, draw):
    order = drawn_order(field, draw)
    assert order == drawn_order(list(reversed(field)), draw)
    assert sorted(order) == sorted(e.id for e in field)
    if len(field) >= 2:
        tables = paired(order)
        assert tables == paired(drawn_order(field, draw))
        seated = [p for t in tables for p in t] + [
            p for p in order if p not in {q for t in tables for q in t}
        ]
        assert sorted(seated) == sorted(order) and len(set(seated)) == len(seated)


@given(fields, st.integers(0, DRAW_LIMIT - 1))
def test_one_more_player_leaves_the_others_in_the_same_drawn_order(field, draw):
    newcomer = Entrant("new", len(field) + 1)
    with_her = [p for p in drawn_order([*field, newcomer], draw) if p != "new"]
    assert with_her == drawn_order(field, draw)


@settings(deadline=None)
@given(fields)
def test_the_rating_order_is_respected_at_every_table_from_the_top(field):
    order = rating_order(field)
    by_id = {e.id: e for e in field}
    for better, worse in zip(order, order[1:], strict=False):
        a, b = by_id[better], by_id[worse]
        if a.rating is None:
            assert b.rating is None and a.seed < b.seed
        elif b.rating is not None:
            assert (a.rating, -a.seed) > (b.rating, -b.seed)
    if len(field) >= 2:
        # Everyone on 0: the top-down rule seats the order's neighbours together.
        tables = paired(order)
        assert tables[0][:2] == tuple(order[:2])


def test_a_round_that_does_not_count_marks_its_players_and_adds_nothing_else():
    core = [StandingsPlayer(id="a", seed=1), StandingsPlayer(id="b", seed=2)]
    table = TableResult(seats=("a", "b"), games=(GameResult((3, 1)), GameResult((3, 0))))
    second = TableResult(seats=("a", "b"), games=(GameResult((0, 3)),))
    counted = compute_standings(core, [RoundResult(1, (table,)), RoundResult(2, (second,))])
    left_out = compute_standings(
        core, [RoundResult(1, (table,), counts=False), RoundResult(2, (second,))]
    )
    only_second = compute_standings(core, [RoundResult(2, (second,))])
    assert {r.player: r.score for r in counted} == {"a": 22.0, "b": 14.0}
    assert [(r.player, r.score, r.games_played, r.rounds_played) for r in left_out] == [
        (r.player, r.score, r.games_played, r.rounds_played) for r in only_second
    ]
    assert [r.marks for r in left_out] == [("table", "table"), ("table", "table")]
