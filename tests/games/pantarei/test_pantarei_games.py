"""Random legal games, replay of records, illegal records and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rulesets
from games.pantarei import (
    RULESET,
    RecordError,
    apply_move,
    finished,
    format_move,
    initial_state,
    legal_moves,
    parse_move,
    random_record,
    random_setup,
    replay,
)
from games.pantarei.rules import FULL_SET, WIN_HEIGHT

ROOT = Path(__file__).resolve().parents[3]
SETUP = ["W1", "B1", "W2", "B2", "W3", "B3"] * 3 + ["N"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_random_games_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    setup = random_setup(rng)
    state = initial_state(setup, rng.choice("WB"))
    moves: list[str] = []
    while len(moves) < 400:
        legal = legal_moves(state)
        if not legal:
            assert finished(state)
            break
        for move in legal:
            assert parse_move(format_move(move)) == move
            apply_move(state, move)  # every generated move applies
        move = rng.choice(legal)
        state = apply_move(state, move)
        moves.append(format_move(move))
        # Conservation: the 19 scales are all still on the snake.
        assert Counter(s for st_ in state.slots for s in st_) == FULL_SET
        heights = [len(st_) for st_ in state.slots]
        assert max(heights) < WIN_HEIGHT or state.winner is not None
    record = {"setup": setup, "first": "white" if state.first == "W" else "black"}
    res = replay({**record, "moves": moves})
    assert res.ok and res.plies == len(moves)
    assert res.state == state
    assert replay({**record, "moves": moves}).to_dict() == res.to_dict()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9))
def test_playout_records_replay_and_end(seed: int) -> None:
    record = random_record(seed)
    res = replay(record)
    assert res.ok
    d = res.to_dict()
    assert set(d) == {"ok", "plies", "finished", "to_move", "out", "error"}
    if res.finished:
        assert d["to_move"] is None and sorted(d["out"]) in ([0, 0], [0, 1])
        assert max(len(s) for s in res.state.slots) >= WIN_HEIGHT or d["out"] == [0, 0]
    # Any move after the end, or any move the engine does not list, is rejected.
    legal = {format_move(m) for m in legal_moves(res.state)}
    bad = next(t for t in ("1-2", "2=4", "3x9", "pass", "19-16", "5-8", "10=13") if t not in legal)
    broken = replay({**record, "moves": [*record["moves"], bad]})
    assert not broken.ok and broken.error is not None
    assert broken.error.ply == len(record["moves"]) + 1 and broken.error.move == bad
    assert broken.plies == len(record["moves"])


def test_illegal_records_report_ply_and_reason() -> None:
    res = replay({"setup": SETUP, "moves": ["5-8", "2-1", "19-18"]})
    # W1 B1 W2 B2 W3 ...: white's 3 on slot 5 moves to 8; black's 1 on 2 onto 1;
    # slot 19 holds the neutral scale.
    assert res.to_dict() == {
        "ok": False,
        "plies": 2,
        "finished": False,
        "to_move": 0,
        "out": [0, 0],
        "error": {"ply": 3, "move": "19-18", "reason": "the neutral scale cannot move by itself"},
    }
    res = replay({"setup": SETUP, "moves": ["1-2", "nonsense"]})
    assert res.error is not None and res.error.ply == 2 and "cannot read" in res.error.reason
    res = replay({"setup": SETUP, "first": "black", "moves": ["1-2"]})
    assert res.error is not None and res.error.reason == (
        "the top scale on slot 1 is white W1: you play black"
    )


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"moves": []},
        {"setup": SETUP[:-1], "moves": []},
        {"setup": [*SETUP[:-1], "W1"], "moves": []},
        {"setup": [*SETUP[:-1], "X9"], "moves": []},
        {"setup": SETUP, "moves": "1-2"},
        {"setup": SETUP, "moves": [], "players": 3},
        {"setup": SETUP, "moves": [], "first": "red"},
    ],
)
def test_not_a_record(record: Any) -> None:
    with pytest.raises(RecordError):
        replay(record)


def test_registered_ruleset() -> None:
    # The registry completes the engine's own RULESET with the replay page's parts.
    registered = rulesets.get("pantarei")
    assert registered.replay is RULESET.replay and registered.points is RULESET.points
    assert registered.start is not None and registered.picture is not None
    assert RULESET.points([1, 0]) == [1.0, 0.0]
    assert RULESET.points([0, 0]) == [0.5, 0.5]
    assert RULESET.replay({"setup": SETUP, "moves": []}).ok


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.pantarei", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.stderr == ""
    return proc.returncode, json.loads(proc.stdout)


def test_cli(tmp_path: Path) -> None:
    record = random_record(7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out = run_cli("replay", str(path))
    assert code == 0 and out == replay(record).to_dict()
    code, out = run_cli("moves", "-", stdin=json.dumps({"setup": SETUP, "moves": []}))
    assert code == 0 and out["to_move"] == 0
    assert out["moves"] == [format_move(m) for m in legal_moves(initial_state(SETUP))]
    bad = json.dumps({"setup": SETUP, "moves": ["1-3"]})
    code, out = run_cli("replay", "-", stdin=bad)
    assert code == 1 and out["error"]["ply"] == 1
    code, out = run_cli("moves", "-", stdin=bad)
    assert code == 1 and out["ok"] is False
    code, out = run_cli("replay", "-", stdin="not json")
    assert code == 2 and out["ok"] is False
    code, out = run_cli("replay", "-", stdin=json.dumps({"setup": [], "moves": []}))
    assert code == 2 and "setup" in out["error"]["reason"]
    code, out = run_cli("replay", str(tmp_path / "missing.json"))
    assert code == 2


@pytest.mark.parametrize("setup", [None, "W1", [1, 2, 3], {"a": 1}])
def test_a_setup_that_is_not_a_list_of_scales_is_not_a_record(setup):
    from games.pantarei import RecordError, replay

    with pytest.raises(RecordError, match="`setup` must list the 19 scales"):
        replay({"players": 2, "setup": setup, "moves": []})
