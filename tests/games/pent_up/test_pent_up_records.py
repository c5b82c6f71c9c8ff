"""Pent-Up: records, illegal records and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.pent_up import RULESET, RecordError, replay
from games.pent_up.playout import random_game

ROOT = Path(__file__).resolve().parents[3]


def test_replay_fields_are_exactly_the_shared_ones() -> None:
    res = replay({"players": 2, "moves": ["I@0,0", "I@0,1^1"]})
    assert res.to_dict() == {
        "ok": True,
        "plies": 2,
        "finished": False,
        "to_move": 1,
        "out": [1, 1],
        "error": None,
    }


@pytest.mark.parametrize(
    ("moves", "ply", "words"),
    [
        (["I@0,0", "I@0,3"], 2, "next to a tile"),
        (["I@0,0", "I@0,1", "L@-4,0"], 3, "can reach level 2"),
        (["I@0,0", "I@0,1", "nonsense"], 3, "not a placement"),
        (["I@0,0", "V@0,1", "X@9,9", "I@2,1"], 3, "next to a tile"),
        (["I@0,0", "I@0,1", "P1@1,0", "I@7,7"], 4, "already placed the I"),
    ],
)
def test_illegal_records_are_rejected_with_ply_and_reason(
    moves: list[str], ply: int, words: str
) -> None:
    res = replay({"players": 2, "moves": moves})
    assert not res.ok and res.error is not None
    assert res.error.ply == ply and res.plies == ply - 1
    assert res.error.move == moves[ply - 1]
    assert words in res.error.reason


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"players": 5, "moves": []},
        {"players": "2", "moves": []},
        {"players": 2, "variant": "giant", "moves": []},
        {"players": 2, "moves": "I@0,0"},
    ],
)
def test_not_a_record(record: Any) -> None:
    with pytest.raises(RecordError):
        replay(record)


def test_ruleset_points_are_zero_sum() -> None:
    res = replay({"players": 3, "moves": random_game(3, seed=2)})
    points = RULESET.points(res.out)
    assert sum(points) == 3.0
    assert RULESET.name == "pent_up" and RULESET.table_sizes == (2, 3, 4)


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.pent_up", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.stderr == ""
    return proc.returncode, json.loads(proc.stdout)


def test_cli_exit_codes(tmp_path: Path) -> None:
    moves = random_game(2, seed=4)
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"players": 2, "moves": moves}))
    code, out = run_cli("replay", str(good))
    assert code == 0 and out["ok"] and out["finished"] and out["plies"] == 24
    assert set(out) == {"ok", "plies", "finished", "to_move", "out", "error"}

    bad = json.dumps({"players": 2, "moves": ["I@0,0", "I@0,5"]})
    code, out = run_cli("replay", "-", stdin=bad)
    assert code == 1 and out["error"]["ply"] == 2 and "next to a tile" in out["error"]["reason"]

    code, out = run_cli("replay", "-", stdin="not json")
    assert code == 2 and out["ok"] is False
    code, out = run_cli("moves", "-", stdin=json.dumps({"players": 9, "moves": []}))
    assert code == 2

    code, out = run_cli("moves", "-", stdin=json.dumps({"players": 2, "moves": ["I@0,0"]}))
    assert code == 0 and out["to_move"] == 2 and "X@-1,1^1" in out["moves"]
    code, out = run_cli("moves", "-", stdin=bad)
    assert code == 1 and out["error"]["ply"] == 2
