"""One more ply against a stored position (games/pentagame/replay.py, `extend`): a ply
recorded live is checked against the position stored with its record, not by replaying
the record. It must say exactly what replaying the longer record says, at every ply of
every variant, for legal and illegal moves alike, from a position that went through
JSON (as it is stored), and must never trust a position that is not the record's."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games import rulesets
from games.pentagame import extend, position_of, replay
from games.pentagame.playout import random_game
from games.pentagame.replay import state_at
from tests.games.pentagame.test_pentagame_properties import VARIANTS

# Moves that are illegal, or not notation at all, somewhere in most games.
WRONG = ["pass", "W-W1B", "b2R-R3w", "nonsense", "", "G-G1W"]


def stored(position: object) -> object:
    """The position as the database gives it back."""
    return json.loads(json.dumps(position))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9), st.sampled_from(WRONG))
def test_extending_ply_by_ply_from_the_stored_position_says_what_a_replay_says(
    variant, seed, wrong
):
    players, name = variant
    moves = random_game(players, seed=seed, max_plies=400, variant=name)
    record = {"players": players, "variant": name, "moves": []}
    position = None
    for n, move in enumerate(moves):
        before = {**record, "moves": moves[:n]}
        # A wrong move here answers as the replay of the record with it does.
        tried, _ = extend(before, stored(position), wrong)
        assert tried.to_dict(details=True) == replay(
            {**before, "moves": [*moves[:n], wrong]}
        ).to_dict(details=True)
        result, position = extend(before, stored(position), move)
        whole = replay({**record, "moves": moves[: n + 1]})
        assert result.to_dict(details=True) == whole.to_dict(details=True)
        assert position == position_of(whole.state)


def test_a_position_that_is_not_the_records_is_not_read():
    moves = random_game(3, seed=5, max_plies=60)
    record = {"players": 3, "variant": "standard", "moves": moves[:20]}
    _, at_20 = extend({**record, "moves": moves[:19]}, None, moves[19])
    # Another number of plies, another table size, another variant, another shape, junk.
    assert state_at(at_20, 3, "standard", 20) is not None
    assert state_at(at_20, 3, "standard", 19) is None
    assert state_at(at_20, 2, "standard", 20) is None
    assert state_at(at_20, 3, "inside-out", 20) is None
    assert state_at({**at_20, "shape": 0}, 3, "standard", 20) is None
    assert state_at({**at_20, "pieces": "junk"}, 3, "standard", 20) is None
    assert state_at([1, 2], 3, "standard", 20) is None
    # Given the position after 20 plies for a record of 25, the record is replayed.
    longer = {**record, "moves": moves[:25]}
    result, position = extend(longer, at_20, moves[25])
    assert result.to_dict() == replay({**record, "moves": moves[:26]}).to_dict()
    assert position == position_of(replay({**record, "moves": moves[:26]}).state)


def test_the_ruleset_adds_one_ply_the_same_way_with_or_without_a_stored_position():
    pentagame = rulesets.get("pentagame")
    moves = random_game(2, seed=9, max_plies=80)
    record = {"players": 2, "variant": "standard", "moves": moves[:30]}
    cheap, position = pentagame.one_more(record, None, moves[30])
    again, _ = pentagame.one_more({**record, "moves": moves[:31]}, position, moves[31])
    assert again.to_dict() == replay({**record, "moves": moves[:32]}).to_dict()
    assert cheap.to_dict() == replay({**record, "moves": moves[:31]}).to_dict()
