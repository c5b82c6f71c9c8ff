"""Plain typed data that goes in and out of the pairing core (no Django)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# "pairs+triple" (default): 2-player tables, plus one 3-player table when the count is odd.
# "prefer-triples": as many 3-player tables as possible, 2-player tables for the rest.
# "pairs+bye": 2-player tables and, when the count is odd, one bye.
Policy = Literal["pairs+triple", "prefer-triples", "pairs+bye"]
POLICIES: tuple[Policy, ...] = ("pairs+triple", "prefer-triples", "pairs+bye")

# "book" (default): section 21's top-down rule (book.py, docs/pairing.md).
# "closest": the scores at each table as close as possible (sum of squared gaps).
Method = Literal["book", "closest"]
METHODS: tuple[Method, ...] = ("book", "closest")


class PairingError(Exception):
    """No valid pairing exists (for example forbidden pairs leave someone without a table)."""


@dataclass(frozen=True)
class PairingPlayer:
    """One entrant as the pairing sees her.

    ``score`` is the total weighted score so far (section 21: "Rank players per score"),
    ``seed`` the prior ranking (rating or the organiser's order; 1 is the strongest).
    ``starts`` counts the 2-player games she moved first in, for first-move balance.
    A player with ``active=False`` (withdrawn) is never paired.
    """

    id: str
    score: float = 0.0
    seed: int = 0
    starts: int = 0
    active: bool = True


@dataclass(frozen=True)
class Meeting:
    """Two players sat at the same table in ``round`` (turn); later rounds are more recent."""

    a: str
    b: str
    round: int


@dataclass(frozen=True)
class Table:
    """One table of a round (turn): seat 0 moves first in game 1 (see ``first_move``)."""

    seats: tuple[str, ...]


@dataclass(frozen=True)
class Pairing:
    """The result: tables in rank order of their best player, the bye if any, and the
    number of player pairs that meet again (0 whenever a rematch-free arrangement was found).
    """

    tables: tuple[Table, ...]
    bye: str | None = None
    rematches: int = 0
    notes: tuple[str, ...] = field(default=())

    def as_json(self) -> dict[str, object]:
        """The CLI's output shape (issue 4, "Interface of the pairing core")."""
        return {
            "tables": [list(table.seats) for table in self.tables],
            "bye": self.bye,
            "rematches": self.rematches,
        }
