"""Full recomputation of a large rating history, end to end through the database.

Builds a synthetic history in a scratch database (SQLite in var/bench-recompute.sqlite3
unless DATABASE_URL is set; `bench/ratings_recompute.sh` starts a private PostgreSQL):
a pool of players who all play every round of a series of 9-round tournaments, at mixed
2- and 3-player tables (2-player tables play 3 games, 3-player tables 2 games, starting
seat and direction varying), every round closed and turned into a rating period.

Then it times, in the same run:
  (a) the bare rating maths: ``ratings.replay.iter_replay`` over the same periods for
      each system, inputs prebuilt in memory;
  (b) ``ratings.rate.ratings_recompute()``: reading the games, rating all three
      systems and writing the history (GameRating, PeriodRating, PlayerRating) back,
      in one transaction;
  (c) the same again over (b)'s history (unless --once): what an organiser's
      "recompute everything" does, the history emptied first;
and prints them, the time per system and the ratio of the slower of (b), (c) to (a). The players' final
states from (b) are checked against (a): every player plays every period, so both
must agree to the bit.

    .venv/bin/python bench/ratings_recompute.py [--games 1000000] [--players 2000]
    .venv/bin/python bench/ratings_recompute.py --games 100000 [--profile FILE]

With ``--pairs N`` it then alternates (a) and the recomputation N times, each over the
previous history, and prints each pair's ratio (wall clock, and CPU time of this
process) and the medians; ``--before DIR`` (a copy of the previous ``ratings/rate.py``
and ``ratings/history_rows.py``, and ``ratings/periods.py`` if it changed) times that code too, in alternating order, and with
``--dump FILE`` checks first that both write the same rows, to the bit. ``--dump`` alone
writes every rating row at the end, to compare runs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROUNDS_PER_TOURNAMENT = 9


def _insert(model: Any, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert rows (values for ``columns``, attribute names such as ``table_id``, ids
    included): COPY on PostgreSQL, ``bulk_create`` elsewhere. Columns not named get
    their model default."""
    from django.db import connection
    from django.utils import timezone

    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            (model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=2000
        )
        return
    from psycopg.types.json import Jsonb

    extra: dict[str, Any] = {}
    now = timezone.now()
    for field in model._meta.concrete_fields:
        if field.attname in columns or field.primary_key:
            continue
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            extra[field.column] = now
        elif field.has_default():
            value = field.get_default()
            extra[field.column] = Jsonb(value) if isinstance(value, dict | list) else value
        elif not field.null:
            raise ValueError(f"{model.__name__}.{field.name} needs a value")
    names = [model._meta.get_field(c.removesuffix("_id")).column for c in columns]
    names += list(extra)
    fixed = tuple(extra.values())
    table = model._meta.db_table
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw.copy(f'COPY "{table}" ({", ".join(names)}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row((*row, *fixed))
        if columns[0] == "id":
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
                f'(SELECT max(id) FROM "{table}"))'
            )


def _next_id(model: Any) -> int:
    from django.db.models import Max

    return (model.objects.aggregate(m=Max("id"))["m"] or 0) + 1


def build(args: argparse.Namespace) -> tuple[list[list[Any]], int]:
    """The history in the database, and the same periods as in-memory ``RatedGame`` lists."""
    from django.utils import timezone

    from ratings.models import RatingPeriod
    from ratings.periods import moving_order
    from ratings.systems import RatedGame
    from tournaments.models import Club, Entry, Game, Player, Round, Seat, Table, Tournament

    rng = random.Random(args.seed)
    stamp = time.time_ns()
    club = Club.objects.create(name=f"Bench {stamp}", slug=f"bench-{stamp}")
    players = Player.objects.bulk_create(
        Player(club=club, name=f"P{i}") for i in range(args.players)
    )
    player_ids = [p.pk for p in players]
    start = timezone.now() - dt.timedelta(days=3650)
    periods: list[list[RatedGame]] = []
    total = 0
    table_id, seat_id, game_id = _next_id(Table), _next_id(Seat), _next_id(Game)
    number = 0
    while total < args.games:
        number += 1
        tournament = Tournament.objects.create(
            club=club,
            name=f"Bench {number}",
            slug=f"bench-{stamp}-{number}",
            rounds_planned=ROUNDS_PER_TOURNAMENT,
            status="finished",
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, player_id=pid, seed=i + 1)
            for i, pid in enumerate(player_ids)
        )
        rounds = Round.objects.bulk_create(
            Round(
                tournament=tournament,
                number=r + 1,
                status="closed",
                closed_at=start + dt.timedelta(hours=len(periods) + r),
            )
            for r in range(ROUNDS_PER_TOURNAMENT)
        )
        tables: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        records: list[tuple[Any, ...]] = []
        for round_ in rounds:
            if total >= args.games:
                break
            order = entries[:]
            rng.shuffle(order)
            # An even number of 3-player tables keeps the rest in pairs.
            triples = 2 * rng.randint(len(order) // 24, len(order) // 12)
            sizes = [3] * triples + [2] * ((len(order) - 3 * triples) // 2)
            rng.shuffle(sizes)
            games: list[RatedGame] = []
            at = 0
            for t, size in enumerate(sizes, start=1):
                group = order[at : at + size]
                at += size
                tables.append((table_id, round_.pk, t))
                for position, entry in enumerate(group, start=1):
                    seats.append(
                        (seat_id, table_id, round_.pk, entry.pk, position, f"b{stamp}-{seat_id}")
                    )
                    seat_id += 1
                for g in range(1, (3 if size == 2 else 2) + 1):
                    first = 1 + (g - 1) % size
                    direction = "clockwise" if g % 2 else "widdershins"
                    out = [rng.randint(0, 2) for _ in range(size)]
                    out[rng.randrange(size)] = 3
                    padded = out + [None] * (4 - size)
                    records.append((game_id, table_id, g, first, direction, "finished", *padded))
                    turn = moving_order(first, direction, size)
                    games.append(
                        RatedGame(
                            seats=tuple(str(group[p - 1].player_id) for p in turn),
                            out=tuple(out[p - 1] for p in turn),
                        )
                    )
                    game_id += 1
                table_id += 1
            periods.append(games)
            total += len(games)
        _insert(Table, ("id", "round_id", "number"), tables)
        _insert(Seat, ("id", "table_id", "round_id", "entry_id", "position", "report_token"), seats)
        _insert(
            Game,
            (
                "id",
                "table_id",
                "number",
                "first_position",
                "direction",
                "status",
                "out_1",
                "out_2",
                "out_3",
                "out_4",
            ),
            records,
        )
        RatingPeriod.objects.bulk_create(
            RatingPeriod(round=r, closed_at=r.closed_at)
            for r in rounds
            if Table.objects.filter(round=r).exists()
        )
        Round.objects.filter(tournament=tournament, tables__isnull=True).delete()
    return periods, total


def bare(periods: list[list[Any]]) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    from ratings.models import RatingLedger
    from ratings.replay import iter_replay
    from ratings.systems import SYSTEM_NAMES, make_system

    params = {row.system: row.params for row in RatingLedger.objects.all()}
    times: dict[str, float] = {}
    finals: dict[str, dict[str, Any]] = {}
    import gc

    for name in SYSTEM_NAMES:
        system = make_system(name, params.get(name))
        # Under the same conditions as the jobs, which rate without cycle collection.
        gc.disable()
        started = time.perf_counter()
        states: dict[str, Any] = {}
        for rated in iter_replay(system, {}, periods):
            states = rated.states
        times[name] = time.perf_counter() - started
        gc.enable()
        finals[name] = {pid: system.state_to_json(s) for pid, s in states.items()}
    return times, finals


def dump(path: str) -> str:
    """Every PlayerRating, PeriodRating and GameRating row and every period's outcome, as
    sorted text lines with floats in ``repr`` (exact), into ``path``; returns its SHA-256.
    Times are seconds after the first period's close, so runs on fresh builds compare."""
    import hashlib

    from ratings.models import GameRating, PeriodRating, PlayerRating, RatingPeriod
    from ratings.systems import SYSTEM_NAMES

    epoch = RatingPeriod.objects.order_by("closed_at").values_list("closed_at", flat=True)[0]
    lines: list[str] = []
    for row in PlayerRating.objects.values_list(
        "player_id", "game", "system", "rating", "deviation", "state", "games", "last_played"
    ):
        *head, state, games, last = row
        seconds = (last - epoch).total_seconds()
        lines.append(repr(("P", *head, json.dumps(state, sort_keys=True), games, seconds)))
    for row in PeriodRating.objects.values_list(
        "period_id",
        "player_id",
        "games",
        *PeriodRating.rating_columns(),
    ):
        lines.append(repr(("H", *row)))
    for row in GameRating.objects.values_list(
        "game_id",
        "period_id",
        "player_id",
        *(column for name in SYSTEM_NAMES for column in GameRating.columns(name)),
    ):
        lines.append(repr(("G", *row)))
    for row in RatingPeriod.objects.values_list("id", "games", "skipped", "rated_at"):
        lines.append(repr(("R", *row[:3], row[3] is not None)))
    lines.sort()
    text = "\n".join(lines) + "\n"
    Path(path).write_text(text)
    return hashlib.sha256(text.encode()).hexdigest()


def load_before(directory: str) -> Any:
    """``ratings_recompute`` of another copy of ``ratings/rate.py`` (and its
    ``history_rows.py``, and ``periods.py`` if there) in ``directory``: the code before
    a change, timed in the same run as the current one."""
    import importlib.util
    import types

    folder = Path(directory)
    source = (folder / "rate.py").read_text()
    # ``periods.py`` (reading the games) too, when the directory has it.
    for name in ("history_rows", "periods"):
        if not (folder / f"{name}.py").exists():
            continue
        spec = importlib.util.spec_from_file_location(
            f"ratings_before_{name}", folder / f"{name}.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        source = source.replace(f"from ratings.{name} import", f"from ratings_before_{name} import")
    module = types.ModuleType("ratings_before_rate")
    module.__file__ = str(folder / "rate.py")
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module.ratings_recompute


def pairs(count: int, periods: list[list[Any]], before: Any) -> None:
    """Alternate the bare maths and the full recomputation ``count`` times (and the code
    of ``before`` too, in alternating order), each recomputation over the history the
    previous one wrote; prints each pair's ratio and the medians."""
    import statistics

    from ratings.rate import ratings_recompute

    runs: list[tuple[str, Any]] = [("after", ratings_recompute)]
    if before is not None:
        runs.append(("before", before))
    ratios: dict[str, list[float]] = {name: [] for name, _ in runs}
    cpu_ratios: dict[str, list[float]] = {name: [] for name, _ in runs}
    seconds: dict[str, list[float]] = {name: [] for name, _ in runs}
    maths: list[float] = []
    for number in range(count):
        load = os.getloadavg()[0]
        cpu = time.process_time()
        times, _ = bare(periods)
        bare_cpu = time.process_time() - cpu
        bare_seconds = sum(times.values())
        maths.append(bare_seconds)
        line = [
            f"pair {number + 1}: load {load:.2f}, bare maths {bare_seconds:.2f} s "
            f"(CPU {bare_cpu:.2f} s)"
        ]
        order = runs if number % 2 == 0 else runs[::-1]
        for name, recompute in order:
            started, cpu = time.perf_counter(), time.process_time()
            recompute()
            took, cpu = time.perf_counter() - started, time.process_time() - cpu
            seconds[name].append(took)
            ratios[name].append(took / bare_seconds)
            cpu_ratios[name].append(cpu / bare_cpu)
            line.append(
                f"{name} {took:.2f} s = {took / bare_seconds:.2f}x "
                f"(CPU of this process {cpu:.2f} s = {cpu / bare_cpu:.2f}x)"
            )
        print(", ".join(line), flush=True)
    print(f"median bare maths {statistics.median(maths):.2f} s")
    for name in ratios:
        print(
            f"{name}: median {statistics.median(seconds[name]):.2f} s, ratio median "
            f"{statistics.median(ratios[name]):.2f}x "
            f"(range {min(ratios[name]):.2f}-{max(ratios[name]):.2f}x over {count} pairs); "
            f"CPU time of this process: ratio median {statistics.median(cpu_ratios[name]):.2f}x "
            f"(range {min(cpu_ratios[name]):.2f}-{max(cpu_ratios[name]):.2f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--profile", help="write a cProfile of (b) to this file")
    parser.add_argument("--skip-bare", action="store_true", help="time (b) only")
    parser.add_argument(
        "--once", action="store_true", help="skip (c), the second recomputation over (b)'s history"
    )
    parser.add_argument(
        "--pairs", type=int, default=0, help="then alternate bare maths and recompute N times"
    )
    parser.add_argument(
        "--before", help="a directory with the old rate.py and history_rows.py (periods.py)"
    )
    parser.add_argument("--dump", help="write every rating row at the end to this file")
    args = parser.parse_args()
    scratch = ROOT / "var" / "bench-recompute.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        scratch.parent.mkdir(exist_ok=True)
        scratch.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import logging

    from django.core.management import call_command
    from django.db import connection, transaction

    from ratings.models import GameRating, PeriodRating, PlayerRating, RatingPeriod
    from ratings.rate import ratings_recompute

    logging.getLogger("ratings").setLevel(logging.ERROR)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    with transaction.atomic():
        periods, total = build(args)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    three = sum(1 for games in periods for g in games if len(g.seats) == 3)
    print(
        f"built {total:,} games ({three:,} 3-player) in {len(periods)} periods, "
        f"{args.players:,} players, in {time.perf_counter() - started:.1f} s "
        f"on {connection.vendor}",
        flush=True,
    )
    from ratings.history_rows import row_kernel

    made = "compiled (ratings/copy_kernel.pyx)" if row_kernel() is not None else "Python"
    print(f"history rows made by: {made}")
    maths: dict[str, float] = {}
    finals: dict[str, dict[str, Any]] = {}
    if not args.skip_bare:
        maths, finals = bare(periods)
        for name, seconds in maths.items():
            print(f"(a) bare maths {name}: {seconds:.1f} s ({total / seconds:,.0f} games/s)")
        print(f"(a) bare maths, all systems: {sum(maths.values()):.1f} s", flush=True)
    if not args.pairs:
        del periods  # memory: a million games
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    started = time.perf_counter()
    rated = ratings_recompute()
    end_to_end = time.perf_counter() - started
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    assert rated == RatingPeriod.objects.count()
    print(
        f"(b) ratings_recompute(): {end_to_end:.1f} s ({total / end_to_end:,.0f} games/s), "
        f"{rated} periods, {GameRating.objects.count():,} game and "
        f"{PeriodRating.objects.count():,} period history rows"
    )
    timings = getattr(sys.modules["ratings.rate"], "last_timings", None)
    if timings:
        print("    " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
    if not args.once:
        # What an organiser's "recompute everything" does on a live database: the
        # history of (b) is deleted and written again, in the same transaction.
        started = time.perf_counter()
        ratings_recompute()
        again = time.perf_counter() - started
        print(
            f"(c) ratings_recompute() again, over (b)'s history: {again:.1f} s "
            f"({total / again:,.0f} games/s)"
        )
        if timings:
            print("    " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
        end_to_end = max(end_to_end, again)
    if maths:
        ratio = end_to_end / sum(maths.values())
        print(f"ratio max((b), (c))/(a): {ratio:.2f} (target <= 3; absolute target 120 s)")
        mismatched = 0
        for name, states in finals.items():
            stored = dict(
                PlayerRating.objects.filter(system=name).values_list("player_id", "state")
            )
            for pid, state in states.items():
                if json.dumps(stored.get(int(pid)), sort_keys=True) != json.dumps(
                    state, sort_keys=True
                ):
                    mismatched += 1
        print(f"final states identical to (a): {'yes' if mismatched == 0 else 'NO'}")
        if mismatched:
            sys.exit(f"{mismatched} player states differ between (a) and (b)")
    if args.pairs:
        before = load_before(args.before) if args.before else None
        if before is not None and args.dump:
            # The two codes must write the same rows, to the bit.
            before()
            first = dump(args.dump + ".before")
            ratings_recompute()
            second = dump(args.dump)
            print(f"before and after write identical rows: {'yes' if first == second else 'NO'}")
        pairs(args.pairs, periods, before)
    if args.dump:
        print(f"dump {args.dump}: sha256 {dump(args.dump)}")


if __name__ == "__main__":
    main()
