"""The pairing editor's warnings, computed from a proposed layout and the history alone."""

from __future__ import annotations

from tournaments.pairing import Meeting
from tournaments.pairing.warnings import (
    FORBIDDEN,
    REMATCH,
    SCORE_GAP,
    TABLE_SIZE,
    PairingWarning,
    ProposedLayout,
    layout_warnings,
    new_warnings,
    policy_sizes,
)


def kinds(warnings: list[PairingWarning]) -> list[str]:
    return [w.kind for w in warnings]


def test_a_clean_layout_has_no_warning():
    layout = ProposedLayout(tables=(("a", "b"), ("c", "d", "e")))
    met = [Meeting("a", "c", 1)]
    assert layout_warnings(layout, met=met, scores={"a": 10, "b": 12}, gap_limit=18) == []


def test_a_rematch_names_the_players_and_every_earlier_round():
    layout = ProposedLayout(tables=(("b", "a"),))
    met = [Meeting("a", "b", 3), Meeting("b", "a", 1), Meeting("a", "c", 2)]
    (warning,) = layout_warnings(layout, met=met)
    assert warning == PairingWarning(REMATCH, ("a", "b"), rounds=(1, 3))


def test_a_forbidden_pair_at_a_3_player_table():
    layout = ProposedLayout(tables=(("a", "b", "c"),))
    assert kinds(layout_warnings(layout, forbidden=[("c", "a")])) == [FORBIDDEN]


def test_the_score_gap_warns_only_above_the_limit():
    layout = ProposedLayout(tables=(("a", "b"), ("c", "d")))
    scores = {"a": 40.0, "b": 22.0, "c": 40.0, "d": 21.5}
    warnings = layout_warnings(layout, scores=scores, gap_limit=18)
    assert warnings == [PairingWarning(SCORE_GAP, ("c", "d"), gap=18.5)]
    assert layout_warnings(layout, scores=scores) == [], "no limit: not checked"


def test_table_sizes_outside_the_policy():
    triple = ProposedLayout(tables=(("a", "b", "c"),))
    assert kinds(layout_warnings(triple, policy="pairs+bye")) == [TABLE_SIZE]
    assert layout_warnings(triple, policy="pairs+triple") == []
    two_triples = ProposedLayout(tables=(("a", "b", "c"), ("d", "e", "f")))
    assert layout_warnings(two_triples, policy="pairs+triple") == [
        PairingWarning(TABLE_SIZE, size=3)
    ]
    assert layout_warnings(two_triples, policy="prefer-triples") == []
    bye = ProposedLayout(tables=(("a", "b"),), byes=("c",))
    assert kinds(layout_warnings(bye, policy="pairs+triple")) == [TABLE_SIZE]
    assert layout_warnings(bye, policy="pairs+bye") == []
    two_byes = ProposedLayout(tables=(("a", "b"),), byes=("c", "d"))
    assert kinds(layout_warnings(two_byes, policy="pairs+bye")) == [TABLE_SIZE]
    # A game played only by two: a 3-player table is outside whatever the policy says.
    assert kinds(layout_warnings(triple, policy="prefer-triples", playable=(2,))) == [TABLE_SIZE]
    assert policy_sizes("pairs+bye", (2, 3, 4)) == (2,)


def test_new_warnings_are_those_the_edit_creates():
    met = [Meeting("a", "b", 1), Meeting("c", "d", 1)]
    before = layout_warnings(ProposedLayout(tables=(("a", "b"), ("c", "e"))), met=met)
    after = layout_warnings(ProposedLayout(tables=(("a", "b"), ("c", "d"))), met=met)
    assert new_warnings(before, after) == [PairingWarning(REMATCH, ("c", "d"), rounds=(1,))]
    # Two 3-player tables before and after a swap between them: nothing new.
    big = ProposedLayout(tables=(("a", "b", "c"), ("d", "e", "f")))
    swapped = ProposedLayout(tables=(("a", "b", "d"), ("c", "e", "f")))
    assert new_warnings(layout_warnings(big), layout_warnings(swapped)) == []
