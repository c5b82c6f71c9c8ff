"""The club's statistics (issue 26, item 4), Django-free: what a club's recorded games
say about the book's claims. Plain facts in, plain numbers out; docs/statistics.md says
how each number is read, with the book's sentence it tests.

- the first-move advantage (section 21: "there is no large first mover advantage"): the
  first mover's win share (Wilson interval) and her dropped score (t interval);
- the seat order at 3-player tables (section 18: "It is a disadvantage to play after a
  strong player and an advantage to play before a weak player");
- game length in plies and minutes, beside the book's Table 3;
- the colour letters of section 22 (Table 4) and each player's word;
- draws and unfinished games by table size.

A game's seats come in the order they moved: index 0 moved first.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from games.letters import colour_letter

# The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054
# Scores that differ by less are equal (sums of thirds and halves).
EPSILON = 1e-9
# Student's t, 97.5th percentile, for 1..30 degrees of freedom; beyond, the expansion in
# `t975` is as close as these digits.
_T975 = (
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
)

Status = Literal["finished", "unfinished"]


@dataclass(frozen=True)
class GameFact:
    """One counted game. Per-seat tuples are in moving order (index 0 moved first).

    ``scores``: the game's points per seat (Pentagame's dropped score, another game's
    own zero-sum points), which the registry gives. ``ratings``: each player's rating at
    entry, None where unknown. ``colours``: each seat's colours out in the order they
    went out (empty where not recorded, or for a game without colour letters).
    ``plies``: the length of the move record, None without one. ``minutes``: first to
    last ply of a game recorded live, None otherwise."""

    game: str
    status: Status
    out: tuple[int, ...]
    scores: tuple[float, ...]
    teams: bool = False
    players: tuple[str, ...] = ()
    ratings: tuple[float | None, ...] = ()
    colours: tuple[tuple[str, ...], ...] = ()
    plies: int | None = None
    minutes: float | None = None

    def __post_init__(self) -> None:
        n = len(self.scores)
        if n < 2:
            raise ValueError("a game needs at least two seats")
        if len(self.out) != n or any(
            given and len(given) != n for given in (self.players, self.ratings, self.colours)
        ):
            raise ValueError(f"every seat's values must be given for the {n} seats")

    @property
    def seats(self) -> int:
        return len(self.scores)

    @property
    def finished(self) -> bool:
        return self.status == "finished"


@dataclass(frozen=True, order=True)
class Group:
    """Games compared with each other: the same game of the family, table size, and
    whether the sides were 2 vs 2 teams."""

    game: str
    teams: bool
    seats: int


def group_of(fact: GameFact) -> Group:
    return Group(fact.game, fact.teams, fact.seats)


# --- Intervals -------------------------------------------------------------------------


@dataclass(frozen=True)
class Share:
    """``hits`` of ``n`` with the Wilson score interval (95 %)."""

    hits: int
    n: int
    value: float | None
    low: float | None
    high: float | None


def wilson(hits: int, n: int, z: float = Z95) -> Share:
    """The Wilson score interval: unlike p ± z·se it stays inside 0..1 and keeps its
    coverage for shares near 0 or 1 and for small n."""
    if not 0 <= hits <= n:
        raise ValueError(f"{hits} hits of {n}")
    if n == 0:
        return Share(hits, n, None, None, None)
    p = hits / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # Exactly 0 (or 1) when none (or all) hit, and never past the share itself: the
    # formula's own bounds, without its rounding error.
    low = 0.0 if hits == 0 else min(p, centre - half)
    high = 1.0 if hits == n else max(p, centre + half)
    return Share(hits, n, p, low, high)


def t975(df: float) -> float:
    """Student's t quantile for a two-sided 95 % interval: the table to 30 degrees of
    freedom (fractional ones rounded down, the cautious side), the Cornish-Fisher
    expansion beyond (Abramowitz and Stegun 26.7.5; off by less than 1e-6 there)."""
    if df < 1:
        raise ValueError("t needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[int(df) - 1]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass(frozen=True)
class Mean:
    """The mean of ``n`` values with Student's t interval (95 %); no interval for one
    value, nothing for none. ``sd``: the sample standard deviation."""

    n: int
    value: float | None
    low: float | None
    high: float | None
    sd: float | None


def mean_interval(values: Sequence[float]) -> Mean:
    moments = Moments()
    for value in values:
        moments.add(value)
    return moments.mean()


def difference_interval(a: Mean, b: Mean) -> Mean:
    """a − b with Welch's t interval (the two groups' variances need not be equal);
    ``n`` is the smaller group's."""
    if a.value is None or b.value is None:
        return Mean(0, None, None, None, None)
    diff = a.value - b.value
    if a.sd is None or b.sd is None:
        return Mean(min(a.n, b.n), diff, None, None, None)
    va, vb = a.sd**2 / a.n, b.sd**2 / b.n
    se = math.sqrt(va + vb)
    if se == 0:
        return Mean(min(a.n, b.n), diff, diff, diff, 0.0)
    df = (va + vb) ** 2 / (va**2 / (a.n - 1) + vb**2 / (b.n - 1))
    half = t975(df) * se
    return Mean(min(a.n, b.n), diff, diff - half, diff + half, None)


@dataclass(frozen=True)
class Spread:
    """Order statistics of ``n`` values: least, 10th percentile, quartiles, median, 90th
    percentile, greatest. Percentiles interpolate linearly between the sorted values
    (Hyndman and Fan's type 7, the default of R and of numpy)."""

    n: int
    least: float | None = None
    p10: float | None = None
    q1: float | None = None
    median: float | None = None
    q3: float | None = None
    p90: float | None = None
    most: float | None = None


def percentile(ordered: Sequence[float], p: float) -> float:
    h = (len(ordered) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (h - lo) * (ordered[hi] - ordered[lo])


def spread(values: Iterable[float]) -> Spread:
    ordered = sorted(values)
    if not ordered:
        return Spread(0)
    return Spread(
        len(ordered),
        ordered[0],
        percentile(ordered, 0.1),
        percentile(ordered, 0.25),
        percentile(ordered, 0.5),
        percentile(ordered, 0.75),
        percentile(ordered, 0.9),
        ordered[-1],
    )


# --- Who won ---------------------------------------------------------------------------


def winners(fact: GameFact) -> tuple[int, ...]:
    """The seats that won, as the standings read a win (tournaments/standings/table.py): a
    finished game's best score alone; seats sharing the best score tied it (section 2:
    "see if they can tie the game"), as 3:3 at two; with teams both partners win."""
    if not fact.finished:
        return ()
    best = max(fact.scores)
    top = tuple(s for s, score in enumerate(fact.scores) if abs(score - best) < EPSILON)
    if len(top) == 1 or (fact.teams and len(top) < fact.seats):
        return top
    return ()


def is_draw(fact: GameFact) -> bool:
    """Finished with every side equal: 3:3 at two, 3:3:3 at three, 5:5 between teams."""
    return fact.finished and max(fact.scores) - min(fact.scores) < EPSILON


def even_score(fact: GameFact) -> float:
    """A seat's score when every side does equally well: the mean of the game's scores
    (zero-sum, so the dropped score's target, 3)."""
    return math.fsum(fact.scores) / fact.seats


# --- The statistics --------------------------------------------------------------------


@dataclass(frozen=True)
class FirstMove:
    """The first mover in the finished games of a group. ``fair``: the share of games a
    seat wins on average there (what the first mover would win with no advantage);
    ``even``: the mean even score; ``above_even``: her score minus the game's even score."""

    group: Group
    games: int
    wins: Share
    fair: float | None
    score: Mean
    even: float | None
    above_even: Mean


@dataclass(frozen=True)
class SeatOrder:
    """Scores at 3-player tables by whom a player moved right after: the stronger of her
    two opponents (by rating at entry) or the weaker. ``left_out``: seats of those games
    without both opponents' ratings, or with the two equal."""

    game: str
    games: int
    after_stronger: Mean
    after_weaker: Mean
    difference: Mean
    stronger_above_even: Mean
    weaker_above_even: Mean
    even: float | None
    left_out: int


@dataclass(frozen=True)
class Length:
    """Finished games' length: plies of those with a move record, minutes of those
    recorded live, and the book's minutes (Table 3) where the game has them."""

    group: Group
    plies: Spread
    minutes: Spread
    book_minutes: float | None


@dataclass(frozen=True)
class Outcomes:
    """How the games of a group ended. ``won``: one winner (or winning team); ``drawn``:
    every side equal; ``shared``: the best score shared by some sides, not all (3:3:1);
    ``unfinished``: the turn ended first, ``unplayed`` of them with no piece out (a game
    the round was closed before it was played)."""

    group: Group
    games: int
    won: int
    drawn: int
    shared: int
    unfinished: int
    unplayed: int
    draws: Share
    unfinished_share: Share


@dataclass(frozen=True)
class Word:
    """A player's letters, one per game she won with two colours out, in game order.
    Table 4 gives I and J one cell, as the Latin alphabet had one letter: "I"."""

    player: str
    text: str


@dataclass(frozen=True)
class Letters:
    """Table 4's letters of the winners' first two colours out, most frequent first;
    ``missing``: wins whose winner has fewer than two colours out recorded."""

    counts: tuple[tuple[str, int], ...]
    total: int
    missing: int


@dataclass(frozen=True)
class Statistics:
    games: int
    first_move: tuple[FirstMove, ...]
    seat_order: tuple[SeatOrder, ...]
    lengths: tuple[Length, ...]
    letters: Letters
    words: tuple[Word, ...]
    outcomes: tuple[Outcomes, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "first_move": [
                {
                    **_group_json(row.group),
                    "finished_games": row.games,
                    "win_share": _share_json(row.wins),
                    "fair_share": row.fair,
                    "dropped_score": _mean_json(row.score),
                    "even_score": row.even,
                    "above_even": _mean_json(row.above_even),
                }
                for row in self.first_move
            ],
            "seat_order": [
                {
                    "game": row.game,
                    "finished_games": row.games,
                    "after_stronger": _mean_json(row.after_stronger),
                    "after_weaker": _mean_json(row.after_weaker),
                    "difference": _mean_json(row.difference),
                    "even_score": row.even,
                    "seats_left_out": row.left_out,
                }
                for row in self.seat_order
            ],
            "length": [
                {
                    **_group_json(row.group),
                    "plies": _spread_json(row.plies),
                    "minutes": _spread_json(row.minutes),
                    "book_minutes": row.book_minutes,
                }
                for row in self.lengths
            ],
            "letters": {
                "counts": [
                    {"letter": letter, "count": count} for letter, count in self.letters.counts
                ],
                "total": self.letters.total,
                "wins_without_colours": self.letters.missing,
            },
            "outcomes": [
                {
                    **_group_json(row.group),
                    "games": row.games,
                    "won": row.won,
                    "drawn": row.drawn,
                    "shared_top": row.shared,
                    "unfinished": row.unfinished,
                    "unplayed": row.unplayed,
                    "draw_share": _share_json(row.draws),
                    "unfinished_share": _share_json(row.unfinished_share),
                }
                for row in self.outcomes
            ],
        }


def _group_json(group: Group) -> dict[str, object]:
    return {"game": group.game, "seats": group.seats, "teams": group.teams}


def _share_json(share: Share) -> dict[str, object]:
    return {
        "hits": share.hits,
        "n": share.n,
        "value": share.value,
        "low": share.low,
        "high": share.high,
    }


def _mean_json(mean: Mean) -> dict[str, object]:
    return {"n": mean.n, "value": mean.value, "low": mean.low, "high": mean.high}


def _spread_json(s: Spread) -> dict[str, object]:
    return {
        "n": s.n,
        "least": s.least,
        "p10": s.p10,
        "q1": s.q1,
        "median": s.median,
        "q3": s.q3,
        "p90": s.p90,
        "most": s.most,
    }


# --- Summaries: what the statistics are made of, summed per event and merged -----------
#
# A club's statistics are those of all its events' games. Each event's games are summed
# up once (`summarise`), the summaries of a scope are added together (`merge`), and the
# statistics are read off the sum (`statistics_of`): a changed result costs its own
# event's summary, not the club's 100,000 games. Every part adds up exactly (counts,
# sums, sums of squares, the lengths' values, the letters in order).


@dataclass
class Moments:
    """Count, sum and sum of squares: a mean and its t interval, and addable."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def mean(self) -> Mean:
        n = self.n
        if n == 0:
            return Mean(0, None, None, None, None)
        mean = self.total / n
        if n == 1:
            return Mean(1, mean, None, None, None)
        # Rounding can leave a hair below zero where every value is the same.
        variance = max(0.0, (self.squares - self.total * mean) / (n - 1))
        sd = math.sqrt(variance)
        half = t975(n - 1) * sd / math.sqrt(n)
        return Mean(n, mean, mean - half, mean + half, sd)


@dataclass
class GroupTally:
    """A group's games summed up: how they ended, the first mover's wins and scores (of
    the finished ones), and their lengths."""

    games: int = 0
    won: int = 0
    drawn: int = 0
    shared: int = 0
    unfinished: int = 0
    unplayed: int = 0
    first_wins: int = 0
    seat_wins: int = 0
    first_score: Moments = field(default_factory=Moments)
    even: Moments = field(default_factory=Moments)
    above_even: Moments = field(default_factory=Moments)
    plies: Counter[int] = field(default_factory=Counter)
    minutes: list[float] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return self.games - self.unfinished

    def merge(self, other: GroupTally) -> None:
        for name in ("games", "won", "drawn", "shared", "unfinished", "unplayed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.first_wins += other.first_wins
        self.seat_wins += other.seat_wins
        self.first_score.merge(other.first_score)
        self.even.merge(other.even)
        self.above_even.merge(other.above_even)
        self.plies += other.plies
        self.minutes.extend(other.minutes)


@dataclass
class OrderTally:
    """The seats of a game's finished 3-player games, by whom each moved right after."""

    games: int = 0
    left_out: int = 0
    even: Moments = field(default_factory=Moments)
    stronger: Moments = field(default_factory=Moments)
    weaker: Moments = field(default_factory=Moments)
    stronger_above: Moments = field(default_factory=Moments)
    weaker_above: Moments = field(default_factory=Moments)

    def merge(self, other: OrderTally) -> None:
        self.games += other.games
        self.left_out += other.left_out
        for name in ("even", "stronger", "weaker", "stronger_above", "weaker_above"):
            getattr(self, name).merge(getattr(other, name))


@dataclass
class Summary:
    """Everything the statistics are read from. ``words``: each player's letters in the
    order she won them (merge summaries in the order their games were played)."""

    games: int = 0
    groups: dict[Group, GroupTally] = field(default_factory=dict)
    orders: dict[str, OrderTally] = field(default_factory=dict)
    letters: Counter[str] = field(default_factory=Counter)
    missing: int = 0
    words: dict[str, list[str]] = field(default_factory=dict)


def summarise(facts: Iterable[GameFact]) -> Summary:
    """The summary of these games, in the order they were played."""
    summary = Summary()
    for fact in facts:
        _count(summary, fact)
    return summary


def merge(summaries: Iterable[Summary]) -> Summary:
    """The summaries added up, in the order given (a player's word reads them so)."""
    total = Summary()
    for summary in summaries:
        total.games += summary.games
        for group, tally in summary.groups.items():
            total.groups.setdefault(group, GroupTally()).merge(tally)
        for game, order in summary.orders.items():
            total.orders.setdefault(game, OrderTally()).merge(order)
        total.letters.update(summary.letters)
        total.missing += summary.missing
        for player, letters in summary.words.items():
            total.words.setdefault(player, []).extend(letters)
    return total


def _count(summary: Summary, fact: GameFact) -> None:
    summary.games += 1
    group = group_of(fact)
    tally = summary.groups.get(group)
    if tally is None:
        tally = summary.groups[group] = GroupTally()
    tally.games += 1
    won = winners(fact)
    if not fact.finished:
        tally.unfinished += 1
        tally.unplayed += not any(fact.out)
        return
    if won:
        tally.won += 1
    elif is_draw(fact):
        tally.drawn += 1
    else:
        tally.shared += 1
    even = even_score(fact)
    tally.first_wins += 0 in won
    tally.seat_wins += len(won)
    tally.first_score.add(fact.scores[0])
    tally.even.add(even)
    tally.above_even.add(fact.scores[0] - even)
    if fact.plies:
        tally.plies[fact.plies] += 1
    if fact.minutes is not None:
        tally.minutes.append(fact.minutes)
    if fact.seats == 3 and not fact.teams:
        _count_order(summary, fact, even)
    if fact.colours:
        for seat in won:
            letter = letter_of(fact.colours[seat])
            if not letter:
                summary.missing += 1
                continue
            summary.letters[letter] += 1
            if fact.players:
                word = summary.words.setdefault(fact.players[seat], [])
                word.append("I" if letter == "I/J" else letter)


def _count_order(summary: Summary, fact: GameFact, even: float) -> None:
    """Each seat of a finished 3-player game is one observation: her vorhand (the
    player moving right before her, section 18) against her hinterhand (right after)."""
    order = summary.orders.get(fact.game)
    if order is None:
        order = summary.orders[fact.game] = OrderTally()
    order.games += 1
    order.even.add(even)
    ratings = fact.ratings or (None,) * fact.seats
    for seat in range(fact.seats):
        before = ratings[(seat - 1) % fact.seats]
        after = ratings[(seat + 1) % fact.seats]
        score = fact.scores[seat]
        if before is None or after is None or before == after:
            order.left_out += 1
        elif before > after:
            order.stronger.add(score)
            order.stronger_above.add(score - even)
        else:
            order.weaker.add(score)
            order.weaker_above.add(score - even)


def compute_statistics(
    facts: Iterable[GameFact],
    *,
    book_minutes: Mapping[str, Mapping[int, float]] | None = None,
    game_order: Sequence[str] = (),
) -> Statistics:
    """Every statistic of the games in ``facts``, which come in the order they were
    played (a player's word reads them so)."""
    return statistics_of(summarise(facts), book_minutes=book_minutes, game_order=game_order)


def statistics_of(
    summary: Summary,
    *,
    book_minutes: Mapping[str, Mapping[int, float]] | None = None,
    game_order: Sequence[str] = (),
) -> Statistics:
    """The statistics read off a summary. ``book_minutes``: per game of the family, the
    book's minutes per game by table size (Table 3). ``game_order``: the order games are
    listed in (others after, by name)."""
    rank = {name: i for i, name in enumerate(game_order)}

    def order(group: Group) -> tuple[int, str, bool, int]:
        return (rank.get(group.game, len(rank)), group.game, group.teams, group.seats)

    ordered = sorted(summary.groups, key=order)
    books = book_minutes or {}
    three = sorted(summary.orders, key=lambda name: (rank.get(name, len(rank)), name))
    ranked = tuple(sorted(summary.letters.items(), key=lambda item: (-item[1], item[0])))
    by_length = sorted(summary.words.items(), key=lambda item: (-len(item[1]), item[0]))
    return Statistics(
        games=summary.games,
        first_move=tuple(_first_move(g, summary.groups[g]) for g in ordered),
        seat_order=tuple(
            _seat_order(name, summary.orders[name]) for name in three if summary.orders[name].games
        ),
        lengths=tuple(
            Length(
                g,
                spread(sorted(summary.groups[g].plies.elements())),
                spread(summary.groups[g].minutes),
                books.get(g.game, {}).get(g.seats),
            )
            for g in ordered
        ),
        letters=Letters(ranked, sum(summary.letters.values()), summary.missing),
        words=tuple(Word(player, "".join(letters)) for player, letters in by_length),
        outcomes=tuple(_outcomes(g, summary.groups[g]) for g in ordered),
    )


def _first_move(group: Group, tally: GroupTally) -> FirstMove:
    n = tally.finished
    return FirstMove(
        group=group,
        games=n,
        wins=wilson(tally.first_wins, n),
        fair=tally.seat_wins / (n * group.seats) if n else None,
        score=tally.first_score.mean(),
        even=tally.even.total / n if n else None,
        above_even=tally.above_even.mean(),
    )


def _seat_order(game: str, tally: OrderTally) -> SeatOrder:
    a, b = tally.stronger.mean(), tally.weaker.mean()
    return SeatOrder(
        game=game,
        games=tally.games,
        after_stronger=a,
        after_weaker=b,
        difference=difference_interval(a, b),
        stronger_above_even=tally.stronger_above.mean(),
        weaker_above_even=tally.weaker_above.mean(),
        even=tally.even.total / tally.games if tally.games else None,
        left_out=tally.left_out,
    )


def letter_of(colours: Sequence[str]) -> str:
    """Table 4's letter of a seat's first two colours out; empty with fewer than two
    (or a colour Table 4 does not know)."""
    try:
        return colour_letter(colours)
    except (ValueError, IndexError):
        return ""


def _outcomes(group: Group, tally: GroupTally) -> Outcomes:
    n = tally.games
    return Outcomes(
        group=group,
        games=n,
        won=tally.won,
        drawn=tally.drawn,
        shared=tally.shared,
        unfinished=tally.unfinished,
        unplayed=tally.unplayed,
        draws=wilson(tally.drawn, n),
        unfinished_share=wilson(tally.unfinished, n),
    )
