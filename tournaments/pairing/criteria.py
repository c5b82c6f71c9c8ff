"""The pairing criteria as one comparable number per table.

Issue 4 puts the criteria in strict priority: no rematch (otherwise as few as possible,
oldest first); table sizes per the policy; the 3-player table or bye to the lowest-ranked
who have not had one; scores at a table as close as possible; then the book's top-down
order (section 21: "Working top-down, pair each player with the next player down the list
against whom she has not yet played"). Every criterion is a non-negative count that adds
up over tables, so packing them into one integer with a large enough base per tier keeps
the priority exact: no amount of a lower tier can outweigh one unit of a higher one.
The table-size criterion is handled by the caller, which tries layouts in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.pairing.record import Record, set_field
from tournaments.pairing.types import Meeting, PairingPlayer

# Tiers, highest first. REMATCH..RECENT decide rematches; the layout comes between
# RECENT and SPECIAL_HAD (see engine.py).
REMATCH, TIMES, RECENT, SPECIAL_HAD, SPECIAL_LOW, GAP, ORDER = range(7)
N_TIERS = 7
HIGH_TIERS = 3  # REMATCH, TIMES, RECENT

# Scores are weighted sums of dropped scores, so halves occur (3-player games, ×3);
# doubling and rounding makes score gaps exact integers.
SCORE_QUANTUM = 2


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class Field(Record):
    """The active players in rank order with their history, addressed by rank index."""

    __slots__ = (
        "players",
        "met_count",
        "met_recent",
        "forbidden",
        "had_special",
        "quantised",
        "max_times",
        "max_recent",
    )
    players: tuple[PairingPlayer, ...]
    met_count: dict[tuple[int, int], int]
    met_recent: dict[tuple[int, int], int]  # 1 = the oldest meeting, larger = more recent
    forbidden: frozenset[tuple[int, int]]
    had_special: tuple[bool, ...]
    quantised: tuple[int, ...]
    max_times: int
    max_recent: int

    def __init__(
        self,
        players: tuple[PairingPlayer, ...],
        met_count: dict[tuple[int, int], int],
        met_recent: dict[tuple[int, int], int],
        forbidden: frozenset[tuple[int, int]],
        had_special: tuple[bool, ...],
        quantised: tuple[int, ...],
        max_times: int,
        max_recent: int,
    ) -> None:
        set_field(self, "players", players)
        set_field(self, "met_count", met_count)
        set_field(self, "met_recent", met_recent)
        set_field(self, "forbidden", forbidden)
        set_field(self, "had_special", had_special)
        set_field(self, "quantised", quantised)
        set_field(self, "max_times", max_times)
        set_field(self, "max_recent", max_recent)

    @property
    def size(self) -> int:
        return len(self.players)

    def met(self, a: int, b: int) -> bool:
        return pair_key(a, b) in self.met_count

    def allowed(self, a: int, b: int) -> bool:
        return pair_key(a, b) not in self.forbidden

    def pair_tiers(self, a: int, b: int) -> tuple[int, int, int, int]:
        """REMATCH, TIMES, RECENT and GAP for two players at one table."""
        key = pair_key(a, b)
        times = self.met_count.get(key, 0)
        gap = self.quantised[a] - self.quantised[b]
        if times == 0:
            return 0, 0, 0, gap * gap
        return 1, times, self.met_recent[key], gap * gap


def rank_players(players: Iterable[PairingPlayer]) -> list[PairingPlayer]:
    """Rank by score, then seed (section 21: "Rank players per score"; first round by seed)."""
    return sorted(players, key=lambda p: (-p.score, p.seed, p.id))


def build_field(
    ranked: Sequence[PairingPlayer],
    met: Iterable[Meeting],
    forbidden: Iterable[tuple[str, str]],
    had_special: Iterable[str],
) -> Field:
    index = {p.id: i for i, p in enumerate(ranked)}
    meetings = sorted(met, key=lambda m: m.round)
    rounds = sorted({m.round for m in meetings})
    age = {r: i + 1 for i, r in enumerate(rounds)}
    count: dict[tuple[int, int], int] = {}
    recent: dict[tuple[int, int], int] = {}
    for m in meetings:
        if m.a in index and m.b in index and m.a != m.b:
            key = pair_key(index[m.a], index[m.b])
            count[key] = count.get(key, 0) + 1
            recent[key] = max(recent.get(key, 0), age[m.round])
    banned = frozenset(
        pair_key(index[a], index[b]) for a, b in forbidden if a in index and b in index and a != b
    )
    special = set(had_special)
    return Field(
        players=tuple(ranked),
        met_count=count,
        met_recent=recent,
        forbidden=banned,
        had_special=tuple(p.id in special for p in ranked),
        quantised=tuple(round(p.score * SCORE_QUANTUM) for p in ranked),
        max_times=max(count.values(), default=0),
        max_recent=max(recent.values(), default=0),
    )


class Encoder(Record):
    """Packs the tiers of a set of tables into one integer (lower is better)."""

    __slots__ = ("weights",)
    weights: tuple[int, ...]

    def __init__(self, weights: tuple[int, ...]) -> None:
        set_field(self, "weights", weights)

    @classmethod
    def for_members(cls, field: Field, members: Sequence[int]) -> Encoder:
        """Bases large enough for any arrangement of ``members`` (sums over at most
        ``len(members)`` player pairs, since a 3-player table has 3 pairs for 3 players)."""
        m = max(len(members), 2)
        max_times = field.max_times
        max_recent = field.max_recent
        q = [field.quantised[i] for i in members] or [0]
        max_gap = (max(q) - min(q)) ** 2
        n = field.size
        maxima = [1, max_times, max_recent, 1, n, max_gap, n]
        weights = [0] * N_TIERS
        w = 1
        for tier in range(N_TIERS - 1, -1, -1):
            weights[tier] = w
            w *= m * maxima[tier] + 1
        return cls(tuple(weights))

    @property
    def high_base(self) -> int:
        """Dividing a packed cost by this leaves the rematch tiers only."""
        return self.weights[HIGH_TIERS - 1]

    def pair(self, field: Field, a: int, b: int) -> int:
        """A 2-player table (no special role)."""
        rem, times, recent, gap = field.pair_tiers(a, b)
        w = self.weights
        return (
            rem * w[REMATCH]
            + times * w[TIMES]
            + recent * w[RECENT]
            + gap * w[GAP]
            + (abs(a - b) - 1) * w[ORDER]
        )

    def special(self, field: Field, player: int) -> int:
        """The cost of giving ``player`` the 3-player table or the bye."""
        w = self.weights
        return (
            int(field.had_special[player]) * w[SPECIAL_HAD]
            + (field.size - 1 - player) * w[SPECIAL_LOW]
        )

    def table(self, field: Field, seats: Sequence[int], special: bool) -> int:
        """Any table: sum of the pair tiers, the top-down order as the rank span beyond
        adjacent, plus the special role for every seat when it is the 3-player table."""
        w = self.weights
        total = 0
        for x in range(len(seats)):
            for y in range(x + 1, len(seats)):
                rem, times, recent, gap = field.pair_tiers(seats[x], seats[y])
                total += rem * w[REMATCH] + times * w[TIMES] + recent * w[RECENT] + gap * w[GAP]
        total += (max(seats) - min(seats) - (len(seats) - 1)) * w[ORDER]
        if special:
            total += sum(self.special(field, s) for s in seats)
        return total
