"""Throughput of the bare rating maths: games per second for each system on two- and
three-player games, rated in periods of 40 games within a pool of players (2,000 by
default; Glicko-2 grows the deviation of every idle player each period, so its cost
per period includes the whole pool). No parsing, no database. ``replay`` adds the skipping/bookkeeping layer the jobs use.

Run from the repository root: .venv/bin/python -m bench.ratings_maths [--games N]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.replay import replay  # noqa: E402
from ratings.systems import Elo, Game, Glicko2, Glicko2Params, OpenSkillParams, OpenSkillPL  # noqa: E402
from ratings.systems.base import RatingSystem  # noqa: E402

PERIOD = 40


def make_games(count: int, size: int, seed: int, pool: int = 2000) -> list[list[Game]]:
    rng = random.Random(seed)
    names = [f"p{n:04d}" for n in range(pool)]
    games = []
    for _ in range(count):
        seats = tuple(rng.sample(names, size))
        out = [rng.randint(0, 3) for _ in seats]
        out[rng.randrange(size)] = 3
        games.append(Game(seats, tuple(out)))
    return [games[i : i + PERIOD] for i in range(0, count, PERIOD)]


def bare(system: RatingSystem[Any], periods: list[list[Game]]) -> None:
    states: dict[str, Any] = {}
    for games in periods:
        states = system.rate_period(states, games).states


def with_replay(system: RatingSystem[Any], periods: list[list[Game]]) -> None:
    replay(system, {}, periods)


def timed(run: Callable[[], None], repeats: int = 3) -> float:
    """Fastest of ``repeats`` runs: the machine is shared, and slower runs measure the
    neighbours rather than the code."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--pool", type=int, default=2000)
    args = parser.parse_args()
    systems: list[tuple[str, Callable[[], RatingSystem[Any]]]] = [
        ("glicko2", lambda: Glicko2()),
        ("glicko2 + seat term", lambda: Glicko2(Glicko2Params(seat_strength=0.2))),
        ("elo", lambda: Elo()),
        ("openskill PL blend", lambda: OpenSkillPL()),
        ("openskill PL rank", lambda: OpenSkillPL(OpenSkillParams(margin_mapping="rank"))),
    ]
    print(
        f"# {args.games} games per row, pool {args.pool}, periods of {PERIOD}; Python {platform.python_version()}\n"
    )
    print("| system | 2-player games/s | 3-player games/s | 3-player via replay, games/s |")
    print("|---|---|---|---|")
    two = make_games(args.games, 2, 1, args.pool)
    three = make_games(args.games, 3, 2, args.pool)
    for name, make in systems:
        rate_two = args.games / timed(lambda make=make: bare(make(), two))
        rate_three = args.games / timed(lambda make=make: bare(make(), three))
        rate_replay = args.games / timed(lambda make=make: with_replay(make(), three))
        print(f"| {name} | {rate_two:,.0f} | {rate_three:,.0f} | {rate_replay:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
