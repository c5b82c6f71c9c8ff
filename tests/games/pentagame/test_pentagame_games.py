"""The two public recorded games, the importer and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.pentagame import apply_move, import_events, parse_stop, replay
from games.pentagame.importer import ImportFormatError, client_stop
from games.pentagame.notation import format_stop

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[3]


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text())


def test_two_player_public_game_is_a_tie() -> None:
    rec = load("online-2p-replayGame.json")
    res = replay(rec)
    assert res.ok and res.plies == 12 and res.finished and res.to_move is None
    # The client's closing Win event names both players: 3 out each.
    assert res.out == [3, 3] and res.winners == [1, 2]
    assert res.out_colours == [["blue", "white", "green"]] * 2
    assert res.to_dict() == rec["expected"]


def test_three_player_public_game() -> None:
    rec = load("online-3p-replaySetGrey.json")
    res = replay(rec)
    assert res.ok and res.plies == 17 and not res.finished and res.to_move == 3
    # Pieces that reached their goals in the event list: p00 p03, p11 p14, p22.
    assert res.out_colours == [["white", "yellow"], ["blue", "green"], ["red"]]
    assert res.to_dict() == rec["expected"]
    # The list stops inside seat 3's swap onto its goal b (a non-adjacent swap) with
    # every grey block on the board: completing it needs a grey re-positioned.
    assert rec["pending"] == "Rsb"
    bad = replay({**rec, "moves": [*rec["moves"], "Rsb"]})
    assert bad.error is not None and "z<from>><to>" in bad.error.reason
    done = apply_move(res.state, "Rsbzg2w>G1W")
    assert done.out[2] == (2, 1)


@pytest.mark.parametrize("name", ["online-2p-replayGame", "online-3p-replaySetGrey"])
def test_importer_reproduces_the_fixtures(name: str) -> None:
    imported = import_events(load(f"{name}.events.json"))
    fixture = load(f"{name}.json")
    assert imported.record == {k: fixture[k] for k in ("players", "variant", "moves")}
    assert imported.pending == fixture["pending"]


def test_importer_reads_the_win_event_and_json_text() -> None:
    text = (DATA / "online-2p-replayGame.events.json").read_text()
    imported = import_events(text)
    assert imported.winners == (1, 2) and imported.names == ("square", "triangle")


def test_importer_stop_names() -> None:
    assert format_stop(client_stop("E-2-c")) == "G2r"
    assert format_stop(client_stop("b-2-c")) == "b2r"
    assert format_stop(client_stop("A")) == "W"
    with pytest.raises(ImportFormatError):
        client_stop("Z-1-a")


@pytest.mark.parametrize(
    "events",
    [
        "not json",
        {"type": "InitGame"},
        [{"type": "InitGame", "players": ["a", "b"]}, {"type": "Undo", "moves": []}],
        [{"type": "MovePlayer", "player": "a", "piece": "p00", "from": "A", "to": "A-1-B"}],
        [
            {"type": "InitGame", "players": ["a", "b"]},
            {"type": "MovePlayer", "piece": "p10", "from": "A", "to": "A-1-B"},
        ],
    ],
)
def test_importer_rejects_bad_lists(events: Any) -> None:
    with pytest.raises(ImportFormatError):
        import_events(events)


def run_cli(*args: str, stdin: str = "") -> tuple[int, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.pentagame", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.stderr == ""
    return proc.returncode, json.loads(proc.stdout)


def test_cli_replay_and_moves() -> None:
    code, out = run_cli("replay", str(DATA / "online-2p-replayGame.json"))
    assert code == 0
    assert out == {
        "ok": True,
        "plies": 12,
        "finished": True,
        "to_move": None,
        "out": [3, 3],
        "error": None,
    }
    code, out = run_cli("replay", "-", stdin='{"players":2,"moves":["Wxr:G2W","GsW"]}')
    assert code == 1 and out["plies"] == 1 and out["to_move"] == 2
    assert out["error"] == {
        "ply": 2,
        "move": "GsW",
        "reason": "the path from G to W is blocked at G2W (a black block)",
    }
    code, out = run_cli("replay", "-", stdin="[1, 2]")
    assert code == 2 and out["ok"] is False
    code, out = run_cli("moves", "-", stdin='{"players":2,"variant":"standard","moves":[]}')
    assert code == 0 and out["to_move"] == 1
    assert "Wxr" in out["moves"] and "GsW" in out["moves"] and "pass" not in out["moves"]
    code, out = run_cli("import", str(DATA / "online-2p-replayGame.events.json"))
    assert code == 0 and out["moves"][4] == "Gxb:G2rzG3r"


def test_replay_reports_the_first_bad_ply_and_never_half_applies() -> None:
    res = replay({"players": 2, "moves": ["W-W3r", "B-B1R", "W3r-r"]})
    assert not res.ok and res.plies == 2 and res.error is not None
    assert res.error.ply == 3 and res.error.move == "W3r-r"
    assert res.error.message() == "ply 3 `W3r-r`: r holds a black block: take it with W3rxr:<stop>"
    assert res.state.pieces[0] == parse_stop("W3r")  # the white piece stays put
    junk = replay({"players": 2, "moves": ["W-W3r", "Q?"]})
    assert junk.error is not None and junk.error.ply == 2 and "stop" in junk.error.reason
