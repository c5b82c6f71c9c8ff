"""Throughput of the bare rating maths: games per second for each system on two- and
three-player games, rated in periods of 40 games within a pool of players (2,000 by
default; Glicko-2 grows the deviation of every idle player each period, so its cost
per period includes the whole pool). No parsing, no database. ``replay`` adds the skipping/bookkeeping layer the jobs use.

A second table times the Plackett-Luce update alone, on the same games ranked by pieces
out: the ``openskill`` package's ``PlackettLuce.rate`` (with the rating objects a caller
must build for it) against our bit-identical copy, ``ratings.systems.plackett_luce``.

Run from the repository root: .venv/bin/python -m bench.ratings_maths [--games N]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce  # noqa: E402

from ratings.replay import replay  # noqa: E402
from ratings.systems import (  # noqa: E402
    Elo,
    Glicko2,
    Glicko2Params,
    OpenSkillParams,
    OpenSkillPL,
    RatedGame,
    plackett_luce,
)
from ratings.systems.base import RatingSystem  # noqa: E402
from ratings.systems.openskill_pl import competition_ranks  # noqa: E402

PERIOD = 40


def make_games(count: int, size: int, seed: int, pool: int = 2000) -> list[list[RatedGame]]:
    rng = random.Random(seed)
    names = [f"p{n:04d}" for n in range(pool)]
    games = []
    for _ in range(count):
        seats = tuple(rng.sample(names, size))
        out = [rng.randint(0, 3) for _ in seats]
        out[rng.randrange(size)] = 3
        games.append(RatedGame(seats, tuple(out)))
    return [games[i : i + PERIOD] for i in range(0, count, PERIOD)]


def bare(system: RatingSystem[Any], periods: list[list[RatedGame]]) -> None:
    states: dict[str, Any] = {}
    for games in periods:
        states = system.rate_period(states, games).states


def with_replay(system: RatingSystem[Any], periods: list[list[RatedGame]]) -> None:
    replay(system, {}, periods)


Update = Callable[[list[list[plackett_luce.Rating]], list[float]], list[list[plackett_luce.Rating]]]


def package_update() -> Update:
    package = PlackettLuce()

    def update(
        teams: list[list[plackett_luce.Rating]], ranks: list[float]
    ) -> list[list[plackett_luce.Rating]]:
        objects = [[package.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
        rated = package.rate(objects, ranks=ranks)
        return [[(rating.mu, rating.sigma) for rating in team] for team in rated]

    return update


def our_update() -> Update:
    model = plackett_luce.Model()
    return lambda teams, ranks: plackett_luce.rate(model, teams, ranks)


def updates_only(update: Update, periods: list[list[RatedGame]]) -> dict[str, plackett_luce.Rating]:
    """Each game's players, one per side, rated by their pieces out and written back."""
    start = (25.0, 25.0 / 3.0)
    ratings: dict[str, plackett_luce.Rating] = {}
    for games in periods:
        for game in games:
            assert game.out is not None
            teams = [[ratings.get(player, start)] for player in game.seats]
            rated = update(teams, competition_ranks(game.out))
            for player, (rating,) in zip(game.seats, rated, strict=True):
                ratings[player] = rating
    return ratings


def timed(run: Callable[[], object], repeats: int = 3) -> float:
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
    print("\n| Plackett-Luce update alone | 2-player games/s | 3-player games/s |")
    print("|---|---|---|")
    updates = (
        ("openskill package `PlackettLuce.rate`", package_update()),
        ("ours, `plackett_luce.rate`", our_update()),
    )
    for name, update in updates:
        rate_two = args.games / timed(partial(updates_only, update, two))
        rate_three = args.games / timed(partial(updates_only, update, three))
        print(f"| {name} | {rate_two:,.0f} | {rate_three:,.0f} |", flush=True)
    same = all(
        updates_only(updates[0][1], games) == updates_only(updates[1][1], games)
        for games in (two, three)
    )
    print(f"\nSame final ratings, float for float: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
