"""How many 2-player tables, 3-player tables and byes a round (turn) has, per policy.

Section 21: "Two and three player games can be played in the same tournament relatively
easily", because the ×2 / ×3 time weighting makes the tables worth the same per turn.
The policy gives the preferred layout first; the others are only used when they avoid a
rematch that the preferred one cannot (rematches rank above table sizes in issue 4).
"""

from __future__ import annotations

from tournaments.pairing.record import Record, set_field
from tournaments.pairing.types import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.pairing.types import Policy


class Layout(Record):
    __slots__ = ("pairs", "triples", "bye")
    pairs: int
    triples: int
    bye: bool

    def __init__(self, pairs: int, triples: int, bye: bool) -> None:
        set_field(self, "pairs", pairs)
        set_field(self, "triples", triples)
        set_field(self, "bye", bye)

    @property
    def seats(self) -> int:
        return 2 * self.pairs + 3 * self.triples + int(self.bye)


def layouts(policy: Policy, n: int) -> list[Layout]:
    """Possible layouts for ``n`` players, the policy's preferred one first."""
    if n <= 0:
        return [Layout(0, 0, False)]
    if policy == "pairs+bye":
        return [Layout(n // 2, 0, n % 2 == 1)]
    # Every split of n into tables of 2 and 3.
    splits = [Layout((n - 3 * t) // 2, t, False) for t in range(n // 3 + 1) if (n - 3 * t) % 2 == 0]
    if policy == "prefer-triples":
        return sorted(splits, key=lambda lay: -lay.triples)
    return sorted(splits, key=lambda lay: lay.triples)
