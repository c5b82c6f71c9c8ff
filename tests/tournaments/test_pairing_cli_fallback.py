"""The pairing command does what the site does (issue 27, item 14): a forbidden pair in a
3-player field leaves no 3-player table, and the command, like the service that pairs a
round, falls back to the policy's alternative, 2-player tables and a bye, instead of
exiting 1. Both go through one function, ``pair_round_or_fallback``; the command also
says in ``notes`` that it fell back (docs/pairing.md, "When forbidden pairs leave no
table")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next
from tournaments.desk.services.tournaments import forbidden_pair_add
from tournaments.models import Seat
from tournaments.pairing import cli as pairing_cli
from tournaments.pairing import pair_round_or_fallback

ROOT = Path(__file__).resolve().parents[2]
THREE = {
    "players": [
        {"id": "a", "score": 0, "seed": 1},
        {"id": "b", "score": 0, "seed": 2},
        {"id": "c", "score": 0, "seed": 3},
    ],
    "forbidden": [["a", "b"]],
}


def run_cli(request: dict[str, object]) -> tuple[int, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.pairing", "-"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("policy", ["pairs+triple", "prefer-triples"])
def test_a_forbidden_pair_among_three_gives_a_table_of_two_and_a_bye(policy: str) -> None:
    code, out = run_cli({**THREE, "policy": policy})
    assert code == 0, out
    # The forbidden pair is split: one of them has the bye, the other plays c.
    assert out["bye"] in ("a", "b")
    (table,) = out["tables"]
    assert sorted(table) == sorted({"a", "b", "c"} - {out["bye"]})
    assert out["rematches"] == 0
    assert out["notes"] == [
        f"forbidden pairs leave no arrangement under {policy}: "
        "paired under pairs+bye (2-player tables and a bye) instead"
    ]


def test_the_command_calls_the_function_the_service_calls() -> None:
    """One code path, not a copy: the command's answer is the shared function's."""
    request = pairing_cli.parse_request(THREE)
    shared = pair_round_or_fallback(
        request.players, forbidden=request.forbidden, policy=request.policy
    )
    code, out = run_cli(THREE)
    assert code == 0
    assert {k: v for k, v in out.items() if k != "notes"} == shared.as_json()
    assert out["notes"] == list(shared.notes)
    assert "pair_round_or_fallback" in pairing_cli._main.__code__.co_names


def test_without_the_fallback_nothing_changes_and_no_notes_are_added() -> None:
    code, out = run_cli({"players": THREE["players"]})
    assert code == 0 and out == {"tables": [["a", "b", "c"]], "bye": None, "rematches": 0}
    # An even field has no alternative: a forbidden pair of two is still no pairing.
    two = {"players": THREE["players"][:2], "forbidden": [["a", "b"]]}
    code, out = run_cli(two)
    assert code == 1 and out["error"].startswith("no valid pairing")


@pytest.mark.django_db
def test_the_service_pairs_the_same_field_the_same_way() -> None:
    """A tournament of three with a forbidden pair, paired by the service the pages and
    the API call, and the same field given to the command: the same table, the same bye."""
    tournament = tournament_with_players(3, slug="three", name="Three")
    director = UserFactory(username="td")
    tournament.directors.add(director)
    first, second, third = tournament.entries.order_by("seed")
    forbidden_pair_add(
        tournament=tournament, first=first, second=second, by=Actor.director(director)
    )
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    bye = Seat.objects.get(round=round_, table__is_bye=True).entry_id
    table = list(
        Seat.objects.filter(round=round_, table__is_bye=False)
        .order_by("position")
        .values_list("entry_id", flat=True)
    )
    request = {
        "policy": tournament.policy,
        "method": tournament.pairing_method,
        "players": [{"id": str(e.pk), "score": 0, "seed": e.seed} for e in (first, second, third)],
        "forbidden": [[str(first.pk), str(second.pk)]],
    }
    code, out = run_cli(request)
    assert code == 0, out
    assert out["bye"] == str(bye)
    assert out["tables"] == [[str(e) for e in table]]
    assert bye in (first.pk, second.pk)
