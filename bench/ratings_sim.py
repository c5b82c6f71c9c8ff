"""A tiny Pentagame outcome simulator for the rating benchmarks (no rules engine).

Each player has a hidden strength theta. A game is a race to bring out three pieces:
every round each seat brings out a piece with probability 1 - exp(-RATE * exp(theta)),
and the round in which someone reaches three is played out, so several players can
finish on three and the margins (3:3 ... 3:0) come out naturally.

Seat order (the book, sections 3 and 18): in games of three or more, each player plays
mainly against her hinterhand, so playing after a strong player hurts. A seat's
effective strength is theta - gamma * (theta of her vorhand - table mean), the same
form as the model in ratings/systems/seat.py; gamma = 0 switches it off.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ratings.systems.base import RatedGame

RATE = 0.36  # about ten rounds for a game between two average players
STRENGTH_SD = 0.8
DRIFT_SD = 0.01  # per period, so the rating systems have some change to follow


def play(rng: random.Random, thetas: Sequence[float], gamma: float) -> tuple[int, ...]:
    count = len(thetas)
    effective = list(thetas)
    if count >= 3 and gamma:
        mean = sum(thetas) / count
        effective = [thetas[k] - gamma * (thetas[k - 1] - mean) for k in range(count)]
    chance = [1.0 - math.exp(-RATE * math.exp(theta)) for theta in effective]
    out = [0] * count
    for _ in range(60):
        for seat in range(count):
            if out[seat] < 3 and rng.random() < chance[seat]:
                out[seat] += 1
        if max(out) >= 3:
            break
    return tuple(out)


def split_tables(rng: random.Random, players: list[str], share_of_threes: float) -> list[list[str]]:
    """Consecutive players into tables of two and three (no table of one)."""
    tables: list[list[str]] = []
    rest = list(players)
    while rest:
        size = 3 if (len(rest) == 3 or (len(rest) >= 5 and rng.random() < share_of_threes)) else 2
        if len(rest) == 1:
            tables[-1].append(rest.pop())
            break
        tables.append(rest[:size])
        rest = rest[size:]
    return tables


def table_games(rng: random.Random, world: World, table: list[str]) -> list[RatedGame]:
    """A match: two games, the second in the reverse direction of play."""
    games = []
    for seats in (table, table[:1] + table[1:][::-1] if len(table) >= 3 else table[::-1]):
        out = play(rng, [world.theta[p] for p in seats], world.gamma)
        games.append(RatedGame(tuple(seats), out))
    return games


@dataclass
class World:
    seed: int
    size: int = 120
    gamma: float = 0.3
    theta: dict[str, float] = field(default_factory=dict)
    games_played: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        for n in range(self.size):
            name = f"p{n:03d}"
            self.theta[name] = self.rng.gauss(0.0, STRENGTH_SD)
            self.games_played[name] = 0

    def mean_games(self) -> float:
        return sum(self.games_played.values()) / self.size

    def _drift(self) -> None:
        for name in sorted(self.theta):
            self.theta[name] += self.rng.gauss(0.0, DRIFT_SD)

    def _count(self, games: list[RatedGame]) -> list[RatedGame]:
        for game in games:
            for player in game.seats:
                self.games_played[player] += 1
        return games

    def club_evening(self) -> list[list[RatedGame]]:
        attendees = self.rng.sample(sorted(self.theta), 30)
        games: list[RatedGame] = []
        for table in split_tables(self.rng, attendees, 0.5):
            games.extend(table_games(self.rng, self, table))
        self._drift()
        return [self._count(games)]

    def swiss(self, entrants: int = 36, rounds: int = 5) -> list[list[RatedGame]]:
        """A Swiss tournament, one period per round: sort by points, seat neighbours."""
        players = self.rng.sample(sorted(self.theta), entrants)
        points = dict.fromkeys(players, 0.0)
        periods = []
        for _ in range(rounds):
            order = sorted(players, key=lambda p: (-points[p], p))
            games: list[RatedGame] = []
            for table in split_tables(self.rng, order, 0.5):
                for game in table_games(self.rng, self, table):
                    games.append(game)
                    size = len(game.seats)
                    for seat, player in enumerate(game.seats):
                        assert game.out is not None
                        mine = game.out[seat]
                        others = [game.out[k] for k in range(size) if k != seat]
                        points[player] += mine + sum(3 - o for o in others) / (size - 1)
            periods.append(self._count(games))
        self._drift()
        return periods

    def next_periods(self) -> list[list[RatedGame]]:
        return self.swiss() if self.rng.random() < 0.3 else self.club_evening()

    def held_out(self, count: int, seed: int) -> list[RatedGame]:
        """Games from the current strengths that no system rates: half two-player,
        half three-player, random opponents and seat order."""
        rng = random.Random(seed)
        names = sorted(self.theta)
        games = []
        for number in range(count):
            seats = rng.sample(names, 2 if number % 2 == 0 else 3)
            games.append(
                RatedGame(tuple(seats), play(rng, [self.theta[p] for p in seats], self.gamma))
            )
        return games
