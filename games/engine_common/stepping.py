"""Replaying a record one ply at a time, for the family's replay page.

Two kinds of engine: those whose positions are immutable states (Pantarei, Pentamid
Twist) and those that play on a mutable working game (Pent-Up, PentaCosmos). Each
game's Ruleset (games/rulesets.py) names its `start`, built by one of the two below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol


class Run(Protocol):
    """A game being replayed with its engine."""

    def mover(self) -> int:  # 0-based engine seat of the player to move
        ...

    def apply(self, text: str) -> None:  # raises the engine's ValueError subclass
        ...

    def state(self) -> Any: ...


Start = Callable[[Mapping[str, Any]], Run]


class _StateRun:
    def __init__(
        self,
        record: Mapping[str, Any],
        check_record: Callable[[Any], tuple[Any, Any]],
        parse: Callable[[str], Any],
        apply_move: Callable[[Any, Any], Any],
    ) -> None:
        self.parse, self.apply_move = parse, apply_move
        self.s, _ = check_record(record)

    def mover(self) -> int:
        return int(self.s.to_move)

    def apply(self, text: str) -> None:
        self.s = self.apply_move(self.s, self.parse(text))

    def state(self) -> Any:
        return self.s


class _GameRun:
    def __init__(
        self,
        record: Mapping[str, Any],
        check_record: Callable[[Any], tuple[Any, ...]],
        start_game: Callable[..., Any],
        parse: Callable[[str], Any],
    ) -> None:
        # check_record returns the setup (players, variant[, tokens]) and the moves last.
        *setup, _moves = check_record(record)
        self.g = start_game(*setup)
        self.parse = parse

    def mover(self) -> int:
        return int(self.g.seat) - 1

    def apply(self, text: str) -> None:
        self.g.apply(self.parse(text))

    def state(self) -> Any:
        return self.g.state()


def state_start(
    check_record: Callable[[Any], tuple[Any, Any]],
    parse: Callable[[str], Any],
    apply_move: Callable[[Any, Any], Any],
) -> Start:
    """`start` for an engine of immutable states."""
    return lambda record: _StateRun(record, check_record, parse, apply_move)


def game_start(
    check_record: Callable[[Any], tuple[Any, ...]],
    start_game: Callable[..., Any],
    parse: Callable[[str], Any],
) -> Start:
    """`start` for an engine that plays on a working game."""
    return lambda record: _GameRun(record, check_record, start_game, parse)
