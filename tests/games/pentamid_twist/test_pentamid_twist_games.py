"""Random legal games, replay of records, illegal records and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rulesets
from games.pentamid_twist import (
    RULESET,
    IllegalMove,
    Move,
    RecordError,
    State,
    apply_move,
    finished,
    format_move,
    initial_state,
    legal_moves,
    parse_move,
    random_record,
    replay,
)
from games.pentamid_twist.board import COASTERS, NEIGHBOURS, SQUARES, TURNS
from games.pentamid_twist.rules import NESTS, lines_of, owner, size_of

ROOT = Path(__file__).resolve().parents[3]


def check_conservation(state: State) -> None:
    for seat in (0, 1):
        large, medium, small = state.reserve[seat]
        in_reserve = {3: large, 2: large + medium, 1: large + medium + small}
        for size in (1, 2, 3):
            on_board = sum(
                1 for st_ in state.board for p in st_ if owner(p) == seat and size_of(p) == size
            )
            assert on_board + in_reserve[size] == NESTS
    for st_ in state.board:  # every stack is smaller under larger
        sizes = [size_of(p) for p in st_]
        assert sizes == sorted(set(sizes))


def random_candidate(rng: random.Random) -> Move:
    coaster, turn = rng.choice(COASTERS), rng.choice(TURNS)
    sq = rng.randrange(SQUARES)
    if rng.random() < 0.5:
        return Move("drop", rng.randint(1, 3), -1, sq, coaster, turn)
    return Move("step", 0, sq, rng.choice(NEIGHBOURS[sq]), coaster, turn)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**9))
def test_random_games_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    state = initial_state()
    moves: list[str] = []
    step_bias = rng.random()  # some games step a lot, so the repetition rule is exercised
    while len(moves) < 80:
        legal = legal_moves(state)
        if not legal:
            assert finished(state)
            break
        assert not lines_of(state.board)
        legal_set = set(legal)
        assert len(legal_set) == len(legal)
        for move in rng.sample(legal, min(25, len(legal))):
            assert parse_move(format_move(move)) == move
            apply_move(state, move)  # every generated move applies
        for _ in range(25):  # and every move not generated is rejected
            cand = random_candidate(rng)
            if cand not in legal_set:
                with pytest.raises(IllegalMove):
                    apply_move(state, cand)
        steps = [m for m in legal if m.kind == "step"]
        move = rng.choice(steps if steps and rng.random() < step_bias else legal)
        state = apply_move(state, move)
        moves.append(format_move(move))
        check_conservation(state)
    res = replay({"moves": moves})
    assert res.ok and res.plies == len(moves) and res.state == state
    assert replay({"moves": moves}).to_dict() == res.to_dict()
    if res.finished and state.winner is not None:
        assert lines_of(state.board) == {state.winner}


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**9))
def test_playout_records_replay_and_reject_extra_moves(seed: int) -> None:
    record = random_record(seed, max_plies=60)
    res = replay(record)
    assert res.ok
    d = res.to_dict()
    assert set(d) == {"ok", "plies", "finished", "to_move", "out", "error"}
    assert (d["to_move"] is None) == d["finished"]
    legal = {format_move(m) for m in legal_moves(res.state)}
    bad = next(t for t in ("S@a1 ne+", "a1-a2 ne+", "f6-f5 sw-", "M@c3 se++") if t not in legal)
    broken = replay({**record, "moves": [*record["moves"], bad]})
    assert not broken.ok and broken.error is not None
    assert broken.error.ply == len(record["moves"]) + 1 and broken.error.move == bad
    assert broken.plies == len(record["moves"])


def test_illegal_records_report_ply_and_reason() -> None:
    # The piece action comes first: c3 is still occupied when the drop is made, even
    # though the board action would then carry the large from c3 to c1.
    res = replay({"moves": ["L@c3 ne+", "L@c3 sw+"]})
    assert res.error is not None and (res.error.ply, res.plies) == (2, 1)
    assert replay({"moves": ["L@c3 sw+", "L@c3 ne+"]}).ok  # sw+ carried c3 to c1
    res = replay({"moves": ["L@c3 ne+", "L@d4 sw+", "L@d4 nw+"]})
    assert res.to_dict() == {
        "ok": False,
        "plies": 2,
        "finished": False,
        "to_move": 0,
        "out": [0, 0],
        "error": {
            "ply": 3,
            "move": "L@d4 nw+",
            "reason": "d4 is not vacant: drop on an empty square",
        },
    }
    res = replay({"moves": ["L@c3 ne+", "c3-c4"]})
    assert res.error is not None and res.error.ply == 2 and "cannot read" in res.error.reason


@pytest.mark.parametrize(
    "record",
    [
        [],
        {},
        {"moves": "L@c3 ne+"},
        {"moves": [1]},
        {"moves": [], "players": 3},
        {"moves": [], "variant": "arrows"},
        {"moves": [], "variant": "arrows-pips"},
        {"moves": [], "variant": "mirror"},
    ],
)
def test_not_a_record(record: Any) -> None:
    with pytest.raises(RecordError):
        replay(record)


def test_registered_ruleset() -> None:
    # The registry completes the engine's own RULESET with the replay page's parts.
    registered = rulesets.get("pentamid_twist")
    assert registered.replay is RULESET.replay and registered.points is RULESET.points
    assert registered.start is not None and registered.picture is not None
    assert RULESET.points([0, 1]) == [0.0, 1.0]
    assert RULESET.points([0, 0]) == [0.5, 0.5]


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.pentamid_twist", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.stderr == ""
    return proc.returncode, json.loads(proc.stdout)


def test_cli(tmp_path: Path) -> None:
    record = random_record(3, max_plies=40)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out = run_cli("replay", str(path))
    assert code == 0 and out == replay(record).to_dict()
    code, out = run_cli("moves", "-", stdin=json.dumps({"moves": ["L@a1 ne+"]}))
    assert code == 0 and out["to_move"] == 1 and len(out["moves"]) == 35 * 12
    assert out["moves"][0] == "L@b1 nw+"
    bad = json.dumps({"moves": ["M@a1 ne+"]})
    code, out = run_cli("replay", "-", stdin=bad)
    assert code == 1 and out["error"]["ply"] == 1
    code, out = run_cli("moves", "-", stdin=bad)
    assert code == 1 and out["ok"] is False
    code, out = run_cli("replay", "-", stdin="[")
    assert code == 2 and out["ok"] is False
    code, out = run_cli("replay", "-", stdin=json.dumps({"moves": [], "variant": "arrows"}))
    assert code == 2 and "arrow" in out["error"]["reason"]
