"""The pairing command's start (issue 44, point 6): ``python -m tournaments.pairing``
imports what a Swiss round uses and nothing more, and what replaced the heavy modules
(``jsonio`` for ``json``, ``record`` for ``dataclasses``, the package's names loaded on
first use) behaves as they did. No timing here: the figures are bench/pairing.py's."""

from __future__ import annotations

import copy
import json
import math
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import jsonio
from tournaments.pairing.types import METHODS, POLICIES, Meeting, Pairing, PairingPlayer, Table

ROOT = Path(__file__).resolve().parents[3]

# A Swiss round with a history, a 3-player table and a forbidden pair.
SWISS = {
    "policy": "pairs+triple",
    "players": [{"id": f"p{i}", "score": 10 - i, "seed": i} for i in range(1, 8)],
    "met": [["p1", "p2", 1], ["p3", "p4", 1]],
    "forbidden": [["p5", "p6"]],
}

# Modules the command must not import: the web framework and its kin, the matching
# library, and the standard modules that made most of its start-up before.
HEAVY = {
    "django",
    "rest_framework",
    "celery",
    "networkx",
    "dataclasses",
    "inspect",
    "typing",
    "json",
    "re",
    "enum",
    "ast",
}

# The project's modules a Swiss round needs; any other (the league, club evenings, the
# editor's warnings, closest-score matching, scoring, models) is loaded by the command
# only when asked for.
SWISS_MODULES = {
    "tournaments",
    "tournaments.pairing",
    "tournaments.pairing.__main__",
    "tournaments.pairing.cli",
    "tournaments.pairing.jsonio",
    "tournaments.pairing.record",
    "tournaments.pairing.types",
    "tournaments.pairing.book",
    "tournaments.pairing.criteria",
    "tournaments.pairing.exact",
    "tournaments.pairing.layout",
    "tournaments.pairing.engine",
    "tournaments.pairing.first_move",
    "tournaments.pairing.fallback",
}


def imported(*args: str, stdin: str = "") -> tuple[set[str], str]:
    """The modules a fresh interpreter imports for ``args`` (``-X importtime`` lists
    each once, when it is first imported), and what it printed."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "imported package" not in line
    }
    return names, done.stdout


def command_imports(request: dict[str, Any]) -> tuple[set[str], dict[str, Any]]:
    """What the command imports beyond the interpreter's own start-up (a site hook of
    the environment is not the command's doing), and its answer."""
    start, _ = imported("-c", "pass")
    names, out = imported("-m", "tournaments.pairing", "-", stdin=json.dumps(request))
    return names - start, json.loads(out)


def test_a_swiss_round_imports_no_django_nor_heavy_module_nor_unused_pairing_code() -> None:
    names, out = command_imports(SWISS)
    assert out["rematches"] == 0 and len(out["tables"]) == 3
    roots = {name.split(".")[0] for name in names}
    assert roots & HEAVY == set()
    assert names & HEAVY == set()
    project = {name for name in names if name.split(".")[0] in ("tournaments", "games")}
    assert project - SWISS_MODULES == set()


def test_the_check_sees_what_a_league_request_imports() -> None:
    """The listing is read right: a league request loads the league's code (and the
    dataclasses it is written with), which the Swiss round above must not."""
    names, out = command_imports({**SWISS, "league": {"cycles": 1}})
    assert out["players"] == [f"p{i}" for i in range(1, 8)] and out["rounds"]
    assert {"tournaments.pairing.league", "dataclasses"} <= names


def test_the_package_names_still_import_and_load_on_first_use() -> None:
    code = (
        "import sys, tournaments.pairing as p\n"
        "before = {m for m in sys.modules if m.startswith('tournaments.pairing.')}\n"
        "from tournaments.pairing import ClubPlayer, Policy, pair_round, club_tables\n"
        "print(sorted(before), p.Policy is Policy, 'pair_round' in dir(p))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "True", "True"]
    import tournaments.pairing as package

    assert sorted(package.__all__) == sorted(
        ["METHODS", "POLICIES", "ClubPlayer", "Meeting", "Method", "Pairing", "PairingError"]
        + ["PairingPlayer", "Policy", "Table", "club_tables", "game_orders", "pair_round"]
        + ["pair_round_or_fallback", "seat_order"]
    )
    assert all(getattr(package, name) is not None for name in package.__all__)
    missing = "no_such_name"
    with pytest.raises(AttributeError):
        getattr(package, missing)


def test_policy_and_method_are_still_the_literal_types() -> None:
    from tournaments.pairing import Method, Policy

    assert Policy == Literal["pairs+triple", "prefer-triples", "pairs+bye"]
    assert get_args(Policy) == POLICIES and get_args(Method) == METHODS


def test_the_records_behave_as_the_frozen_dataclasses_they_replace() -> None:
    player = PairingPlayer("p1", score=3.0, seed=2)
    assert player == PairingPlayer(id="p1", score=3.0, seed=2, starts=0, active=True)
    assert player != PairingPlayer("p1", score=3.0, seed=3)
    assert player != ("p1", 3.0, 2, 0, True)
    assert hash(Meeting("a", "b", 1)) == hash(Meeting("a", "b", 1))
    assert len({Meeting("a", "b", 1), Meeting("a", "b", 1), Meeting("b", "a", 1)}) == 2
    assert repr(player) == "PairingPlayer(id='p1', score=3.0, seed=2, starts=0, active=True)"
    with pytest.raises(AttributeError):
        player.score = 4.0
    with pytest.raises(AttributeError):
        del player.id
    pairing = Pairing((Table(("a", "b")),), bye="c", notes=("why",))
    assert pickle.loads(pickle.dumps(pairing)) == pairing
    assert copy.deepcopy(pairing) == pairing and copy.copy(player) == player
    assert Pairing(()) == Pairing(tables=(), bye=None, rematches=0, notes=())


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def same(a: object, b: object) -> bool:
    """Equal, NaN counting as equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@given(json_values, st.sampled_from(["", " ", "\n\t ", "\r\n"]))
def test_jsonio_reads_and_writes_as_the_json_module_does(value: object, space: str) -> None:
    text = json.dumps(value)
    assert jsonio.dumps(value) == text
    assert same(jsonio.loads(space + text + space), json.loads(space + text + space))
    pretty = json.dumps(value, indent=1, ensure_ascii=False)
    assert same(jsonio.loads(pretty), json.loads(pretty))


@pytest.mark.parametrize(
    "text",
    ["", "   ", "{not json", '{"a": 1} x', "[1,]", '"\\ud800', "\ufeff{}", "[" * 100_000],
)
def test_jsonio_refuses_what_json_refuses_with_its_words(text: str) -> None:
    with pytest.raises((ValueError, RecursionError)) as expected:
        json.loads(text)
    with pytest.raises(type(expected.value)) as got:
        jsonio.loads(text)
    assert str(got.value) == str(expected.value)


def test_jsonio_says_what_json_says_of_a_value_it_cannot_hold() -> None:
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        jsonio.dumps({"a": {1}})
    circular: list[object] = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular reference detected"):
        jsonio.dumps(circular)
