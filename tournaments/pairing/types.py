"""Plain typed data that goes in and out of the pairing core (no Django)."""

from __future__ import annotations

from tournaments.pairing.record import Record, set_field

# Not typing's: importing typing is a tenth of the pairing command's start-up (issue 44),
# and the type checkers read any constant of this name as true.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Literal

    # "pairs+triple" (default): 2-player tables, plus one 3-player table when the count
    # is odd. "prefer-triples": as many 3-player tables as possible, 2-player tables for
    # the rest. "pairs+bye": 2-player tables and, when the count is odd, one bye.
    Policy = Literal["pairs+triple", "prefer-triples", "pairs+bye"]

    # "book" (default): section 21's top-down rule (book.py, docs/pairing.md).
    # "closest": the scores at each table as close as possible (sum of squared gaps).
    Method = Literal["book", "closest"]

POLICIES: tuple[Policy, ...] = ("pairs+triple", "prefer-triples", "pairs+bye")
METHODS: tuple[Method, ...] = ("book", "closest")


def _aliases(name: str) -> object:
    """``Policy`` and ``Method`` as the ``Literal`` types, built on first use: the pairing's
    own modules import them for annotations only, under ``TYPE_CHECKING``."""
    if name not in ("Policy", "Method"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from typing import Literal

    aliases = {"Policy": Literal[POLICIES], "Method": Literal[METHODS]}
    globals().update(aliases)
    return aliases[name]


if not TYPE_CHECKING:
    # Hidden from the type checkers, which would otherwise accept any name imported
    # from this module.
    __getattr__ = _aliases


class PairingError(Exception):
    """No valid pairing exists (for example forbidden pairs leave someone without a table)."""


class PairingPlayer(Record):
    """One entrant as the pairing sees her.

    ``score`` is the total weighted score so far (section 21: "Rank players per score"),
    ``seed`` the prior ranking (rating or the organiser's order; 1 is the strongest).
    ``starts`` counts the 2-player games she moved first in, for first-move balance.
    A player with ``active=False`` (withdrawn) is never paired.
    """

    __slots__ = ("id", "score", "seed", "starts", "active")
    id: str
    score: float
    seed: int
    starts: int
    active: bool

    def __init__(
        self, id: str, score: float = 0.0, seed: int = 0, starts: int = 0, active: bool = True
    ) -> None:
        set_field(self, "id", id)
        set_field(self, "score", score)
        set_field(self, "seed", seed)
        set_field(self, "starts", starts)
        set_field(self, "active", active)


class Meeting(Record):
    """Two players sat at the same table in ``round`` (turn); later rounds are more recent."""

    __slots__ = ("a", "b", "round")
    a: str
    b: str
    round: int

    def __init__(self, a: str, b: str, round: int) -> None:
        set_field(self, "a", a)
        set_field(self, "b", b)
        set_field(self, "round", round)


class Table(Record):
    """One table of a round (turn): seat 0 moves first in game 1 (see ``first_move``)."""

    __slots__ = ("seats",)
    seats: tuple[str, ...]

    def __init__(self, seats: tuple[str, ...]) -> None:
        set_field(self, "seats", seats)


class Pairing(Record):
    """The result: tables in rank order of their best player, the bye if any, and the
    number of player pairs that meet again (0 whenever a rematch-free arrangement was found).
    """

    __slots__ = ("tables", "bye", "rematches", "notes")
    tables: tuple[Table, ...]
    bye: str | None
    rematches: int
    notes: tuple[str, ...]

    def __init__(
        self,
        tables: tuple[Table, ...],
        bye: str | None = None,
        rematches: int = 0,
        notes: tuple[str, ...] = (),
    ) -> None:
        set_field(self, "tables", tables)
        set_field(self, "bye", bye)
        set_field(self, "rematches", rematches)
        set_field(self, "notes", notes)

    def as_json(self) -> dict[str, object]:
        """The CLI's output shape (issue 4, "Interface of the pairing core")."""
        return {
            "tables": [list(table.seats) for table in self.tables],
            "bye": self.bye,
            "rematches": self.rematches,
        }
