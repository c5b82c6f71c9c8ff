"""PentaCosmos: records, illegal records and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.pentacosmos import RULESET, RecordError, replay
from games.pentacosmos.board import ADJ
from games.pentacosmos.playout import random_game

ROOT = Path(__file__).resolve().parents[3]


def test_replay_fields_are_exactly_the_shared_ones() -> None:
    assert replay({"players": 2, "moves": ["1", "2"]}).to_dict() == {
        "ok": True,
        "plies": 2,
        "finished": False,
        "to_move": 1,
        "out": [0, 0],
        "error": None,
    }


def _phase_two(variant: str = "standard") -> list[str]:
    return [str(s) for s in range(1, 61)] if variant == "standard" else []


@pytest.mark.parametrize(
    ("moves", "ply", "words"),
    [
        (["1", "1"], 2, "taken"),
        (["1", "0"], 2, "no space 0"),
        (["1", "2-3"], 2, "phase I"),
        ([*_phase_two(), f"2-{ADJ[2][0]}"], 61, "move one of your own"),
        ([*_phase_two(), "pass"], 61, "may not pass"),
        ([*_phase_two(), "hop"], 61, "not a move"),
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


def test_coin_records_need_the_flip() -> None:
    moves = [str(s) for s in range(1, 61)]
    src = next(s for s in range(1, 61) if s % 2 == 1 and any(t > 60 for t in ADJ[s]))
    dst = next(t for t in ADJ[src] if t > 60)
    res = replay({"players": 2, "variant": "coin", "moves": [*moves, f"{src}-{dst}"]})
    assert res.error is not None and res.error.ply == 61 and "coin flip" in res.error.reason
    res = replay({"players": 2, "variant": "coin", "moves": [*moves, "coin:1", f"{src}-{dst}"]})
    assert res.ok and res.to_move == 2


@pytest.mark.parametrize(
    "record",
    [
        [],
        {"players": 1, "moves": []},
        {"players": 2, "tokens": "30", "moves": []},
        {"players": 3, "variant": "teams", "moves": []},
        {"players": 2, "moves": [1]},
    ],
)
def test_not_a_record(record: Any) -> None:
    with pytest.raises(RecordError):
        replay(record)


def test_ruleset() -> None:
    assert RULESET.name == "pentacosmos" and RULESET.target == 230
    assert "tokens" in RULESET.record_keys
    assert sum(RULESET.points([70, 20, 30])) == pytest.approx(345)


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.pentacosmos", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.stderr == ""
    return proc.returncode, json.loads(proc.stdout)


def test_cli_exit_codes(tmp_path: Path) -> None:
    moves = random_game(2, seed=3, max_plies=100)
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"players": 2, "moves": moves}))
    code, out = run_cli("replay", str(good))
    assert code == 0 and out["ok"] and out["plies"] == 100
    assert set(out) == {"ok", "plies", "finished", "to_move", "out", "error"}

    bad = json.dumps({"players": 2, "moves": ["5", "5"]})
    code, out = run_cli("replay", "-", stdin=bad)
    assert code == 1 and out["error"]["ply"] == 2 and "taken" in out["error"]["reason"]
    code, out = run_cli("moves", "-", stdin=bad)
    assert code == 1

    code, out = run_cli("replay", "-", stdin="[1, 2")
    assert code == 2 and out["ok"] is False
    code, out = run_cli("moves", "-", stdin=json.dumps({"players": 7, "moves": []}))
    assert code == 2

    code, out = run_cli("moves", str(good))
    assert code == 0 and out["to_move"] == 1 and out["moves"]
    assert all("-" in m for m in out["moves"])
