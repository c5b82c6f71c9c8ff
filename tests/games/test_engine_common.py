"""What the engines share: replay results and their JSON form, record checking, random
playouts, move text and the `replay|moves` command line, on a toy engine."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from games.engine_common import cli
from games.engine_common.errors import EngineError
from games.engine_common.notation import move_text
from games.engine_common.playout import random_moves
from games.engine_common.replay import (
    RecordReader,
    ReplayError,
    ReplayResultBase,
    StateReplayResult,
    first_error,
    started,
)


class ToyError(EngineError):
    pass


class ToyRecordError(ToyError):
    pass


@dataclass(frozen=True, slots=True)
class Count:
    """A toy position: a counter that may only go up by 1 or 2; seat 0 and 1 alternate."""

    total: int = 0
    to_move: int = 0


def step(state: Count, text: str) -> Count:
    if text.strip() not in ("1", "2"):
        raise ToyError(f"`{text.strip()}` is not 1 or 2")
    return Count(state.total + int(text), 1 - state.to_move)


def finished(state: Count) -> bool:
    return state.total >= 5


def result(state: Count) -> tuple[int, int]:
    return (1, 0) if finished(state) and state.to_move == 1 else (0, 1 if finished(state) else 0)


class ToyResult(StateReplayResult[Count]):
    __slots__ = ()


def toy_replay(record: object) -> ToyResult:
    reader = RecordReader(record, ToyRecordError)
    reader.two_players("Toy")
    return ToyResult.play(Count(), reader.moves(), str.strip, step, ToyError, finished, result)


@dataclass(frozen=True, slots=True)
class Final:
    finished: bool
    to_move: int | None


@dataclass(frozen=True, slots=True)
class Outcome:
    out: tuple[int, ...]
    colours: tuple[tuple[str, ...], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Detailed(ReplayResultBase):
    """A result with details, as Pentagame's, Pent-Up's and PentaCosmos's."""

    DETAILS = ("colours", "winners")

    ok: bool
    plies: int
    finished: bool
    to_move: int | None
    out: list[int]
    colours: Sequence[Sequence[str]]
    winners: list[int]
    error: ReplayError | None
    state: Final = field(repr=False, compare=False)


def test_replay_error() -> None:
    err = ReplayError(3, "x", "no")
    assert err.message() == "ply 3 `x`: no"
    assert err.to_dict() == {"ply": 3, "move": "x", "reason": "no"}


def test_state_replay_result_plays_until_the_first_illegal_move() -> None:
    res = toy_replay({"moves": ["2", "2", "1"]})
    assert isinstance(res, ToyResult)
    assert res.ok and res.plies == 3 and res.finished and res.to_move is None
    assert res.to_dict() == {
        "ok": True,
        "plies": 3,
        "finished": True,
        "to_move": None,
        "out": [1, 0],
        "error": None,
    }
    bad = toy_replay({"moves": ["1", " 3 ", "1"]})
    assert not bad.ok and bad.plies == 1 and bad.to_move == 1 and bad.state == Count(1, 1)
    assert bad.error == ReplayError(2, "3", "`3` is not 1 or 2")
    assert bad.to_dict(details=True) == bad.to_dict()  # no details to add
    assert [f.name for f in dataclasses.fields(res)] == [
        "ok",
        "plies",
        "finished",
        "to_move",
        "out",
        "error",
        "state",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.ok = False  # type: ignore[misc]


def test_details_are_copied_as_plain_lists() -> None:
    res = Detailed(True, 0, False, 0, [0, 0], [("a",), ()], [1], None, Final(False, 0))
    plain = res.to_dict()
    assert "colours" not in plain and "winners" not in plain
    details = res.to_dict(details=True)
    assert details["colours"] == [["a"], []] and details["winners"] == [1]
    assert details["winners"] is not res.winners and details["out"] is not res.out


def test_of_final_copies_the_outcome() -> None:
    final = Final(True, None)
    err = ReplayError(4, "x", "no")
    res = Detailed.of_final(final, 3, err, Outcome((2, 1), (("a", "b"), ()), (1,)))
    assert res == Detailed(False, 3, True, None, [2, 1], [["a", "b"], []], [1], err, final)
    assert res.to_dict(details=True)["colours"] == [["a", "b"], []]
    assert res.state is final


def test_first_error() -> None:
    seen: list[str] = []
    assert first_error(["1", "2"], seen.append, ToyError) is None and seen == ["1", "2"]

    def apply(text: str) -> None:
        step(Count(), text)

    assert first_error(["1", "x ", "y"], apply, ToyError) == ReplayError(
        2, "x", "`x` is not 1 or 2"
    )


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ([], "a record is a JSON object with `players`, `variant` and `moves`"),
        ({"players": True, "moves": []}, "`players` must be a whole number from 2 to 4"),
        ({"moves": []}, "`players` must be a whole number from 2 to 4"),
        ({"players": 2, "variant": 1, "moves": []}, "`variant` must be a string"),
        ({"players": 2, "moves": ["a", 1]}, "`moves` must be a list of strings"),
        ({"players": 2}, "`moves` must be a list of strings"),
    ],
)
def test_record_reader_reports_the_first_wrong_field(record: object, reason: str) -> None:
    with pytest.raises(ToyRecordError) as info:
        reader = RecordReader(record, ToyRecordError)
        reader.players(4)
        reader.variant()
        reader.moves()
    assert info.value.reason == reason


def test_record_reader_fields() -> None:
    reader = RecordReader({"players": 3, "moves": ["a"], "tokens": 25}, ToyRecordError)
    assert (reader.players(4), reader.variant(), reader.moves()) == (3, "standard", ["a"])
    assert reader.whole_number("tokens", "no", 30) == 25
    assert reader.whole_number("missing", "no", 30) == 30
    assert reader.string("name", "no", "x") == "x"
    with pytest.raises(ToyRecordError, match="Toy is a game for 2 players"):
        reader.two_players("Toy")
    RecordReader({"players": 2}, ToyRecordError).two_players("Toy")
    RecordReader({}, ToyRecordError).two_players("Toy")
    with pytest.raises(ToyRecordError, match="`players` must be 2"):
        RecordReader({"players": True}, ToyRecordError).two_players("Toy")
    with pytest.raises(ToyRecordError, match="^shape$"):
        RecordReader(object(), ToyRecordError, "shape")
    proxy = MappingProxyType({"moves": list[str]()})
    assert RecordReader(proxy, ToyRecordError).moves() == []
    with pytest.raises(ToyRecordError):
        RecordReader(proxy, ToyRecordError, dict_only=True)


def test_started_turns_an_illegal_setup_into_a_record_error() -> None:
    assert started(lambda: 7, ToyError, ToyRecordError) == 7

    def bad() -> int:
        raise ToyError("no such variant")

    with pytest.raises(ToyRecordError, match="no such variant"):
        started(bad, ToyError, ToyRecordError)


def test_move_text() -> None:
    assert move_text(" 17 - 18 ", ToyError) == "17-18"
    with pytest.raises(ToyError, match="a move must be a string"):
        move_text(17, ToyError)
    with pytest.raises(ToyError, match="the move is empty"):
        move_text(" \t", ToyError)


def test_random_moves_are_legal_and_repeatable() -> None:
    def legal(state: Count) -> list[int]:
        return [] if finished(state) else [1, 2]

    def play(seed: int, most: int) -> list[str]:
        return random_moves(
            Count(), legal, lambda s, m: step(s, str(m)), str, random.Random(seed), most
        )

    moves = play(3, 100)
    assert moves == play(3, 100) and toy_replay({"moves": moves}).finished
    assert len(play(3, 1)) == 1


def toy_moves(res: ToyResult) -> list[str]:
    return [] if res.finished else ["1", "2"]


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    stdin: str = "",
    details: str | None = "also print nothing more",
) -> tuple[int, Any]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(
        list(argv),
        prog="python -m toy",
        replay=toy_replay,
        moves=toy_moves,
        record_error=ToyError,
        details=details,
        commands={"twice": ("the input twice", lambda data: [data, data])},
    )
    return code, json.loads(capsys.readouterr().out)


def test_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"moves": ["2", "2", "1"]}), encoding="utf-8")
    code, out = run(capsys, monkeypatch, "replay", str(path))
    assert code == 0 and out == toy_replay({"moves": ["2", "2", "1"]}).to_dict()
    code, out = run(capsys, monkeypatch, "replay", "--details", "-", stdin='{"moves": ["1"]}')
    assert code == 0 and out["plies"] == 1 and out["to_move"] == 1
    code, out = run(capsys, monkeypatch, "moves", "-", stdin='{"moves": ["1"]}')
    assert (code, out) == (0, {"to_move": 1, "moves": ["1", "2"]})
    code, out = run(capsys, monkeypatch, "replay", "-", stdin='{"moves": ["1", "7"]}')
    assert code == 1 and out["error"] == {"ply": 2, "move": "7", "reason": "`7` is not 1 or 2"}
    code, out = run(capsys, monkeypatch, "moves", "-", stdin='{"moves": ["7"]}')
    assert code == 1 and out["ok"] is False and out["plies"] == 0
    code, out = run(capsys, monkeypatch, "twice", "-", stdin="[1]")
    assert (code, out) == (0, [[1], [1]])


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("not json", "not a record: "),
        ("[1, 2]", "a record is a JSON object with `players`, `variant` and `moves`"),
        ('{"players": 3, "moves": []}', "Toy is a game for 2 players: `players` must be 2"),
    ],
)
def test_cli_not_a_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, reason: str
) -> None:
    code, out = run(capsys, monkeypatch, "replay", "-", stdin=stdin)
    assert code == 2 and out["ok"] is False
    assert out["error"]["ply"] is None and out["error"]["move"] is None
    assert out["error"]["reason"].startswith(reason)


def test_cli_details_flag_only_when_offered(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as info:
        run(capsys, monkeypatch, "replay", "--details", "-", details=None)
    assert info.value.code == 2
    code, _ = run(capsys, monkeypatch, "replay", "-", stdin='{"moves": []}', details=None)
    assert code == 0
