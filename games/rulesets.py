"""The registry of games a tournament or club evening can be *for*.

Every game of the family offers the same small interface, so pairing, scoring,
standings and ratings work for any of them. A game's engine lives in `games/<name>/`
(Django-free) and exposes `replay(record) -> result` whose `to_dict()` has the fields
ok, plies, finished, to_move, out, error {ply, move, reason}, and a CLI
`python -m games.<name> replay|moves FILE`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class ReplayOutcome(Protocol):
    ok: bool
    plies: int
    finished: bool

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Ruleset:
    """What the tournament side needs to know about a game.

    ``points`` turns a finished game's per-seat result (``out`` of the replay) into
    zero-sum tournament points (docs/scoring.md); ``target`` is the largest per-seat
    result a score sheet may hold (Pentagame: pieces out to win).
    """

    name: str
    title: str
    table_sizes: tuple[int, ...]
    target: int
    replay: Callable[[Mapping[str, Any]], ReplayOutcome]
    points: Callable[[Sequence[int]], list[float]]
    # How a record names the game's own setup beside "players" and "moves".
    record_keys: tuple[str, ...] = ("players", "variant", "moves")
    # Turns the engine's per-seat result into the small numbers a score sheet holds
    # (0..target); None keeps it as it is.
    sheet: Callable[[Sequence[int]], list[int]] | None = None
    # Pentagame: a finished game has a seat with `target` pieces out; elsewhere a
    # finished game may be a draw.
    finished_needs_target: bool = False

    def sheet_values(self, out: Sequence[int]) -> list[int]:
        return list(out) if self.sheet is None else self.sheet(out)


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if ruleset.name in _REGISTRY:
        raise ValueError(f"ruleset {ruleset.name!r} is registered already")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"unknown game {name!r}; known: {known}") from None


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def win_draw_loss(result: Sequence[int]) -> list[float]:
    """Points for games decided by win, draw or loss: against each other seat 1 for a
    better result, 1/2 for an equal one, 0 for a worse one. Every game hands out
    n(n-1)/2 points whatever happens, so it is zero-sum around its mean, like the
    dropped score (docs/scoring.md)."""
    points = []
    for i, mine in enumerate(result):
        score = 0.0
        for j, theirs in enumerate(result):
            if i != j:
                score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        points.append(score)
    return points


def dense_ranks(result: Sequence[int]) -> list[int]:
    """Each seat's place from the bottom (0 = worst, equal results share a place): keeps
    the order of any result, in numbers small enough for a score sheet."""
    levels = sorted(set(result))
    return [levels.index(value) for value in result]


def _pentagame_points(out: Sequence[int]) -> list[float]:
    from tournaments.scoring import dropped_scores

    return dropped_scores(out, 3)


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from games import pentagame

    register(
        Ruleset(
            name="pentagame",
            title="Pentagame",
            table_sizes=(2, 3, 4, 5),
            target=3,
            replay=pentagame.replay,  # type: ignore[arg-type]
            points=_pentagame_points,
            finished_needs_target=True,
        )
    )
    for module in ("pantarei", "pentamid_twist", "pent_up", "pentacosmos"):
        try:
            imported = __import__(f"games.{module}", fromlist=["RULESET"])
        except ModuleNotFoundError:
            continue  # not built yet
        ruleset = getattr(imported, "RULESET", None)
        if isinstance(ruleset, Ruleset):
            register(ruleset)
