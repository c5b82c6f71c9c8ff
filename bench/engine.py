"""Benchmark of the Pentagame engine against a plain reference (not a test).

    .venv/bin/python bench/engine.py [--games 30] [--seed 20240501] [--variants all]

1. Builds a fixed corpus of random legal games (seeded, so the same every run): --games
   full games of every variant (2-5 players, teams, inside-out and their combinations).
2. Agreement (skip with --no-check): every corpus game is replayed side by side by the
   engine and by the plain reference of `bench/engine_reference.py` (the state copied
   per move, a fresh breadth-first search for every move); the legal-move sets, the whole
   state and the winners must agree at every ply.
3. Validation: replays the whole corpus from its text records (parsing included, parse
   cache cleared first), with the engine's `replay()` and with the reference, runs
   alternating; plies per second and the ratio. Alternating with them, the shared
   reference of the issue's target (`../shared/reference/pentaref.py`, its `replay`;
   `--shared` names another path) and the engine again, both on the corpus games that
   the shared reference reads (it knows neither the team game inside out nor the
   five-player game inside out): the ratio on the same games. Every one of those games
   is first replayed by both and must agree (legal, plies, finished, seat to move,
   pieces out per seat).
4. Legal-move generation: --positions positions spread over the corpus, every legal
   move of the seat to move: the engine's `legal_codes`, a plain breadth-first search per
   piece over the engine's position (`bfs_legal_codes`), and the reference's
   `ref_legal`; positions per second and the ratios.

Timings are CPU time (`time.process_time`: the machine is shared), the best of --repeat
runs (the medians are printed too), everything on one core in one process. The engine's
move generator and replay loop are their compiled builds when they are current
(games/pentagame/compiled.py; the first lines say which): `AGON_PURE_ENGINE=1` measures
the pure-Python files instead.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import platform
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_reference import (  # noqa: E402
    RefState,
    check_agreement,
    ref_apply,
    ref_legal,
    ref_replay,
    ref_start,
)
from games.pentagame import movegen, playloop  # noqa: E402
from games.pentagame.board import ADJ  # noqa: E402
from games.pentagame.movegen import legal_codes  # noqa: E402
from games.pentagame.notation import parse_move, parse_move_cached  # noqa: E402
from games.pentagame.playout import random_game  # noqa: E402
from games.pentagame.replay import replay  # noqa: E402
from games.pentagame.rules import PLAYABLE_VARIANTS, Position  # noqa: E402

VARIANTS = PLAYABLE_VARIANTS
SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "pentaref.py"


def load_shared(path: Path) -> Any:
    """The shared reference module, as it is (it is measured, never changed)."""
    spec = importlib.util.spec_from_file_location("pentaref", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the shared reference {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["pentaref"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def shared_variant(shared: Any, players: int, variant: str) -> str | None:
    """The shared reference's name of a variant (five players: `five`), or None when it
    does not know the variant."""
    name = "five" if players == 5 and variant == "standard" else variant
    known = shared.VARIANT_PLAYERS.get(name, ())
    return name if players in known else None


def check_shared(
    shared: Any, records: list[dict[str, Any]], theirs_records: list[dict[str, Any]]
) -> int:
    """Replays every record with both (the second list: the same records under the shared
    reference's names of the variants); they must agree. The plies checked."""
    plies = 0
    for rec, their_rec in zip(records, theirs_records, strict=True):
        ours = replay(rec)
        theirs, _ = shared.replay(their_rec)
        got = (theirs["ok"], theirs["plies"], theirs["finished"], theirs["to_move"])
        want = (ours.ok, ours.plies, ours.finished, ours.to_move)
        if got != want or list(theirs["out"]) != list(ours.out):
            raise SystemExit(
                f"the shared reference disagrees on a {rec['players']}-player "
                f"{rec['variant']} game: {theirs} against {ours.to_dict(details=False)}"
            )
        plies += ours.plies
    return plies


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


def time_validation(
    records: list[dict[str, Any]], replay_one: Callable[[dict[str, Any]], int]
) -> tuple[int, float]:
    parse_move_cached.cache_clear()
    gc.collect()
    plies = 0
    start = time.process_time()
    for rec in records:
        plies += replay_one(rec)
    return plies, time.process_time() - start


def engine_replay(rec: dict[str, Any]) -> int:
    res = replay(rec)
    if not res.ok:
        raise SystemExit(f"corpus game is illegal: {res.error}")
    return res.plies


def reference_replay(rec: dict[str, Any]) -> int:
    return ref_replay(rec)[0]


def shared_replay(shared: Any) -> Callable[[dict[str, Any]], int]:
    def run(rec: dict[str, Any]) -> int:
        out, _ = shared.replay(rec)
        if not out["ok"]:
            raise SystemExit(f"the shared reference finds a corpus game illegal: {out}")
        return int(out["plies"])

    return run


def time_generation(positions: list[Any], gen: Callable[[Any], Any]) -> tuple[int, float]:
    moves = 0
    gc.collect()
    start = time.process_time()
    for game in positions:
        moves += len(gen(game))
    return moves, time.process_time() - start


def alternate(
    repeat: int, runs: dict[str, Callable[[], tuple[int, float]]]
) -> dict[str, tuple[int, float, float]]:
    """Each measurement `repeat` times, alternating: (count, fastest, median time)."""
    times: dict[str, list[tuple[int, float]]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            times[name].append(run())
    out = {}
    for name, rs in times.items():
        count, fastest = min(rs, key=lambda r: r[1])
        out[name] = (count, fastest, statistics.median(t for _, t in rs))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per variant")
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument(
        "--variants",
        default="all",
        help="`all`, or players:variant,... (e.g. 2:standard,4:teams+inside-out)",
    )
    ap.add_argument("--max-plies", type=int, default=3000)
    ap.add_argument(
        "--positions", type=int, default=20_000, help="corpus positions for move generation"
    )
    ap.add_argument("--repeat", type=int, default=3, help="timings are the best of this many")
    ap.add_argument("--no-check", action="store_true", help="skip the agreement check")
    ap.add_argument(
        "--shared", type=Path, default=SHARED, help="the shared reference (pentaref.py)"
    )
    args = ap.parse_args()
    shared = load_shared(args.shared)
    if args.variants == "all":
        variants = list(VARIANTS)
    else:
        variants = [(int(p), v) for p, v in (x.split(":") for x in args.variants.split(","))]

    t0 = time.perf_counter()
    records: list[dict[str, Any]] = []
    for players, variant in variants:
        for i in range(args.games):
            played = random_game(players, variant, args.seed + i, args.max_plies)
            records.append({"players": players, "variant": variant, "moves": played})
    build = time.perf_counter() - t0
    total_plies = sum(len(r["moves"]) for r in records)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, CPU time")
    form = "compiled (Cython build of movegen.py)" if movegen._COMPILED else "pure Python"
    print(f"move generator: {form}")
    form = "compiled (Cython build of playloop.py)" if playloop._COMPILED else "pure Python"
    print(f"replay loop: {form}")
    print(
        f"corpus: {len(records)} random legal games ({args.games} of each of "
        f"{len(variants)} variants), seed {args.seed}: {total_plies} plies "
        f"(mean {total_plies / len(records):.0f}), built in {build:.1f} s"
    )
    if not args.no_check:
        t0 = time.perf_counter()
        checked = sum(check_agreement(rec) for rec in records)
        print(
            f"agreement with the reference: {checked} plies, legal-move sets, states and "
            f"winners equal at every ply ({time.perf_counter() - t0:.1f} s)"
        )

    # The corpus games the shared reference reads, under its names of the variants.
    common = [
        {**rec, "variant": name}
        for rec in records
        if (name := shared_variant(shared, rec["players"], rec["variant"])) is not None
    ]
    ours_common = [rec for rec in records if shared_variant(shared, rec["players"], rec["variant"])]
    common_plies = sum(len(r["moves"]) for r in common)
    t0 = time.perf_counter()
    checked = check_shared(shared, ours_common, common)
    print(
        f"shared reference ({args.shared}): {len(common)} of the games "
        f"({common_plies} plies), every one replayed alike by both ({checked} plies; "
        f"{time.perf_counter() - t0:.1f} s)"
    )

    share = shared_replay(shared)
    val = alternate(
        args.repeat,
        {
            "engine": lambda: time_validation(records, engine_replay),
            "reference": lambda: time_validation(records, reference_replay),
            "engine (shared games)": lambda: time_validation(ours_common, engine_replay),
            "shared": lambda: time_validation(common, share),
        },
    )
    assert val["engine"][0] == val["reference"][0] == total_plies
    assert val["engine (shared games)"][0] == val["shared"][0] == common_plies

    # Positions spread evenly over the corpus (before each ply), as working copies for
    # the engine and as states for the reference.
    step = max(1, total_plies // args.positions)
    positions: list[Position] = []
    ref_positions: list[RefState] = []
    k = 0
    for rec in records:
        game = Position.start(rec["players"], rec["variant"])
        st = ref_start(rec["players"], rec["variant"])
        for text in rec["moves"]:
            if k % step == 0 and len(positions) < args.positions:
                positions.append(Position(game.state()))
                ref_positions.append(st)
            move = parse_move(text)
            game.apply(move)
            st = ref_apply(st, move)
            k += 1

    gc.freeze()  # the stored positions are long-lived: keep them out of collections
    gen = alternate(
        args.repeat,
        {
            "engine": lambda: time_generation(positions, legal_codes),
            "plain BFS": lambda: time_generation(positions, bfs_legal_codes),
            "reference": lambda: time_generation(ref_positions, ref_legal),
        },
    )
    n = len(positions)
    rate = {name: total_plies / t for name, (_, t, _) in val.items()}
    med = {name: total_plies / m for name, (_, _, m) in val.items()}
    grate = {name: n / t for name, (_, t, _) in gen.items()}
    gmed = {name: n / m for name, (_, _, m) in gen.items()}
    moves = gen["engine"][0]
    print(f"positions for move generation: {n} ({moves / n:.0f} moves each)")
    print()
    print(f"{'measure':<30}{'engine':>12}{'plain BFS':>12}{'reference':>12}{'ratio':>14}")
    print(
        f"{'validate (plies/s)':<30}{rate['engine']:>12,.0f}{'':>12}{rate['reference']:>12,.0f}"
        f"{rate['engine'] / rate['reference']:>13.2f}x"
    )
    print(
        f"{'  median of runs':<30}{med['engine']:>12,.0f}{'':>12}{med['reference']:>12,.0f}"
        f"{med['engine'] / med['reference']:>13.2f}x"
    )
    # On the shared reference's games: the same games for both, in the same runs.
    shared_rate = {name: common_plies / t for name, (_, t, _) in val.items()}
    shared_med = {name: common_plies / m for name, (_, _, m) in val.items()}
    mine = "engine (shared games)"
    print(
        f"{'validate, shared ref. games':<30}{shared_rate[mine]:>12,.0f}{'':>12}"
        f"{shared_rate['shared']:>12,.0f}{shared_rate[mine] / shared_rate['shared']:>13.2f}x"
    )
    print(
        f"{'  median of runs':<30}{shared_med[mine]:>12,.0f}{'':>12}"
        f"{shared_med['shared']:>12,.0f}{shared_med[mine] / shared_med['shared']:>13.2f}x"
    )
    print(
        f"{'legal moves (positions/s)':<30}{grate['engine']:>12,.0f}{grate['plain BFS']:>12,.0f}"
        f"{grate['reference']:>12,.0f}"
        f"{grate['engine'] / grate['plain BFS']:>6.2f}x/{grate['engine'] / grate['reference']:.2f}x"
    )
    print(
        f"{'  median of runs':<30}{gmed['engine']:>12,.0f}{gmed['plain BFS']:>12,.0f}"
        f"{gmed['reference']:>12,.0f}"
        f"{gmed['engine'] / gmed['plain BFS']:>6.2f}x/{gmed['engine'] / gmed['reference']:.2f}x"
    )
    print(
        f"(best of {args.repeat} alternating runs; validate: the reference is "
        "bench/engine_reference.py, on the shared reference's games pentaref.py; "
        "legal-move ratios: vs plain BFS/vs reference)"
    )


if __name__ == "__main__":
    main()
