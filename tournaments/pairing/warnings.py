"""What the organiser's hand-made pairing risks: the pairing editor's warnings (no Django).

The engine never seats a forbidden pair, avoids rematches first, keeps the table sizes of
the policy and the scores at a table close. An organiser who moves players by hand may
break any of these on purpose (a late arrival, a family that must leave together), so the
editor warns instead of refusing, and the services ask for a reason to override
(docs/pairing.md, "Editing a pairing by hand").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .types import Meeting, Policy

REMATCH = "rematch"
FORBIDDEN = "forbidden"
TABLE_SIZE = "table size"
SCORE_GAP = "score gap"
KINDS = (REMATCH, FORBIDDEN, TABLE_SIZE, SCORE_GAP)


@dataclass(frozen=True)
class ProposedLayout:
    """A round's tables in table order (seat order within each) and its byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    @property
    def players(self) -> list[str]:
        return [p for table in self.tables for p in table] + list(self.byes)


@dataclass(frozen=True)
class PairingWarning:
    """One thing the layout breaks. ``players`` are sorted; ``rounds`` the earlier rounds
    of a rematch; ``size`` the table size (or bye count) the policy does not give;
    ``gap`` the score gap. ``key`` says whether two layouts share the same warning."""

    kind: str
    players: tuple[str, ...] = ()
    rounds: tuple[int, ...] = ()
    size: int = 0
    gap: float = 0.0

    @property
    def key(self) -> tuple[str, tuple[str, ...], int]:
        # A table-size warning about the whole round (too many 3-player tables, byes)
        # is the same warning whoever sits there; per-table ones follow their players.
        return (self.kind, self.players, self.size)

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "players": list(self.players),
            "rounds": list(self.rounds),
            "size": self.size,
            "gap": self.gap,
        }


def policy_sizes(policy: Policy, playable: Iterable[int]) -> tuple[int, ...]:
    """The table sizes a policy seats, among those the game can be played and scored at."""
    sizes = {2} if policy == "pairs+bye" else {2, 3}
    return tuple(sorted(sizes & set(playable)))


def layout_warnings(
    layout: ProposedLayout,
    *,
    met: Iterable[Meeting] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    scores: Mapping[str, float] | None = None,
    policy: Policy = "pairs+triple",
    playable: Sequence[int] = (2, 3),
    gap_limit: float | None = None,
) -> list[PairingWarning]:
    """Every warning of ``layout``, tables in order, then the round-wide ones.

    ``met`` lists earlier meetings, ``forbidden`` the pairs never to seat together,
    ``scores`` the players' scores so far, ``gap_limit`` the largest score gap at a table
    that raises no warning (None: none checked).
    """
    rounds: dict[frozenset[str], set[int]] = {}
    for m in met:
        rounds.setdefault(frozenset((m.a, m.b)), set()).add(m.round)
    banned = {frozenset(pair) for pair in forbidden if pair[0] != pair[1]}
    scores = scores or {}
    sizes = policy_sizes(policy, playable)
    warnings: list[PairingWarning] = []
    for table in layout.tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                pair = frozenset((a, b))
                players = tuple(sorted((a, b)))
                if pair in rounds:
                    warnings.append(
                        PairingWarning(REMATCH, players, rounds=tuple(sorted(rounds[pair])))
                    )
                if pair in banned:
                    warnings.append(PairingWarning(FORBIDDEN, players))
                if gap_limit is not None and a in scores and b in scores:
                    gap = abs(scores[a] - scores[b])
                    if gap > gap_limit:
                        warnings.append(PairingWarning(SCORE_GAP, players, gap=gap))
        if len(table) not in sizes:
            warnings.append(PairingWarning(TABLE_SIZE, tuple(sorted(table)), size=len(table)))
    triples = sum(1 for table in layout.tables if len(table) == 3)
    if policy == "pairs+triple" and triples > 1:
        # "one 3-player table when odd": the engine seats more only to avoid a rematch.
        warnings.append(PairingWarning(TABLE_SIZE, size=3))
    byes = len(layout.byes)
    if byes and (policy != "pairs+bye" or byes > 1):
        # Only "pairs+bye" gives a bye, and one: the odd player out.
        warnings.append(PairingWarning(TABLE_SIZE, tuple(sorted(layout.byes)), size=1))
    return warnings


def new_warnings(
    before: Sequence[PairingWarning], after: Sequence[PairingWarning]
) -> list[PairingWarning]:
    """The warnings of ``after`` that ``before`` did not have: what an edit creates (a
    rematch the engine had to accept stays without asking again)."""
    known = {w.key for w in before}
    return [w for w in after if w.key not in known]
