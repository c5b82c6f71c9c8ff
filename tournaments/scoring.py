"""Time weighting of the book's dropped score (section 21), Django-free.

The dropped score itself is Pentagame's points per game, the family's shared scale
(games/dropped.py); see docs/scoring.md for the formulas with worked examples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Re-exported: the scoring of standings and players' records reads it from here.
from games.dropped import dropped_scores as dropped_scores

# --- Time weighting (section 21) ------------------------------------------------------
#
# "The gist is that we consider points *per time*. We can squarely compare two and three
# player games if we multiply the points of the three player table by three, and those of
# the two player table by two." A turn of about 40 minutes holds 3 games at a 2-player
# table and 2 at a 3-player table ("Let the three player tables play two games per turn,
# one clockwise and one anti-clockwise. In that period two-player tables should finish
# three games."), so an even turn is worth 3 * 3 * 2 = 18 = 2 * 3 * 3 at either table.


@dataclass(frozen=True)
class ScoringSettings:
    """Tournament settings for scoring; the defaults are the book's values.

    ``games_per_turn`` and ``factors`` map a table size to its value. ``bye_score`` and
    ``absence_score`` are round scores; ``bye_score=None`` means an even result at a
    2-player table (what a bye is worth when nobody gains from it), ``late_score`` is what
    a late entrant gets for each round before her entry.
    """

    target: int = 3
    team_target: int = 5
    games_per_turn: tuple[tuple[int, int], ...] = ((2, 3), (3, 2))
    factors: tuple[tuple[int, float], ...] = ((2, 2.0), (3, 3.0))
    bye_score: float | None = None
    absence_score: float = 0.0
    late_score: float = 0.0
    # Another game of the family scores a game with its own zero-sum points (the
    # ruleset's `points`, docs/scoring.md); None is Pentagame's dropped score.
    points: Callable[[Sequence[int]], list[float]] | None = None

    def game_scores(
        self, out: Sequence[int], teams: Sequence[Sequence[int]] | None = None
    ) -> list[float]:
        """One game's per-seat score before time weighting."""
        if self.points is not None and teams is None:
            return self.points(out)
        return dropped_scores(out, self.target if teams is None else self.team_target, teams)

    def games_for(self, table_size: int) -> int:
        for size, games in self.games_per_turn:
            if size == table_size:
                return games
        raise ValueError(f"no games per turn set for {table_size}-player tables")

    def factor_for(self, table_size: int) -> float:
        for size, factor in self.factors:
            if size == table_size:
                return factor
        raise ValueError(f"no time factor set for {table_size}-player tables")

    def even_game_score(self) -> float:
        """One seat's score in an even game: the target (3:3), or a drawn game's points
        in another game of the family."""
        return self.target if self.points is None else self.points([0, 0])[0]

    def even_round_score(self, table_size: int = 2) -> float:
        """A round score when every game of the turn ends even."""
        return self.even_game_score() * self.games_for(table_size) * self.factor_for(table_size)

    def even_turns(self, sizes: Sequence[int] = (2, 3)) -> dict[int, float]:
        """What an even turn is worth at each table size (games per turn × factor × the
        even score). The book's settings make them equal: 3 · 3 · 2 = 18 = 3 · 2 · 3."""
        return {size: self.even_round_score(size) for size in sizes}

    def turns_are_even(self, sizes: Sequence[int] = (2, 3)) -> bool:
        """Whether an even turn is worth the same at every table size in ``sizes``; if
        not, a player's score depends on the size of the tables she was seated at."""
        values = list(self.even_turns(sizes).values())
        return all(abs(v - values[0]) < 1e-9 for v in values)

    def bye_round_score(self) -> float:
        return self.even_round_score(2) if self.bye_score is None else self.bye_score


DEFAULT_SETTINGS = ScoringSettings()


def match_scores(
    games: Sequence[Sequence[int]],
    target: int = 3,
    teams: Sequence[Sequence[int]] | None = None,
) -> list[float]:
    """Per-seat sum of dropped scores over the games a table played in one turn.

    Each game lists pieces out per seat (seats keep their index even when the moving
    order changes). An unfinished game, stopped when the turn ended, simply counts the
    pieces out so far: the dropped score stays zero-sum for any pieces out.
    """
    return _match(games, ScoringSettings(target=target, team_target=target), teams)


def _match(
    games: Sequence[Sequence[int]],
    settings: ScoringSettings,
    teams: Sequence[Sequence[int]] | None,
) -> list[float]:
    if not games:
        raise ValueError("a match needs at least one game")
    total = [0.0] * len(games[0])
    for game in games:
        if len(game) != len(total):
            raise ValueError("every game of a match has the same seats")
        for seat, score in enumerate(settings.game_scores(game, teams)):
            total[seat] += score
    return total


def round_scores(
    games: Sequence[Sequence[int]],
    settings: ScoringSettings = DEFAULT_SETTINGS,
    teams: Sequence[Sequence[int]] | None = None,
    factor: float | None = None,
) -> list[float]:
    """A table's round (turn) scores: match scores times the table's time factor.

    ``factor`` overrides the settings (e.g. for a 2 vs 2 team table, which the book does
    not weigh; section 21 only says it "could be integrated"). Team tables score with
    ``settings.team_target`` (section 3: "The team that has a total of 5 pieces out first
    wins").
    """
    seats = len(games[0]) if games else 0
    if teams is None:
        weight = settings.factor_for(seats) if factor is None else factor
    else:
        if factor is None:
            raise ValueError("team tables need an explicit factor")
        weight = factor
    return [score * weight for score in _match(games, settings, teams)]


# --- The 3-player decider (sections 3 and 18) -----------------------------------------
#
# Section 18: "Thus it is reasonable to always play *two* three player games, one
# clockwise and one counterclockwise. Such a match can already produce a clear winner; if
# it doesn't, let the two leaders in score play a two player to settle the issue."
# Section 3: "You can play twice with three players, then (in case of a draw) have the
# leading two play a two-player." (docs/scoring.md, "The 3-player decider")


def match_leaders(games: Sequence[Sequence[int]], settings: ScoringSettings) -> tuple[int, ...]:
    """The seat indexes sharing the best match total (the sum of the games' scores
    before time weighting); one index when the match has a clear winner."""
    totals = _match(games, settings, None)
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if abs(total - best) < 1e-9)


def decider_pair(
    games: Sequence[Sequence[int]], settings: ScoringSettings
) -> tuple[int, int] | None:
    """The two leaders who play the decider, as seat indexes: exactly two seats tied at
    the top of a 3-player match. None when the match has a clear winner, and when all
    three share the top: the book's decider is "the two leaders", and a 2-player game of
    two of three equal players would leave the third out without a game."""
    if not games or len(games[0]) != 3:
        return None
    leaders = match_leaders(games, settings)
    return (leaders[0], leaders[1]) if len(leaders) == 2 else None


def decider_first(pair: tuple[int, int], firsts: Sequence[int]) -> int:
    """Which of the two leaders moves first in the decider: the one who began fewer of
    the match's games (``firsts``: the seat index that began each), as the first move
    alternates at a 2-player table; equal, the lower seat."""
    a, b = pair
    return b if firsts.count(b) < firsts.count(a) else a


def decider_winner(out: Sequence[int], finished: bool, settings: ScoringSettings) -> int | None:
    """The index (0 or 1) of the leader who won the decider: a finished game with the
    better score alone. A drawn decider (3:3) or one the turn ended before it was won
    settles nothing: the match stays shared (as a game that is not a win in the `wins`
    tie-break)."""
    if not finished or len(out) != 2:
        return None
    scores = settings.game_scores(out)
    if abs(scores[0] - scores[1]) < 1e-9:
        return None
    return 0 if scores[0] > scores[1] else 1
