"""Benchmark of the pairing core and the pure standings (issue 4, "Speed").

Run from the project root::

    .venv/bin/python bench/pairing.py            # 100, 1,000 and 4,000 players
    .venv/bin/python bench/pairing.py --quick    # 100 and 1,000, no dense anchor
    .venv/bin/python bench/pairing.py --process 1000,4000,20000 --bbp PATH/bbpPairings.exe

``--process`` times instead the whole command ``python -m tournaments.pairing`` (CPU of
the process: start-up, imports, JSON, pairing; the median of ``--repeat`` runs, as run
here and with the compiled modules cached) on the round-6 fields of the sizes given,
against bbpPairings' Burstein system (``--bbp``, a binary built from its source: no
registry ships it) pairing the same field written as a TRF file, in the same run,
alternating, beside the bare interpreter's start; ``--baseline DIR`` alternates with a
copy of an earlier ``tournaments/`` in DIR too.

Pairs round 6 of simulated tournaments (5 rounds played with the engine's default, the
book's method) for every policy, with both pairing methods on the same field: the book's
top-down rule and "closest scores" (the old default) side by side, each with its
quality (rematches, score gaps at the tables, tables where the top player did not get
the next one down she had not met). Times networkx's dense blossom on the 1,000-player
field as an anchor, and the standings of a 1,000-player, 9-round tournament. Prints
tables; not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # type: ignore[import-untyped]  # noqa: E402

from tournaments.pairing import Method, Pairing, Policy, pair_round  # noqa: E402
from tournaments.pairing.simulate import SimulatedTournament, simulate  # noqa: E402
from tournaments.standings.table import (  # noqa: E402
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
)

TARGETS: dict[Method, dict[int, float]] = {
    "book": {100: 0.1, 1000: 1.0, 4000: 30.0},
    "closest": {100: 0.1, 1000: 2.0, 4000: 30.0},
}


def best_of(repeats: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def round_six(
    state: SimulatedTournament,
    policy: Policy,
    window: int | None = None,
    method: Method = "book",
) -> Pairing:
    return pair_round(
        state.players,
        state.met,
        (),
        state.had_triple,
        state.had_bye,
        policy,
        window=window,
        method=method,
    )


def quality(state: SimulatedTournament, pairing: Pairing) -> tuple[float, float, int]:
    """Mean and largest score gap within a table (top minus bottom score), and the
    number of 2-player tables whose top player did not get the next one down (among
    those not yet seated, and not at a 3-player table or on the bye) whom she had not
    met: the book's rule, read greedily."""
    score = {p.id: p.score for p in state.players}
    gaps = [max(score[s] for s in t.seats) - min(score[s] for s in t.seats) for t in pairing.tables]
    ranked = sorted(state.players, key=lambda p: (-p.score, p.seed, p.id))
    rank = {p.id: i for i, p in enumerate(ranked)}
    met = {frozenset((m.a, m.b)) for m in state.met}
    # The 3-player tables and the bye are placed by their own rule, before the pairs.
    taken = {s for t in pairing.tables if len(t.seats) == 3 for s in t.seats}
    if pairing.bye is not None:
        taken.add(pairing.bye)
    off = 0
    for table in sorted(pairing.tables, key=lambda t: min(rank[s] for s in t.seats)):
        seats = sorted(table.seats, key=rank.__getitem__)
        if len(seats) == 2:
            top = seats[0]
            nxt = next(
                (
                    p.id
                    for p in ranked[rank[top] + 1 :]
                    if p.id not in taken and frozenset((top, p.id)) not in met
                ),
                None,
            )
            off += nxt != seats[1]
        taken.update(seats)
    return sum(gaps) / max(len(gaps), 1), max(gaps, default=0.0), off


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


ROOT = Path(__file__).resolve().parents[1]


def request_json(state: SimulatedTournament, policy: Policy) -> str:
    """The round-6 field as ``python -m tournaments.pairing`` reads it."""
    return json.dumps(
        {
            "policy": policy,
            "players": [
                {"id": p.id, "score": p.score, "seed": p.seed, "starts": p.starts}
                for p in state.players
            ],
            "met": [[m.a, m.b, m.round] for m in state.met],
            "had_triple": sorted(state.had_triple),
            "had_bye": sorted(state.had_bye),
        }
    )


def trf(state: SimulatedTournament, seed: int = 6) -> str:
    """The same field for bbpPairings (TRF-2006): rounds 1-5, every 2-player table a game
    (seat 0 white), results drawn with a fixed seed (the pairing's work is the field's
    size and history, not who won). Only fields without 3-player tables (even sizes)."""
    rng = random.Random(seed)
    number = {p.id: i + 1 for i, p in enumerate(state.players)}
    games: dict[int, list[str]] = {i: [] for i in number.values()}
    points = dict.fromkeys(number.values(), 0.0)
    value = {"1": 1.0, "0": 0.0, "=": 0.5}
    for pairing in state.rounds:
        for table in pairing.tables:
            if len(table.seats) != 2 or pairing.bye is not None:
                raise ValueError("bbpPairings pairs 2-player games only")
            a, b = number[table.seats[0]], number[table.seats[1]]
            ra = rng.choice("10=")
            rb = {"1": "0", "0": "1", "=": "="}[ra]
            games[a].append(f"  {b:4d} w {ra}")
            games[b].append(f"  {a:4d} b {rb}")
            points[a] += value[ra]
            points[b] += value[rb]
    lines = ["012 Agon pairing benchmark", f"XXR {len(state.rounds) + 1}"]
    for i in sorted(games):
        head = f"001 {i:4d} {'':4} {f'Player{i:05d}':33} {2000:4d} {'':3} {'':11} {'':10}"
        lines.append(f"{head} {points[i]:4.1f} {i:4d}" + "".join(games[i]))
    return "\n".join(lines) + "\n"


def process_cpu(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """User + system CPU seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cached_env(tmp: str) -> dict[str, str]:
    """The environment with the compiled modules kept between runs (in ``tmp``, not the
    tree), as any Python that may write its ``__pycache__`` runs a command the second
    time; this machine sets PYTHONDONTWRITEBYTECODE, which makes every run compile the
    pairing's source again."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def spread(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} s ({min(times):.3f}–{max(times):.3f})"


def whole_process(sizes: list[int], repeat: int, bbp: str | None, baseline: str | None) -> None:
    """``python -m tournaments.pairing`` on round 6 of a simulated ``pairs+triple`` Swiss
    (5 rounds played by the book's method): CPU of the whole process (start-up, imports,
    JSON, pairing), median and range of ``repeat`` runs, alternating: as this machine
    runs it, with the compiled modules cached, the bare interpreter (``python -c pass``,
    the floor), bbpPairings --burstein (once at 4,000 players and up: about two minutes
    there) and the baseline tree if given. The ratio is of the medians."""
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S')}  load {os.getloadavg()}")
    bytecode = (
        "not written (PYTHONDONTWRITEBYTECODE)" if sys.flags.dont_write_bytecode else "written"
    )
    print(f"# Python {platform.python_version()}, bytecode {bytecode}; {repeat} runs each")
    print()
    print(
        "| players | command, CPU of the process, median (range) | per player "
        "| bytecode cached | Burstein (bbpPairings) | ratio |"
    )
    print("|---|---|---|---|---|---|")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    per_player: dict[int, float] = {}
    bare: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        cached = cached_env(tmp)
        for n in sizes:
            state = simulate(n, 5, policy="pairs+triple", seed=n)
            field = Path(tmp) / f"field{n}.json"
            field.write_text(request_json(state, "pairs+triple"))
            trf_file = Path(tmp) / f"field{n}.trf"
            use_bbp = bbp is not None and n % 2 == 0 and n <= 9999  # TRF: 4-digit ids
            if use_bbp:
                trf_file.write_text(trf(state))
            ours: list[float] = []
            warm: list[float] = []
            base: list[float] = []
            burstein: list[float] = []
            command = [sys.executable, "-m", "tournaments.pairing", str(field)]
            process_cpu(command, ROOT, cached)  # fills the cache
            for run in range(repeat):
                ours.append(process_cpu(command, ROOT))
                warm.append(process_cpu(command, ROOT, cached))
                bare.append(process_cpu([sys.executable, "-c", "pass"], ROOT))
                if baseline is not None:
                    base.append(process_cpu(command, Path(baseline), env))
                if use_bbp and bbp is not None and (n < 4000 or run == 0):
                    out = Path(tmp) / "bbp.out"
                    burstein.append(
                        process_cpu([bbp, "--burstein", str(trf_file), "-p", str(out)], ROOT)
                    )
            middle = statistics.median(ours)
            per_player[n] = middle / n
            anchor = statistics.median(burstein) if burstein else None
            was = ""
            if base:
                was = f" (baseline {spread(base)}, {statistics.median(base) / middle:.1f}×)"
            print(
                f"| {n:,} | {spread(ours)}{was} | {1e6 * middle / n:.1f} µs | {spread(warm)} "
                f"| {'' if anchor is None else spread(burstein)} "
                f"| {'' if anchor is None else f'{middle / anchor:.4f}'} |",
                flush=True,
            )
    print()
    print(f"the interpreter alone (python -c pass): {spread(bare)}  load {os.getloadavg()}")
    if len(per_player) > 1:
        small, big = min(per_player), max(per_player)
        print(
            f"per-player cost at {big:,} / at {small:,}: {per_player[big] / per_player[small]:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--process", help="sizes, e.g. 1000,4000,20000: whole command only")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bbp", help="path of a bbpPairings executable (the anchor)")
    parser.add_argument("--baseline", help="a directory holding an earlier tournaments/")
    args = parser.parse_args()
    if args.process:
        sizes = [int(x) for x in args.process.split(",")]
        whole_process(sizes, args.repeat, args.bbp, args.baseline)
        return
    sizes = [100, 1000] if args.quick else [100, 1000, 4000]
    print(
        f"# {time.strftime('%Y-%m-%d')}  Python {platform.python_version()}  {platform.platform()}"
    )
    print()
    print(
        "| players | policy | method | simulate rounds 1-5 | pair round 6 | target "
        "| tables | rematches | mean / max score gap | not the next one down |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
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
            methods: tuple[Method, ...] = ("book", "closest")
            for method in methods:

                def work(
                    state: SimulatedTournament = state,
                    policy: Policy = policy,
                    method: Method = method,
                ) -> Pairing:
                    return round_six(state, policy, method=method)

                elapsed = best_of(repeats, work)
                pairing = work()
                mean_gap, max_gap, off = quality(state, pairing)
                sizes_seen = sorted({len(t.seats) for t in pairing.tables})
                print(
                    f"| {len(state.players):,} | {policy} | {method} | {setup:.2f} s "
                    f"| {elapsed:.3f} s | ≤ {TARGETS[method][n]} s "
                    f"| {len(pairing.tables)} of sizes {sizes_seen}"
                    f"{' + bye' if pairing.bye else ''} | {pairing.rematches} "
                    f"| {mean_gap:.1f} / {max_gap:.1f} | {off} |",
                    flush=True,
                )
    # CPU time in one process (the wall clock above moves with the machine's load), on
    # fields whose rounds 1-5 were paired by each method.
    print()
    print("| 1,000 players, round 6, CPU time (best of 3) | book | closest |")
    print("|---|---|---|")
    histories: tuple[Method, ...] = ("book", "closest")
    for history in histories:
        state = simulate(1000, 5, seed=1000, method=history)
        cpu = {}
        for method in histories:
            best = float("inf")
            for _ in range(3):
                start = time.process_time()
                round_six(state, "pairs+triple", method=method)
                best = min(best, time.process_time() - start)
            cpu[method] = best
        print(f"| rounds 1-5 paired by {history} | {cpu['book']:.3f} s | {cpu['closest']:.3f} s |")
    if 1000 in fields and not args.quick:
        state = fields[1000]
        dense = best_of(1, lambda: dense_swiss_anchor(state))
        sliding = best_of(3, lambda: round_six(state, "pairs+triple", method="closest"))
        book = best_of(3, lambda: round_six(state, "pairs+triple"))
        print()
        print("| anchor, same 1,000-player round-6 field | time | ratio |")
        print("|---|---|---|")
        print(
            f"| networkx dense blossom, score-gap weights, no rematch edges | {dense:.2f} s | 1 |"
        )
        print(
            f"| pair_round closest, sliding window, all criteria | {sliding:.3f} s "
            f"| {dense / sliding:.0f}× faster |"
        )
        print(f"| pair_round book, top-down search | {book:.3f} s | {dense / book:.0f}× faster |")
    players, rounds = standings_input(1000, 9)
    elapsed = best_of(3, lambda: compute_standings(players, rounds))
    print()
    print("| standings | time | target |")
    print("|---|---|---|")
    print(f"| 1,000 players × 9 rounds, all five tie-breaks | {elapsed:.3f} s | ≤ 0.5 s |")


if __name__ == "__main__":
    main()
