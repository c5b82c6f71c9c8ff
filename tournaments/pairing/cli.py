"""``python -m tournaments.pairing FILE|-``: the JSON interface of issue 4.

Input::

    {"policy": "pairs+triple", "method": "book",
     "players": [{"id": "p1", "score": 12, "seed": 1}, ...],
     "met": [["p1", "p2"], ...], "forbidden": [["p3", "p4"]],
     "had_triple": ["p7"], "had_bye": []}

``method`` is "book" (the default: section 21's top-down rule) or "closest" (scores at a
table as close as possible); see docs/pairing.md.

Output: ``{"tables": [["p1", "p2"], ["p3", "p4", "p5"]], "bye": null, "rematches": 0}``.
Seat order within a table is the first-move order (seat 0 begins game 1). The round is
paired as the site pairs it (``pair_round_or_fallback``): when forbidden pairs leave no
arrangement under the policy in an odd field, 2-player tables and a bye instead, and the
output adds ``"notes"`` saying so (docs/pairing.md, "When forbidden pairs leave no table").
Exit status 0 on success, 1 with ``{"error": ...}`` when no valid pairing exists,
2 with ``{"error": ...}`` for a malformed file. Optional extras: a player's ``starts``
(2-player games begun so far) and ``active`` (false = withdrawn); a third element in a
``met`` entry gives the round (turn) number, otherwise the list is taken oldest first.

A league's fixed schedule instead (league.py): add ``"league": {"cycles": 1}`` (or 2);
the active players in seed order make the schedule, and the output is
``{"players": [...], "policy": ..., "cycles": 1, "rounds": [{"tables": [["p1", "p2"]],
"byes": []}, ...], "never": [], "again": []}`` (pairs that never meet, and pairs that
meet again with their count, per cycle).
"""

from __future__ import annotations

import sys

from tournaments.pairing import jsonio
from tournaments.pairing.book import no_cycle_collection
from tournaments.pairing.fallback import pair_round_or_fallback
from tournaments.pairing.record import Record, set_field
from tournaments.pairing.types import (
    METHODS,
    POLICIES,
    TYPE_CHECKING,
    Meeting,
    PairingError,
    PairingPlayer,
)

# The command imports only what a Swiss round needs (issue 44; a test checks it): typing
# for the annotations alone, json's work through jsonio, the league's code when a league
# is asked for.
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, TextIO

    from tournaments.pairing.types import Method, Policy


class MalformedInput(ValueError):
    pass


class Request(Record):
    __slots__ = ("players", "met", "forbidden", "had_triple", "had_bye", "policy", "method")
    players: list[PairingPlayer]
    met: list[Meeting]
    forbidden: list[tuple[str, str]]
    had_triple: list[str]
    had_bye: list[str]
    policy: Policy
    method: Method

    def __init__(
        self,
        players: list[PairingPlayer],
        met: list[Meeting],
        forbidden: list[tuple[str, str]],
        had_triple: list[str],
        had_bye: list[str],
        policy: Policy,
        method: Method = "book",
    ) -> None:
        set_field(self, "players", players)
        set_field(self, "met", met)
        set_field(self, "forbidden", forbidden)
        set_field(self, "had_triple", had_triple)
        set_field(self, "had_bye", had_bye)
        set_field(self, "policy", policy)
        set_field(self, "method", method)


# ``what`` names the value with ``%d`` for its index: the message is only formatted when
# it is needed (formatting one per player and meeting cost more than the checks).
def _number(value: object, what: str, index: int) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MalformedInput(f"{what % index} must be a number")
    return float(value)


def _integer(value: object, what: str, index: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f"{what % index} must be an integer")
    return value


def _ids(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MalformedInput(f"{what} must be a list of player ids (strings)")
    return value


def parse_request(data: Any) -> Request:
    """Validate the decoded JSON; raises MalformedInput with a message saying what is wrong."""
    if not isinstance(data, dict):
        raise MalformedInput("the document must be a JSON object")
    policy = data.get("policy", "pairs+triple")
    if policy not in POLICIES:
        raise MalformedInput(f"policy must be one of {', '.join(POLICIES)}")
    method = data.get("method", "book")
    if method not in METHODS:
        raise MalformedInput(f"method must be one of {', '.join(METHODS)}")
    raw_players = data.get("players")
    if not isinstance(raw_players, list):
        raise MalformedInput("players must be a list")
    players: list[PairingPlayer] = []
    for i, raw in enumerate(raw_players):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
            raise MalformedInput(f"players[{i}] needs a non-empty string id")
        active = raw.get("active", True)
        if not isinstance(active, bool):
            raise MalformedInput(f"players[{i}].active must be true or false")
        players.append(
            PairingPlayer(
                raw["id"],
                _number(raw.get("score", 0), "players[%d].score", i),
                _integer(raw.get("seed", i + 1), "players[%d].seed", i),
                _integer(raw.get("starts", 0), "players[%d].starts", i),
                active,
            )
        )
    if len({p.id for p in players}) != len(players):
        raise MalformedInput("player ids must be unique")
    met: list[Meeting] = []
    raw_met = data.get("met", [])
    if not isinstance(raw_met, list):
        raise MalformedInput("met must be a list of pairs")
    for i, entry in enumerate(raw_met):
        if (
            not isinstance(entry, list)
            or not 2 <= len(entry) <= 3
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], str)
        ):
            raise MalformedInput(f"met[{i}] must be [id, id] or [id, id, round]")
        when = _integer(entry[2], "met[%d] round", i) if len(entry) == 3 else i + 1
        met.append(Meeting(entry[0], entry[1], when))
    forbidden: list[tuple[str, str]] = []
    raw_forbidden = data.get("forbidden", [])
    if not isinstance(raw_forbidden, list):
        raise MalformedInput("forbidden must be a list of pairs")
    for i, entry in enumerate(raw_forbidden):
        pair = _ids(entry, f"forbidden[{i}]")
        if len(pair) != 2:
            raise MalformedInput(f"forbidden[{i}] must be [id, id]")
        forbidden.append((pair[0], pair[1]))
    had_triple = _ids(data.get("had_triple", []), "had_triple")
    had_bye = _ids(data.get("had_bye", []), "had_bye")
    # Checked against POLICIES and METHODS above.
    return Request(players, met, forbidden, had_triple, had_bye, policy, method)


def _emit(out: TextIO, payload: object) -> None:
    out.write(jsonio.dumps(payload) + "\n")


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    # A command pairs one round and exits: the cycle collector would only scan the
    # request's objects again and again as they are built (none is in a cycle).
    with no_cycle_collection():
        return _main(argv, stdin)


def _main(argv: Sequence[str] | None, stdin: TextIO | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    if len(args) != 1:
        _emit(out, {"error": "usage: python -m tournaments.pairing FILE|-"})
        return 2
    try:
        if args[0] == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(args[0], encoding="utf-8") as handle:
                text = handle.read()
        data = jsonio.loads(text)
        request = parse_request(data)
    # ValueError: json's JSONDecodeError, UnicodeDecodeError and MalformedInput all are.
    except (OSError, ValueError) as exc:
        _emit(out, {"error": f"malformed input: {exc}"})
        return 2
    players, policy = request.players, request.policy
    if "league" in data:
        league = data["league"]
        cycles = league.get("cycles", 1) if isinstance(league, dict) else None
        if cycles not in (1, 2) or isinstance(cycles, bool):
            _emit(out, {"error": 'malformed input: league must be {"cycles": 1 or 2}'})
            return 2
        ranked = sorted((p for p in players if p.active), key=lambda p: p.seed)
        if len(ranked) < 2:
            _emit(out, {"error": "no valid pairing: a league needs at least two players"})
            return 1
        # Imported here: a Swiss round, the usual request, needs none of the league's code.
        from tournaments.pairing.league import league_schedule

        _emit(out, league_schedule([p.id for p in ranked], policy, cycles).as_json())
        return 0
    try:
        # The same call as the site's (services/rounds.py): the policy's alternative
        # when forbidden pairs leave no arrangement.
        pairing = pair_round_or_fallback(
            request.players,
            request.met,
            request.forbidden,
            request.had_triple,
            request.had_bye,
            request.policy,
            method=request.method,
        )
    except PairingError as exc:
        _emit(out, {"error": f"no valid pairing: {exc}"})
        return 1
    payload = pairing.as_json()
    if pairing.notes:
        payload["notes"] = list(pairing.notes)
    _emit(out, payload)
    return 0
