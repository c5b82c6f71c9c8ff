"""The JSON document of ``python -m ratings rate``:

    {"system": "glicko2" | "openskill" | "elo", "params": {...},
     "players": {"a": {...prior state...}},
     "periods": [[{"seats": ["a", "b", "c"], "out": [3, 1, 2], "teams": null}, ...], ...]}

A document whose frame is wrong (not an object, unknown system or parameter, a prior
state that does not parse, periods that are not lists) is refused with
``MalformedDocument``. A single bad game is not: it becomes ``Unreadable`` or fails the
system's ``check_game`` later, and is skipped with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .replay import Unreadable
from .systems import make_system
from .systems.base import RatedGame, RatingSystem


class MalformedDocument(ValueError):
    """The document cannot be rated at all."""


@dataclass(frozen=True, slots=True)
class RatingRequest:
    system: RatingSystem[Any]
    priors: dict[str, Any]
    periods: list[list[RatedGame | Unreadable]]


def _int_list(value: Any) -> tuple[int, ...] | None:
    if not isinstance(value, list):
        return None
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        return None
    return tuple(value)


def parse_game(raw: Any) -> RatedGame | Unreadable:
    """One game record; anything unexpected becomes ``Unreadable`` with the reason."""
    if not isinstance(raw, Mapping):
        return Unreadable("a game must be a JSON object")
    unknown = sorted(key for key in raw if key not in ("seats", "out", "teams"))
    if unknown:
        return Unreadable(f"unknown game field {unknown[0]!r}")
    seats = raw.get("seats")
    if not isinstance(seats, list) or not all(isinstance(player, str) for player in seats):
        return Unreadable("seats must be a list of player names")
    out_raw = raw.get("out")
    out = None if out_raw is None else _int_list(out_raw)
    if out_raw is not None and out is None:
        return Unreadable("out must be a list of whole numbers")
    teams_raw = raw.get("teams")
    teams: tuple[tuple[int, ...], ...] | None = None
    if teams_raw is not None:
        if not isinstance(teams_raw, list):
            return Unreadable("teams must be null or a list of seat-index lists")
        parsed = [_int_list(team) for team in teams_raw]
        if any(team is None for team in parsed):
            return Unreadable("teams must be null or a list of seat-index lists")
        teams = tuple(team for team in parsed if team is not None)
    return RatedGame(tuple(seats), out, teams)


def parse_document(document: Any) -> RatingRequest:
    """The whole request; raises ``MalformedDocument``."""
    if not isinstance(document, Mapping):
        raise MalformedDocument("the document must be a JSON object")
    unknown = sorted(
        key for key in document if key not in ("system", "params", "players", "periods")
    )
    if unknown:
        raise MalformedDocument(f"unknown field {unknown[0]!r}")
    name = document.get("system")
    params = document.get("params") or {}
    if not isinstance(name, str):
        raise MalformedDocument("system must be a string")
    if not isinstance(params, Mapping):
        raise MalformedDocument("params must be a JSON object")
    try:
        system = make_system(name, params)
    except ValueError as error:
        raise MalformedDocument(str(error)) from error
    players = document.get("players") or {}
    if not isinstance(players, Mapping):
        raise MalformedDocument("players must be a JSON object")
    priors: dict[str, Any] = {}
    for player in sorted(players):
        try:
            priors[player] = system.state_from_json(players[player])
        except ValueError as error:
            raise MalformedDocument(f"player {player!r}: {error}") from error
    periods_raw = document.get("periods")
    if not isinstance(periods_raw, list):
        raise MalformedDocument("periods must be a list of lists of games")
    periods: list[list[RatedGame | Unreadable]] = []
    for index, period in enumerate(periods_raw):
        if not isinstance(period, list):
            raise MalformedDocument(f"period {index} must be a list of games")
        periods.append([parse_game(raw) for raw in period])
    return RatingRequest(system, priors, periods)
