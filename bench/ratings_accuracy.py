"""How well each rating system recovers hidden strengths and predicts unseen games.

A simulated population (bench/ratings_sim.py) plays club evenings and Swiss
tournaments with mixed two- and three-player tables, with or without a seat-order
effect. After 10, 50 and 200 games per player we report, for each system:

- Spearman's rank correlation between the ratings and the hidden strengths;
- the mean pairwise log-loss on held-out games played at that moment (which no system
  rates): "result" scores who came out ahead (1, 1/2, 0), "share" the pairwise dropped
  score share that Glicko-2 and Elo are trained on. Lower is better; log 2 = 0.693 is
  a coin toss.

The seat term's size is estimated (ratings/seat_fit.py) on a separate pilot history,
never on the histories it is scored on.

Run from the repository root: .venv/bin/python -m bench.ratings_accuracy [--seeds N]
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ratings_sim import World  # noqa: E402
from ratings.replay import iter_replay  # noqa: E402
from ratings.seat_fit import cross_entropy, estimate_seat_strength  # noqa: E402
from ratings.systems import Elo, EloParams, Glicko2, Glicko2Params, OpenSkillParams, OpenSkillPL  # noqa: E402
from ratings.systems.base import RatedGame, RatingSystem  # noqa: E402
from ratings.systems.decompose import pair_share, result_only, side_out  # noqa: E402

CHECKPOINTS = (10, 50, 200)
HELD_OUT = 1500


@dataclass
class History:
    periods: list[list[RatedGame]]
    marks: dict[int, int]  # checkpoint -> number of periods played before it
    held_out: dict[int, list[RatedGame]]
    theta: dict[int, dict[str, float]]


def simulate(seed: int, gamma: float, last: int = CHECKPOINTS[-1]) -> History:
    world = World(seed, gamma=gamma)
    periods: list[list[RatedGame]] = []
    marks: dict[int, int] = {}
    held: dict[int, list[RatedGame]] = {}
    theta: dict[int, dict[str, float]] = {}
    for checkpoint in CHECKPOINTS:
        if checkpoint > last:
            break
        while world.mean_games() < checkpoint:
            periods.extend(world.next_periods())
        marks[checkpoint] = len(periods)
        held[checkpoint] = world.held_out(HELD_OUT, seed * 1000 + checkpoint)
        theta[checkpoint] = dict(world.theta)
    return History(periods, marks, held, theta)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        start = 0
        while start < len(order):
            end = start
            while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
                end += 1
            for k in range(start, end + 1):
                result[order[k]] = (start + end) / 2.0 + 1.0
            start = end + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy)


def held_out_loss(
    system: RatingSystem[Any], states: dict[str, Any], games: list[RatedGame]
) -> tuple[float, float]:
    result_loss = share_loss = 0.0
    count = 0
    for game in games:
        outs = side_out(game)
        for a in range(len(outs)):
            for b in range(a + 1, len(outs)):
                predicted = system.pairwise_expectation(states, game, a, b)
                share = pair_share(outs[a], outs[b], 3)
                result_loss += cross_entropy(result_only(share), predicted)
                share_loss += cross_entropy(share, predicted)
                count += 1
    return result_loss / count, share_loss / count


def evaluate(system: RatingSystem[Any], history: History) -> dict[int, tuple[float, float, float]]:
    scores: dict[int, tuple[float, float, float]] = {}
    states: dict[str, Any] = {}
    wanted = {mark: checkpoint for checkpoint, mark in history.marks.items()}
    for done, rated in enumerate(iter_replay(system, {}, history.periods), start=1):
        states = rated.states
        if done in wanted:
            checkpoint = wanted[done]
            theta = history.theta[checkpoint]
            names = sorted(theta)
            rho = spearman(
                [(states.get(n) or system.default_state()).rating for n in names],
                [theta[n] for n in names],
            )
            scores[checkpoint] = (rho, *held_out_loss(system, states, history.held_out[checkpoint]))
    return scores


def configurations(seat: float) -> list[tuple[str, Callable[[], RatingSystem[Any]]]]:
    return [
        ("glicko2 tau=0.5", lambda: Glicko2(Glicko2Params(tau=0.5))),
        ("glicko2 tau=0.3", lambda: Glicko2(Glicko2Params(tau=0.3))),
        ("glicko2 tau=1.0", lambda: Glicko2(Glicko2Params(tau=1.0))),
        (
            "glicko2 tau=0.5 result only",
            lambda: Glicko2(Glicko2Params(tau=0.5, score_mapping="result")),
        ),
        (
            f"glicko2 tau=0.5 + seat {seat:.2f}",
            lambda: Glicko2(Glicko2Params(tau=0.5, seat_strength=seat)),
        ),
        ("elo (FIDE K)", lambda: Elo(EloParams())),
        ("openskill PL blend", lambda: OpenSkillPL(OpenSkillParams(margin_mapping="blend"))),
        ("openskill PL rank", lambda: OpenSkillPL(OpenSkillParams(margin_mapping="rank"))),
        (
            "openskill PL margin=1",
            lambda: OpenSkillPL(OpenSkillParams(margin_mapping="margin", margin=1.0)),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    print(
        f"# ratings accuracy, {args.seeds} seeds x 120 players, Python {platform.python_version()}\n"
    )
    for gamma in (0.3, 0.0):
        pilot = simulate(10_000 + int(gamma * 10), gamma, last=50)
        fit = estimate_seat_strength(
            lambda strength: Glicko2(Glicko2Params(tau=0.5, seat_strength=strength)),
            {},
            pilot.periods[: pilot.marks[50]],
        )
        print(f"## true seat effect gamma = {gamma}")
        print(
            f"seat strength fitted on a pilot history of 50 games/player: {fit.strength:.3f} "
            f"(3-player encounter log-loss {fit.log_loss:.4f} vs {fit.log_loss_without:.4f} without, "
            f"{fit.encounters} encounters)\n"
        )
        histories = [simulate(seed, gamma) for seed in range(1, args.seeds + 1)]
        header = (
            "| system | "
            + " | ".join(f"ρ@{c} | LL result@{c} | LL share@{c}" for c in CHECKPOINTS)
            + " |"
        )
        print(header)
        print("|" + "---|" * (1 + 3 * len(CHECKPOINTS)))
        for name, make in configurations(fit.strength):
            per_seed = [evaluate(make(), history) for history in histories]
            cells = []
            for checkpoint in CHECKPOINTS:
                for metric in range(3):
                    mean = sum(scores[checkpoint][metric] for scores in per_seed) / len(per_seed)
                    cells.append(f"{mean:.3f}" if metric == 0 else f"{mean:.4f}")
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
        print()
    print(f"total time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
