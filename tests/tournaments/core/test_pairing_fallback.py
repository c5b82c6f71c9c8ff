"""A forbidden pair in a field that needs a 3-player table falls back to the policy's
alternative, 2-player tables and a bye, instead of failing."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    PairingError,
    PairingPlayer,
    club_tables,
    pair_round,
    pair_round_or_fallback,
)
from tournaments.pairing.club import ClubPlayer
from tournaments.pairing.fallback import fallback_policy

THREE = [PairingPlayer(id=x, score=0, seed=i + 1) for i, x in enumerate("abc")]


def test_three_players_with_a_forbidden_pair_get_a_table_of_two_and_a_bye() -> None:
    with pytest.raises(PairingError):
        pair_round(THREE, forbidden=[("a", "b")])
    for policy in ("pairs+triple", "prefer-triples"):
        pairing = pair_round_or_fallback(THREE, forbidden=[("a", "b")], policy=policy)
        seated = {pid for t in pairing.tables for pid in t.seats}
        assert pairing.bye in ("a", "b")
        assert seated == {"a", "b", "c"} - {pairing.bye}
        assert all({"a", "b"} - set(t.seats) for t in pairing.tables)


def test_without_forbidden_pairs_or_with_an_even_field_nothing_falls_back() -> None:
    assert pair_round_or_fallback(THREE).tables[0].seats.__len__() == 3
    assert fallback_policy("pairs+triple", 4) is None
    assert fallback_policy("pairs+bye", 3) is None
    four = [PairingPlayer(id=x, score=0, seed=i + 1) for i, x in enumerate("abcd")]
    # a must sit with someone; forbidding her every partner leaves nothing to fall back to.
    with pytest.raises(PairingError):
        pair_round_or_fallback(four, forbidden=[("a", "b"), ("a", "c"), ("a", "d")])


def test_a_club_evening_of_three_falls_back_too() -> None:
    present = [ClubPlayer(id=x, rating=1500.0) for x in "abc"]
    pairing = club_tables(present, forbidden=[("a", "c")])
    assert pairing.bye in ("a", "c")
