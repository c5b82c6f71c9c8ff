"""The browser's rules engine (games/static/games/pentagame.js) against the Python engine.

One Node process (`js_driver.mjs`, started once per module) answers every request; the
Python engine is the authority. Compared:

- the board tables and every accepted stop spelling;
- the engine's own test vectors: the positions, moves, records and notation texts that
  the rule, notation and recorded-game tests hand to the engine (their test functions are
  run here with the engine's entry points wrapped to note the arguments), and the
  recorded games of tests/games/pentagame/data, with their unfinished last moves;
- random legal games of every playable variant (complete games, and hypothesis's),
  at every ply: the position, the legal moves (text, kind, from, to; on sampled plies also
  what the board page needs to complete them) and the result; on sampled plies, legal
  moves changed into illegal ones (and some left as they are): both engines refuse with
  the same reason, or both reach the same state;
- notation texts from hypothesis: the same move, or the same reason for refusing it.

Per ply both sides hash a canonical JSON of the frame (so a game of 3000 plies is a few
hundred kilobytes over the pipe); on a mismatch the frame is fetched whole and the
difference shown. Node must be installed: without it this test fails, it never skips.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import itertools
import json
import random
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.pentagame import (
    PentagameError,
    Position,
    State,
    apply_move,
    format_move,
    legal_moves,
    parse_move,
    parse_stop,
    replay,
    result,
)
from games.pentagame.board import ADJ, CHORDS, LINES, STOP_NAMES
from games.pentagame.notation import _SPELLINGS, PASS, Move
from games.pentagame.playout import complete, random_game
from games.pentagame.rules import PLAYABLE_VARIANTS, rules_for

# The board page's payload, as the server builds it (private parts: the per-ply frames
# need the position and the legal moves without replaying the record every ply).
from games.pictures.pentagame import _legal, _position, position_payload, replay_frames

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
DRIVER = HERE / "js_driver.mjs"
DATA = HERE / "data"
# The tests whose calls into the engine are the vectors; the command line and the
# importer of the online client's event lists are not part of the browser's engine.
VECTOR_MODULES = (
    "test_pentagame_rules",
    "test_notation_brackets",
    "test_pentagame_games",
    "test_pentagame_notation",
)
NOT_VECTORS = ("test_cli", "test_importer")
# Per game: the plies whose legal entries are compared whole (with the stops offered
# for the blocks, the costly part on the Python side) and the plies probed with moves
# changed into illegal ones.
FULL_EVERY = 12
PROBE_EVERY = 7
PROBES_PER_PLY = 4
STATES_PER_EXAMPLE = 12

COUNTS: Counter[str] = Counter()


# --- the Node side ------------------------------------------------------------------------


class JsEngine:
    """The driver process: one JSON line per request, one per answer."""

    def __init__(self, node: str) -> None:
        # Node's messages, read only when it stops (a pipe could fill up unread).
        self.stderr: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [node, str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            encoding="utf-8",
            cwd=ROOT,
        )

    def send(self, cmd: str, **fields: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"cmd": cmd, **fields}) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.stderr.seek(0)
            pytest.fail(f"the Node driver stopped: {self.stderr.read()}")
        answer = json.loads(line)
        if "crash" in answer:
            pytest.fail(f"the JS engine crashed: {answer['crash']}")
        return answer["ok"]

    def ask(self, cmd: str, **fields: Any) -> Any:
        self.send(cmd, **fields)
        return self.receive()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.stderr.close()


@pytest.fixture(scope="module")
def js() -> Iterator[JsEngine]:
    node = shutil.which("node")
    if node is None:
        pytest.fail(
            "node is not installed: the browser's engine cannot be checked (apt-get install nodejs)"
        )
    engine = JsEngine(node)
    yield engine
    engine.close()
    print(f"\nJS engine agreement: {dict(sorted(COUNTS.items()))}")


# --- the Python side ----------------------------------------------------------------------


def plain(value: Any) -> Any:
    """The value as JSON reads it back (tuples become lists, dataclasses dicts)."""
    return json.loads(json.dumps(value, default=_fields))


def _fields(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("ascii")).hexdigest()


def outcome(fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """fn's answer, or the engine's refusal: its reason and the kind of error."""
    try:
        return plain(fn())
    except PentagameError as exc:
        return {"error": exc.reason, "type": type(exc).__name__}


def try_move(game: Position, text: str) -> dict[str, Any]:
    def run() -> dict[str, Any]:
        after = Position(game.state())
        after.apply(parse_move(text))
        return {"state": after.state()}

    return outcome(run)


def frame(game: Position, full: bool) -> dict[str, Any]:
    """What the driver's `frame` gives: the position, the legal entries, the result."""
    state = game.state()
    res = result(state)
    if full:
        legal = _legal(state)
    else:
        legal = [
            {
                "text": format_move(m),
                "kind": m.kind,
                "from": None if m.frm < 0 else m.frm,
                "to": None if m.to < 0 else m.to,
            }
            for m in legal_moves(game)
        ]
    return {
        "position": _position(state),
        "legal": legal,
        "result": {f.name: getattr(res, f.name) for f in dataclasses.fields(res)},
    }


def difference(py: dict[str, Any], js: dict[str, Any]) -> str:
    """The parts of two frames that differ, readably."""
    out = []
    for part in ("position", "result"):
        if py[part] != js[part]:
            out.append(f"{part}: python {py[part]} / js {js[part]}")
    py_legal = {e["text"]: e for e in py["legal"]}
    js_legal = {e["text"]: e for e in js["legal"]}
    if set(py_legal) != set(js_legal):
        out.append(
            f"legal moves only in python {sorted(set(py_legal) - set(js_legal))}, "
            f"only in js {sorted(set(js_legal) - set(py_legal))}"
        )
    else:
        out += [
            f"entry {t}: python {e} / js {js_legal[t]}"
            for t, e in py_legal.items()
            if e != js_legal[t]
        ][:5]
        if not out and py["legal"] != js["legal"]:
            out.append("the same legal moves, listed in another order")
    return "; ".join(out)


def variants(game: Position, move: Move, rng: random.Random) -> list[str]:
    """A legal move, completed, and changed in one part each (mostly into illegal moves),
    as texts: the blocks' stops are chosen where the rules have something to say (the
    stop just left, the target, a grey block on the board, the other block's stop)."""
    if move.kind == "pass":  # nothing to complete: a plain move from anywhere
        full = Move("-", rng.randrange(100), rng.randrange(100))
    else:
        full = complete(game, move, rng)
    greys = [g for g in game.grey if g >= 0]
    near = [
        None,
        *(
            s
            for s in (move.frm, move.to, full.black, full.grey, *greys)
            if s is not None and s >= 0
        ),
        rng.randrange(100),
    ]
    kinds = ["-", "x", "s", "s!", "z"]
    changed = [
        full,
        full._replace(to=rng.randrange(100)),
        full._replace(frm=rng.randrange(100)),
        full._replace(kind=rng.choice(kinds)),
        full._replace(black=rng.choice(near)),
        full._replace(grey=rng.choice(near)),
        full._replace(grey_from=rng.choice(near), grey=full.grey or rng.randrange(100)),
        full._replace(piece=rng.choice([None, 0, 1, 2, 3, 4])),
        full._replace(target=rng.choice([None, 0, 1, 2, 3, 4])),
        full._replace(kind="s!", seat=rng.randint(1, 5)),
        full._replace(kind="z", to=-1, black=None),
    ]
    texts = []
    for m in changed:
        if m.kind != "z" and m.to < 0:  # a take-out given another sign
            m = m._replace(to=rng.randrange(100))
        texts.append(format_move(m))
    return [*texts, "pass"]


def probe_texts(game: Position, rng: random.Random, count: int) -> list[str]:
    """count texts made from random legal moves of the position by `variants`."""
    moves = legal_moves(game) or [PASS]
    texts: list[str] = []
    while len(texts) < count:
        texts += rng.sample(variants(game, rng.choice(moves), rng), 2)
    return texts[:count]


def compare_game(
    js: JsEngine, players: int, variant: str, moves: list[str], seed: int, full_every: int
) -> None:
    """One game ply by ply in both engines; fails with the first difference."""
    rng = random.Random(seed)
    n = len(moves)
    full = sorted({*range(0, n + 1, full_every), n})
    # The probes are made on the Python side first (they need the position at their ply).
    probes: dict[int, list[str]] = {}
    game = Position.start(players, variant)
    for ply in range(n + 1):
        if ply % PROBE_EVERY == 3 or ply == n:
            probes[ply] = probe_texts(game, rng, PROBES_PER_PLY)
        if ply < n:
            game.apply(parse_move(moves[ply]))
    request = {
        "players": players,
        "variant": variant,
        "moves": moves,
        "full": full,
        "probes": {str(k): v for k, v in probes.items()},
    }
    # Node works on the game while Python does the same.
    js.send("game", detail=False, **request)
    mine: list[str] = []
    frames: list[dict[str, Any]] = []
    expected: dict[int, list[dict[str, Any]]] = {}
    full_set = set(full)
    game = Position.start(players, variant)
    for ply in range(n + 1):
        f = frame(game, ply in full_set)
        frames.append(f)
        mine.append(digest(f))
        if ply in probes:
            expected[ply] = [try_move(game, t) for t in probes[ply]]
        if ply < n:
            game.apply(parse_move(moves[ply]))
    record = {"players": players, "variant": variant, "moves": moves}
    answer = js.receive()
    label = f"{players}:{variant} seed {seed}"
    for ply, (a, b) in enumerate(zip(mine, answer["frames"], strict=True)):
        if a != b:
            detail = js.ask("game", detail=True, **request)["frames"][ply]
            diff = difference(plain(frames[ply]), detail) or "the same values, hashed apart"
            pytest.fail(f"{label}: the engines disagree before ply {ply + 1}: {diff}")
    for ply, outcomes in expected.items():
        for text, py_out, js_out in zip(
            probes[ply], outcomes, answer["probes"][str(ply)], strict=True
        ):
            assert py_out == js_out, f"{label}, ply {ply + 1}, `{text}`: {py_out} / {js_out}"
            COUNTS["probes refused" if "error" in py_out else "probes accepted"] += 1
    assert plain(position_payload(record)) == answer["payload"], label
    assert plain(replay(record).to_dict(details=True)) == answer["replay"], label
    assert digest(plain(replay_frames(record))) == answer["replay_frames"], label
    COUNTS["plies"] += n + 1
    COUNTS["plies with whole legal entries"] += len(full)
    COUNTS[f"games {players}:{variant}"] += 1


def compare_states(js: JsEngine, cases: list[tuple[State, list[str]]]) -> list[str]:
    """Positions given whole, each with some moves: the disagreements found."""
    answers = js.ask(
        "states", cases=[{"state": plain(state), "moves": moves} for state, moves in cases]
    )
    bad = []
    for (state, moves), got in zip(cases, answers, strict=True):
        game = Position(state)
        want = {"applies": [try_move(game, m) for m in moves], "legal": plain(_legal(state))}
        if want != got:
            bad.append(f"{state} {moves}: python {want} / js {got}")
        for o in want["applies"]:
            COUNTS["probes refused" if "error" in o else "probes accepted"] += 1
    return bad


def random_state(rng: random.Random, players: int, variant: str) -> State:
    """A position no game need have reached, but one the rules allow: pieces spread over
    the board (several only on start nodes), some out, some waiting on their goals, the
    grey reserve often empty, a Ko key that may bite, now and then a finished game."""
    rules = rules_for(players, variant)
    start = set(rules.start)
    pos = [-1] * len(rules.owner)
    out: list[list[int]] = [[] for _ in range(players)]
    single: set[int] = set()  # stops that take nothing more
    shared: set[int] = set()  # start nodes holding pieces
    order = list(range(len(pos)))
    rng.shuffle(order)
    for p in order:
        seat = rules.owner[p]
        roll = rng.random()
        if roll < 0.15 and len(out[seat]) < 2:
            out[seat].append(rules.colour[p])
            continue
        if roll < 0.35:
            stop = rules.start[p]
        elif roll < 0.45 and rules.goal[p] not in single:
            stop = rules.goal[p]
        else:
            stop = rng.choice([s for s in range(100) if s not in single and s not in shared])
        pos[p] = stop
        (shared if stop in start else single).add(stop)
    free = [s for s in range(100) if s not in single and s not in shared]
    rng.shuffle(free)
    black = free[:5]
    on_board = 5 if rng.random() < 0.4 else rng.randint(0, 4)
    grey = free[5 : 5 + on_board] + [-1] * (5 - on_board)
    rng.shuffle(grey)
    seat = rng.randrange(players)
    last: list[tuple[int, int, int] | None] = [None] * players
    mine = [p for p in rules.seat_pieces[seat] if pos[p] >= 0]
    if mine and rng.random() < 0.6:
        p = rng.choice(mine)
        last[seat] = (rules.colour[p] if rules.five else p, pos[p], rng.randrange(100))
    ply = rng.randrange(1, 60)
    return State(
        players=players,
        variant=rules.variant,
        pieces=tuple(pos),
        black=tuple(black),
        grey=tuple(grey),
        to_move=seat + 1,
        ply=ply,
        last=tuple(last),
        out=tuple(tuple(o) for o in out),
        finished=rng.random() < 0.04,
    )


# --- the engine's own vectors ---------------------------------------------------------------


@dataclasses.dataclass
class Vectors:
    applies: list[tuple[State, str]] = dataclasses.field(default_factory=list)
    positions: list[State] = dataclasses.field(default_factory=list)
    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    texts: list[Any] = dataclasses.field(default_factory=list)
    stops: list[Any] = dataclasses.field(default_factory=list)


def _runs(fn: Callable[..., Any]) -> Iterator[dict[str, Any]]:
    """The keyword arguments of each run of a test function (its parametrize marks)."""
    axes = []
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        runs = []
        for value in values:
            if hasattr(value, "marks"):  # pytest.param(...)
                value = value.values
            elif len(names) == 1:
                value = (value,)
            runs.append(dict(zip(names, value, strict=True)))
        axes.append(runs)
    for combo in itertools.product(*axes):
        yield {k: v for part in combo for k, v in part.items()}


def collect_vectors() -> Vectors:
    """Runs the other Pentagame tests with the engine's entry points noting their
    arguments."""
    import importlib

    vectors = Vectors()

    def noting_apply(state: State, move: Move | str) -> State:
        vectors.applies.append((state, move if isinstance(move, str) else format_move(move)))
        return apply_move(state, move)

    def noting_legal(state: State | Position) -> list[Move]:
        vectors.positions.append(state if isinstance(state, State) else state.state())
        return legal_moves(state)

    def noting_replay(record: dict[str, Any]) -> Any:
        vectors.records.append(json.loads(json.dumps(record)))
        return replay(record)

    def noting_parse(text: Any) -> Move:
        vectors.texts.append(text)
        return parse_move(text)

    def noting_stop(text: Any) -> int:
        vectors.stops.append(text)
        return parse_stop(text)

    wrappers = {
        "apply_move": noting_apply,
        "legal_moves": noting_legal,
        "replay": noting_replay,
        "parse_move": noting_parse,
        "parse_stop": noting_stop,
    }
    ran = 0
    for name in VECTOR_MODULES:
        module: ModuleType = importlib.import_module(f"tests.games.pentagame.{name}")
        with pytest.MonkeyPatch.context() as patch:
            for attr, wrapper in wrappers.items():
                if hasattr(module, attr):
                    patch.setattr(module, attr, wrapper)
            for test_name, fn in vars(module).items():
                if not test_name.startswith("test_") or not callable(fn):
                    continue
                if test_name.startswith(NOT_VECTORS) or getattr(fn, "is_hypothesis_test", False):
                    continue
                for kwargs in _runs(fn):
                    if set(inspect.signature(fn).parameters) != set(kwargs):
                        continue  # needs a fixture: not a plain vector
                    fn(**kwargs)
                    ran += 1
    assert ran > 50 and vectors.applies and vectors.records, "the vector tests were not found"
    return vectors


# --- tests ----------------------------------------------------------------------------------


def test_board_tables_and_spellings_agree(js: JsEngine) -> None:
    tables = js.ask("tables")
    assert tables["stop_names"] == list(STOP_NAMES)
    assert tables["adj"] == plain(ADJ)
    assert tables["lines"] == plain(LINES)
    assert tables["chords"] == plain(CHORDS)
    assert tables["spellings"] == _SPELLINGS
    COUNTS["stop spellings"] += len(_SPELLINGS)


def test_the_engine_test_vectors_agree(js: JsEngine) -> None:
    vectors = collect_vectors()
    bad: list[str] = []
    # Hand-made positions: each move noted (legal or not), and the legal moves.
    cases = [(s, [m]) for s, m in vectors.applies] + [(s, []) for s in vectors.positions]
    bad += compare_states(js, cases)
    # Records: the recorded games (and each with its pending, unfinished last move),
    # and every record the tests replay.
    recorded = [
        json.loads(p.read_text()) for p in sorted(DATA.glob("*.json")) if ".events." not in p.name
    ]
    records = [{k: r[k] for k in ("players", "variant", "moves")} for r in recorded]
    records += [
        {**r, "moves": [*r["moves"], f["pending"]]}
        for r, f in zip(records, recorded, strict=True)
        if f.get("pending")
    ]
    records += vectors.records
    answers = js.ask("records", records=records)
    for record, got in zip(records, answers, strict=True):
        want = {
            "payload": outcome(lambda r=record: {"payload": position_payload(r)}),
            "replay": outcome(lambda r=record: {"replay": replay(r).to_dict(details=True)}),
            "frames": outcome(lambda r=record: {"frames": replay_frames(r)}),
        }
        if want != got:
            bad.append(f"{record}: python {want} / js {got}")
    for f in recorded:
        assert got_expected(js, f), f["source"]
    # Every ply of the recorded games, with the whole legal entries.
    for r in records[: len(recorded)]:
        compare_game(js, r["players"], r["variant"], r["moves"], seed=len(r["moves"]), full_every=1)
    # Notation.
    texts = vectors.texts + [m for _, m in vectors.applies]
    for text, got in zip(texts, js.ask("parse", texts=texts), strict=True):
        want = outcome(lambda t=text: parsed(parse_move(t)))
        if want != got:
            bad.append(f"parse `{text}`: python {want} / js {got}")
    for text, got in zip(vectors.stops, js.ask("stops", texts=vectors.stops), strict=True):
        want = outcome(lambda t=text: {"stop": parse_stop(t)})
        if want != got:
            bad.append(f"stop `{text}`: python {want} / js {got}")
    COUNTS["vector positions"] += len(cases)
    COUNTS["vector records"] += len(records)
    COUNTS["vector texts"] += len(texts) + len(vectors.stops)
    assert not bad, f"{len(bad)} disagreements, the first: " + "\n".join(bad[:5])


def got_expected(js: JsEngine, fixture: dict[str, Any]) -> bool:
    """The recorded game's own expected result (the online client's) from the JS replay."""
    record = {k: fixture[k] for k in ("players", "variant", "moves")}
    answer = js.ask("records", records=[record])[0]["replay"]["replay"]
    return bool(answer == fixture["expected"])


def parsed(move: Move) -> dict[str, Any]:
    return {"move": move._asdict(), "text": format_move(move)}


@pytest.mark.parametrize(("players", "variant"), PLAYABLE_VARIANTS)
def test_complete_games_agree(js: JsEngine, players: int, variant: str) -> None:
    seed = players * 7 + len(variant)
    moves = random_game(players, variant, seed=seed, max_plies=3000)
    compare_game(js, players, variant, moves, seed, FULL_EVERY)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(PLAYABLE_VARIANTS), st.integers(0, 10**9), st.integers(1, 250))
def test_random_games_agree(js: JsEngine, variant: tuple[int, str], seed: int, plies: int) -> None:
    players, name = variant
    moves = random_game(players, name, seed=seed, max_plies=plies)
    compare_game(js, players, name, moves, seed, FULL_EVERY)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**9))
def test_random_positions_agree(js: JsEngine, seed: int) -> None:
    """Positions set up at random: the legal entries, and moves of every kind changed
    into illegal ones, where random games seldom go (an empty grey reserve, a grey block
    on a goal, waiting pieces, Ko)."""
    rng = random.Random(seed)
    cases = []
    for _ in range(STATES_PER_EXAMPLE):
        players, variant = rng.choice(PLAYABLE_VARIANTS)
        state = random_state(rng, players, variant)
        game = Position(state)
        moves = legal_moves(game) or [PASS]
        # Every move that needs a block placed, and a few others, each in all variants.
        needy = [m for m in moves if m.kind == "x" or m.kind == "z" or m.to in game.rules.goal]
        chosen = needy[:8] + rng.sample(moves, min(3, len(moves)))
        cases.append((state, [t for m in chosen for t in variants(game, m, rng)]))
    bad = compare_states(js, cases)
    COUNTS["random positions"] += len(cases)
    assert not bad, f"{len(bad)} disagreements, the first: " + "\n".join(bad[:3])


_FUZZ_ALPHABET = st.sampled_from(list("WBRYGwbryg0123456789-xsz!:>[]() pPaASX×é\n\t"))
_SPELLING = st.sampled_from(sorted(_SPELLINGS))
_PART = st.one_of(st.just(""), _SPELLING, st.sampled_from(["W9r", "Q", "3", " ", "r "]))
_NEAR_MOVES = st.tuples(
    st.sampled_from([("", ""), ("(", ")"), (" ( ", " ) "), ("(", ""), ("\u3000", "\u3000")]),
    _SPELLING,
    st.sampled_from(["", "[b]", "[Q]", "[W]", "["]),
    st.sampled_from(["-", "x", "X", "×", "s", "s!", "s!3", "s!0", "s2", "z", " - ", "", "--"]),
    _PART,
    st.sampled_from(["", "[y]", "[é]"]),
    st.sampled_from(["", ":", "::"]),
    _PART,
    st.sampled_from(["", "z", "Z"]),
    _PART,
    st.sampled_from(["", ">", ">>"]),
    _PART,
).map(lambda p: p[0][0] + "".join(p[1:]) + p[0][1])
_TEXTS = st.one_of(
    st.text(alphabet=_FUZZ_ALPHABET, max_size=24),
    st.text(max_size=16),
    _NEAR_MOVES,
    st.sampled_from(["pass", "PASS", " Pass ", "pass!", "(pass)"]),
)


@settings(max_examples=12, deadline=None)
@given(st.lists(_TEXTS, min_size=60, max_size=60))
def test_notation_agrees(js: JsEngine, texts: list[str]) -> None:
    answers = js.ask("parse", texts=texts)
    for text, got in zip(texts, answers, strict=True):
        want = outcome(lambda t=text: parsed(parse_move(t)))
        assert want == got, f"`{text!r}`: python {want} / js {got}"
    COUNTS["fuzzed texts"] += len(texts)
