"""``python -m tournaments.pairing FILE|-``: the JSON interface and its exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.pairing", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return done.returncode, json.loads(done.stdout)


REQUEST = {
    "policy": "pairs+triple",
    "players": [
        {"id": "p1", "score": 36, "seed": 1},
        {"id": "p2", "score": 30, "seed": 2},
        {"id": "p3", "score": 24, "seed": 3},
        {"id": "p4", "score": 18, "seed": 4},
        {"id": "p5", "score": 12, "seed": 5},
    ],
    "met": [["p1", "p2"]],
    "forbidden": [],
    "had_triple": [],
    "had_bye": [],
}


def test_pairs_a_file(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(REQUEST))
    code, out = run_cli(str(path))
    assert code == 0
    assert out == {"tables": [["p1", "p3"], ["p2", "p4", "p5"]], "bye": None, "rematches": 0}


def test_reads_stdin_with_a_bye_policy() -> None:
    code, out = run_cli("-", stdin=json.dumps({**REQUEST, "policy": "pairs+bye"}))
    assert code == 0
    assert out["bye"] == "p5"
    assert out["tables"] == [["p1", "p3"], ["p2", "p4"]]


def test_no_valid_pairing_exits_1() -> None:
    request = {"players": [{"id": "a", "score": 0}, {"id": "b", "score": 0}]}
    code, out = run_cli("-", stdin=json.dumps({**request, "forbidden": [["a", "b"]]}))
    assert code == 1
    assert "error" in out


def test_malformed_input_exits_2(tmp_path: Path) -> None:
    for text in [
        "{not json",
        "[]",
        json.dumps({**REQUEST, "policy": "quads"}),
        json.dumps({**REQUEST, "players": [{"id": 3, "score": 1}]}),
        json.dumps({**REQUEST, "players": [{"id": "a", "score": "x"}]}),
        json.dumps({**REQUEST, "met": [["p1"]]}),
        json.dumps({**REQUEST, "players": [{"id": "a"}, {"id": "a"}]}),
    ]:
        code, out = run_cli("-", stdin=text)
        assert code == 2, text
        assert "error" in out
    code, out = run_cli(str(tmp_path / "missing.json"))
    assert code == 2


def test_a_league_request_returns_the_fixed_schedule() -> None:
    request = {**REQUEST, "policy": "pairs+bye", "league": {"cycles": 2}}
    code, out = run_cli("-", stdin=json.dumps(request))
    assert code == 0
    assert out["players"] == ["p1", "p2", "p3", "p4", "p5"]
    assert len(out["rounds"]) == 10 and out["cycles"] == 2
    assert out["never"] == [] and out["again"] == []
    assert all(len(r["byes"]) == 1 for r in out["rounds"])


def test_a_malformed_league_request_exits_2() -> None:
    code, out = run_cli("-", stdin=json.dumps({**REQUEST, "league": {"cycles": 3}}))
    assert code == 2 and "league" in str(out["error"])


def test_the_method_is_the_books_by_default_and_closest_on_request() -> None:
    # The first example: only p3-p4 have met.
    scores = [40, 36, 34, 28, 22, 8]
    request = {
        "players": [{"id": f"p{i + 1}", "score": s} for i, s in enumerate(scores)],
        "met": [["p3", "p4"]],
    }
    code, out = run_cli("-", stdin=json.dumps(request))
    assert code == 0
    assert out["tables"] == [["p1", "p2"], ["p3", "p5"], ["p4", "p6"]]
    code, out = run_cli("-", stdin=json.dumps({**request, "method": "closest"}))
    assert code == 0
    assert out["tables"] == [["p1", "p3"], ["p2", "p4"], ["p5", "p6"]]
    code, out = run_cli("-", stdin=json.dumps({**request, "method": "nearest"}))
    assert code == 2
    assert "method" in str(out["error"])
