"""Benchmark of the browser's Pentagame engine in Node beside the Python engine (not a test).

    .venv/bin/python bench/engine_js.py [--games 10] [--seed 20240501] [--repeat 3]

1. Builds a fixed corpus of random legal games (seeded, the same every run): --games
   full games of each playable variant.
2. Times, on the Python engine in this process and on games/static/games/pentagame.js
   in one Node process (bench/engine_js.mjs), the same work:
   - replay: every corpus record replayed from its text (parsing included): plies/s;
   - legal moves: --positions positions spread over the corpus, every legal move of the
     seat to move, in the engines' int form (`legal_codes`, `legalCodes`) and as Move
     objects (`legal_moves`, `legalMoves`): positions/s;
   - board payload: --payloads positions, the position and the legal entries with the
     stops offered for the blocks, what the board page needs after each ply
     (games/pictures/pentagame.py `_position` and `_legal`, `positionJSON` and
     `legalEntries`): positions/s.

Timings are CPU time of each process (the machine is shared), the best of --repeat runs
(medians are printed too). Node must be on PATH.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.pentagame.movegen import legal_codes, legal_moves  # noqa: E402
from games.pentagame.notation import parse_move, parse_move_cached  # noqa: E402
from games.pentagame.playout import random_game  # noqa: E402
from games.pentagame.replay import replay  # noqa: E402
from games.pentagame.rules import PLAYABLE_VARIANTS, Position  # noqa: E402
from games.pictures.pentagame import _legal, _position  # noqa: E402

Timing = tuple[int, float, float]  # count, fastest, median (seconds)


def timed(repeat: int, run: Callable[[], int]) -> Timing:
    times = []
    count = 0
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        count = run()
        times.append(time.process_time() - start)
    return count, min(times), statistics.median(times)


def spread(records: list[dict[str, Any]], limit: int) -> list[Position]:
    """Positions spread evenly over the corpus, before each ply (as bench/engine.py)."""
    total = sum(len(r["moves"]) for r in records)
    step = max(1, total // limit)
    out: list[Position] = []
    k = 0
    for rec in records:
        game = Position.start(rec["players"], rec["variant"])
        for text in rec["moves"]:
            if k % step == 0 and len(out) < limit:
                out.append(Position(game.state()))
            game.apply(parse_move(text))
            k += 1
    return out


def python_timings(
    records: list[dict[str, Any]], positions: int, payloads: int, repeat: int
) -> dict[str, Timing]:
    def replay_all() -> int:
        parse_move_cached.cache_clear()  # a page replays a record once: no warm parse cache
        plies = 0
        for rec in records:
            res = replay(rec)
            if not res.ok:
                raise SystemExit(f"corpus game is illegal: {res.error}")
            plies += res.plies
        return plies

    def payload_all() -> int:
        moves = 0
        for game in boards:
            state = game.state()
            _position(state)
            moves += len(_legal(state))
        return moves

    games = spread(records, positions)
    boards = spread(records, payloads)
    return {
        "replay": timed(repeat, replay_all),
        "codes": timed(repeat, lambda: sum(len(legal_codes(g)) for g in games)),
        "moves": timed(repeat, lambda: sum(len(legal_moves(g)) for g in games)),
        "payload": timed(repeat, payload_all),
        "positions": (len(games), 0.0, 0.0),
        "payload_positions": (len(boards), 0.0, 0.0),
    }


def node_timings(
    node: str, records: list[dict[str, Any]], positions: int, payloads: int, repeat: int
) -> dict[str, Any]:
    request = {"records": records, "positions": positions, "payloads": payloads, "repeat": repeat}
    proc = subprocess.run(
        [node, str(ROOT / "bench" / "engine_js.mjs")],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        raise SystemExit(f"the Node half failed: {proc.stderr}")
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="games per variant")
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--max-plies", type=int, default=3000)
    ap.add_argument("--positions", type=int, default=10_000, help="positions for legal moves")
    ap.add_argument("--payloads", type=int, default=500, help="positions for the board payload")
    ap.add_argument("--repeat", type=int, default=3, help="timings are the best of this many")
    args = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not on PATH")

    records = [
        {"players": p, "variant": v, "moves": random_game(p, v, args.seed + i, args.max_plies)}
        for p, v in PLAYABLE_VARIANTS
        for i in range(args.games)
    ]
    total = sum(len(r["moves"]) for r in records)
    js = node_timings(node, records, args.positions, args.payloads, args.repeat)
    py = python_timings(records, args.positions, args.payloads, args.repeat)
    assert py["replay"][0] == js["replay"]["count"] == total
    assert py["codes"][0] == js["codes"]["count"], "the engines list different move counts"
    assert py["payload"][0] == js["payload"]["count"]

    print(
        f"Python {platform.python_version()}, Node {js['node'].lstrip('v')}, "
        f"{platform.machine()}; CPU time of each process, best of {args.repeat} "
        "(median in brackets)"
    )
    print(
        f"corpus: {len(records)} random legal games ({args.games} of each of "
        f"{len(PLAYABLE_VARIANTS)} variants), seed {args.seed}: {total} plies; "
        f"{js['positions']} positions for legal moves ({js['codes']['count'] / js['positions']:.0f} "
        f"moves each), {js['payload_positions']} for the board payload"
    )
    print()
    rows = [
        ("replay (plies/s)", "replay", total),
        ("legal moves, int codes (pos/s)", "codes", js["positions"]),
        ("legal moves, Move objects (pos/s)", "moves", js["positions"]),
        ("board payload (pos/s)", "payload", js["payload_positions"]),
    ]
    print(f"{'measure':<36}{'Python':>18}{'JS (Node)':>18}{'JS/Python':>11}")
    for label, key, n in rows:
        _, p_best, p_med = py[key]
        j_best, j_med = js[key]["best"], js[key]["median"]
        python = f"{n / p_best:,.0f} ({n / p_med:,.0f})"
        script = f"{n / j_best:,.0f} ({n / j_med:,.0f})"
        print(f"{label:<36}{python:>18}{script:>18}{p_best / j_best:>10.1f}x")


if __name__ == "__main__":
    main()
