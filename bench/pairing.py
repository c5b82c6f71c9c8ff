"""Benchmark of the pairing core and the pure standings (issue 4, "Speed").

Run from the project root::

    .venv/bin/python bench/pairing.py            # 100, 1,000 and 4,000 players
    .venv/bin/python bench/pairing.py --quick    # 100 and 1,000, no dense anchor

Pairs round 6 of simulated tournaments (5 rounds played with the same engine) for every
policy, times networkx's dense blossom on the 1,000-player field as an anchor, and the
standings of a 1,000-player, 9-round tournament. Prints a table; not a test.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # type: ignore[import-untyped]  # noqa: E402

from tournaments.pairing import Pairing, Policy, pair_round  # noqa: E402
from tournaments.pairing.simulate import SimulatedTournament, simulate  # noqa: E402
from tournaments.standings import (  # noqa: E402
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

TARGETS = {100: 0.1, 1000: 2.0, 4000: 30.0}


def best_of(repeats: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def round_six(state: SimulatedTournament, policy: Policy, window: int | None = None) -> Pairing:
    return pair_round(
        state.players,
        state.met,
        (),
        state.had_triple,
        state.had_bye,
        policy,
        window=window,
    )


def dense_swiss_anchor(state: SimulatedTournament) -> int:
    """The plain dense Swiss graph: every pair that has not met, weighted by the score gap
    only (the research notes' 7.4 s figure on a 1,000-player chess field)."""
    met = {frozenset((m.a, m.b)) for m in state.met}
    scores = {p.id: round(2 * p.score) for p in state.players}
    ids = list(scores)
    top = max(scores.values()) - min(scores.values()) + 1
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if frozenset((a, b)) not in met:
                graph.add_edge(a, b, weight=top - abs(scores[a] - scores[b]))
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def standings_input(
    n: int, rounds: int, seed: int = 9
) -> tuple[list[StandingsPlayer], list[RoundResult]]:
    rng = random.Random(seed)
    players = [StandingsPlayer(f"p{i}", rating=rng.uniform(1000, 2000), seed=i) for i in range(n)]
    results: list[RoundResult] = []
    for number in range(1, rounds + 1):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        tables: list[TableResult] = []
        cut = n - 3 * (n % 2)
        for i in range(0, cut, 2):
            games = tuple(GameResult((3, rng.randint(0, 3))) for _ in range(3))
            tables.append(TableResult((ids[i], ids[i + 1]), games))
        if n % 2:
            games = tuple(GameResult((3, rng.randint(0, 3), rng.randint(0, 3))) for _ in range(2))
            tables.append(TableResult(tuple(ids[cut:]), games))
        results.append(RoundResult(number, tuple(tables)))
    return players, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = [100, 1000] if args.quick else [100, 1000, 4000]
    print(
        f"# {time.strftime('%Y-%m-%d')}  Python {platform.python_version()}  {platform.platform()}"
    )
    print()
    print("| players | policy | simulate rounds 1-5 | pair round 6 | target | tables | rematches |")
    print("|---|---|---|---|---|---|---|")
    fields: dict[int, SimulatedTournament] = {}
    for n in sizes:
        runs: list[tuple[Policy, int]] = [
            ("pairs+triple", n),
            ("pairs+triple", n + 1),
            ("prefer-triples", n),
            ("pairs+bye", n + 1),
        ]
        for policy, count in runs:
            start = time.perf_counter()
            state = simulate(count, 5, policy=policy, seed=n)
            setup = time.perf_counter() - start
            if policy == "pairs+triple" and count == n:
                fields[n] = state
            repeats = 5 if n <= 100 else (3 if n <= 1000 else 1)

            def work(state: SimulatedTournament = state, policy: Policy = policy) -> Pairing:
                return round_six(state, policy)

            elapsed = best_of(repeats, work)
            pairing = work()
            sizes_seen = sorted({len(t.seats) for t in pairing.tables})
            print(
                f"| {len(state.players):,} | {policy} | {setup:.2f} s | {elapsed:.3f} s "
                f"| ≤ {TARGETS[n]} s | {len(pairing.tables)} of sizes {sizes_seen}"
                f"{' + bye' if pairing.bye else ''} | {pairing.rematches} |"
            )
    if 1000 in fields:
        state = fields[1000]
        dense = best_of(1, lambda: dense_swiss_anchor(state))
        sliding = best_of(3, lambda: round_six(state, "pairs+triple"))
        print()
        print("| anchor, same 1,000-player round-6 field | time | ratio |")
        print("|---|---|---|")
        print(
            f"| networkx dense blossom, score-gap weights, no rematch edges | {dense:.2f} s | 1 |"
        )
        print(
            f"| pair_round, sliding window, all criteria | {sliding:.3f} s | {dense / sliding:.0f}× faster |"
        )
    players, rounds = standings_input(1000, 9)
    elapsed = best_of(3, lambda: compute_standings(players, rounds))
    print()
    print("| standings | time | target |")
    print("|---|---|---|")
    print(f"| 1,000 players × 9 rounds, all five tie-breaks | {elapsed:.3f} s | ≤ 0.5 s |")


if __name__ == "__main__":
    main()
