"""Benchmark of the Pentagame engine (not a test).

    .venv/bin/python bench/engine.py [--games 1000] [--seed 20240501] [--players 2]

1. Builds a fixed corpus of random legal games (seeded, so the same every run).
2. Validation: replays the whole corpus from its text records (parsing included, parse
   cache cleared first) and reports plies per second.
3. Legal-move generation: the first --positions positions of the corpus,
   all legal moves of the seat to move (as the engine's int move codes), positions per
   second. Timings are the best of --repeat runs (the medians are printed too).
4. The same two measurements with a plain breadth-first search (a deque and a set over
   the adjacency lists) in place of the engine's bit-mask path search, and the ratio.

Everything runs on one core in one process.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.pentagame import rules as rules_module  # noqa: E402
from games.pentagame.board import ADJ  # noqa: E402
from games.pentagame.movegen import legal_codes  # noqa: E402
from games.pentagame.notation import _parse_move, parse_move  # noqa: E402
from games.pentagame.playout import random_game  # noqa: E402
from games.pentagame.replay import replay  # noqa: E402
from games.pentagame.rules import Position  # noqa: E402


def bfs_reaches(frm: int, to: int, occ: int) -> bool:
    """Plain BFS: can a piece on frm end on to, passing only through empty stops?"""
    if frm == to:
        return False
    seen = {frm}
    queue = deque([frm])
    while queue:
        s = queue.popleft()
        for t in ADJ[s]:
            if t in seen:
                continue
            if t == to:
                return True
            seen.add(t)
            if not (occ >> t) & 1:
                queue.append(t)
    return False


def bfs_targets(frm: int, occ: int) -> list[int]:
    seen = {frm}
    out = []
    queue = deque([frm])
    while queue:
        s = queue.popleft()
        for t in ADJ[s]:
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            if not (occ >> t) & 1:
                queue.append(t)
    return out


def bfs_legal_codes(game: Position) -> list[int]:
    """The same move list as legal_codes for ordinary positions, by plain BFS per piece."""
    r = game.rules
    seat = game.seat
    waiting = [p for p in r.seat_pieces[seat] if game.pos[p] == r.goal[p]]
    if waiting:
        return [127 | game.pos[p] << 7 | p << 14 for p in waiting]
    last = game.last[seat]
    codes: list[int] = []
    for p in r.seat_pieces[seat]:
        frm = game.pos[p]
        if frm < 0:
            continue
        base = frm << 7 | p << 14
        for t in bfs_targets(frm, game.occ):
            if last is not None and last == (p, frm, t):
                continue
            codes.append(base | t)
    return codes


@contextmanager
def plain_bfs() -> Iterator[None]:
    original = getattr(rules_module, "reaches")  # noqa: B009
    setattr(rules_module, "reaches", bfs_reaches)  # noqa: B010
    try:
        yield
    finally:
        setattr(rules_module, "reaches", original)  # noqa: B010


def time_validation(records: list[dict[str, Any]]) -> tuple[int, float]:
    _parse_move.cache_clear()
    gc.collect()
    plies = 0
    start = time.perf_counter()
    for rec in records:
        res = replay(rec)
        if not res.ok:
            raise SystemExit(f"corpus game is illegal: {res.error}")
        plies += res.plies
    return plies, time.perf_counter() - start


def time_generation(
    positions: list[Position], gen: Callable[[Position], list[int]]
) -> tuple[int, float]:
    moves = 0
    gc.collect()
    start = time.perf_counter()
    for game in positions:
        moves += len(gen(game))
    return moves, time.perf_counter() - start


def best(repeat: int, run: Callable[[], tuple[int, float]]) -> tuple[int, float, float]:
    """The fastest of several runs (the machine is shared; the minimum is the least noisy)
    and the median time of the runs."""
    runs = [run() for _ in range(repeat)]
    count, fastest = min(runs, key=lambda r: r[1])
    return count, fastest, statistics.median(t for _, t in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--max-plies", type=int, default=3000)
    ap.add_argument(
        "--positions", type=int, default=50_000, help="corpus positions for move generation"
    )
    ap.add_argument("--repeat", type=int, default=3, help="timings are the best of this many")
    args = ap.parse_args()

    t0 = time.perf_counter()
    records: list[dict[str, Any]] = []
    for i in range(args.games):
        played = random_game(args.players, args.variant, args.seed + i, args.max_plies)
        records.append({"players": args.players, "variant": args.variant, "moves": played})
    build = time.perf_counter() - t0
    total_plies = sum(len(r["moves"]) for r in records)

    plies, t_val, med_val = best(args.repeat, lambda: time_validation(records))
    with plain_bfs():
        plies_b, t_val_b, med_val_b = best(args.repeat, lambda: time_validation(records))
    # Every position of the corpus (before each ply), as ready-made working copies.
    positions: list[Position] = []
    for rec in records:
        game = Position.start(args.players, args.variant)
        for text in rec["moves"]:
            positions.append(Position(game.state()))
            game.apply(parse_move(text))
            if len(positions) >= args.positions:
                break
        if len(positions) >= args.positions:
            break

    gc.freeze()  # the stored positions are long-lived: keep them out of collections
    moves, t_gen, med_gen = best(args.repeat, lambda: time_generation(positions, legal_codes))
    moves_b, t_gen_b, med_gen_b = best(
        args.repeat, lambda: time_generation(positions, bfs_legal_codes)
    )
    assert plies == plies_b == total_plies

    rate_val, rate_val_b = plies / t_val, plies_b / t_val_b
    rate_gen, rate_gen_b = len(positions) / t_gen, len(positions) / t_gen_b
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    print(
        f"corpus: {args.games} random legal games, {args.players} players, {args.variant}, "
        f"seed {args.seed}: {total_plies} plies "
        f"(mean {total_plies / args.games:.0f}), built in {build:.1f} s"
    )
    print(
        f"positions for move generation: {len(positions)} ({moves / len(positions):.0f} moves each)"
    )
    print()
    print(f"{'measure':<34}{'engine':>14}{'plain BFS':>14}{'ratio':>8}")
    print(
        f"{'validate (plies/s)':<34}{rate_val:>14,.0f}{rate_val_b:>14,.0f}{rate_val / rate_val_b:>8.2f}"
    )
    print(
        f"{'legal moves (positions/s)':<34}{rate_gen:>14,.0f}{rate_gen_b:>14,.0f}"
        f"{rate_gen / rate_gen_b:>8.2f}"
    )
    print(f"{'legal moves (moves/s)':<34}{moves / t_gen:>14,.0f}{moves_b / t_gen_b:>14,.0f}")
    print(f"(best of {args.repeat} runs; medians of the runs follow)")
    print(
        f"{'validate, median (plies/s)':<34}{plies / med_val:>14,.0f}{plies_b / med_val_b:>14,.0f}"
    )
    print(
        f"{'legal moves, median (positions/s)':<34}{len(positions) / med_gen:>14,.0f}"
        f"{len(positions) / med_gen_b:>14,.0f}"
    )
    if moves != moves_b:
        print(f"(move counts differ: engine {moves}, BFS {moves_b}; shared-corner choices)")


if __name__ == "__main__":
    main()
