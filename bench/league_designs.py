"""Exact search for league schedules at the counting minimum of rounds.

The league core (tournaments/pairing/league.py) builds known designs and otherwise runs a
local search, which cannot prove that fewer rounds are impossible. This script asks a
constraint solver, for one field: can ``players`` meet every other player at least once
(and no pair more than twice) in ``rounds`` rounds at the given tables? It prints
FEASIBLE with a schedule (which the core may then store in ``_SOLVED``), INFEASIBLE (a
proof that the bound cannot be reached), or UNKNOWN when the time limit ran out.

The solver (OR-Tools CP-SAT) is not a dependency of the project: it is only needed to
re-derive the stored schedules.

    pip install ortools
    python bench/league_designs.py 11 3+2+2+2+2 8 --seconds 600
    python bench/league_designs.py 6 3+3 3
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations


def search(players: int, sizes: list[int], rounds: int, seconds: float) -> tuple[str, object]:
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        sys.exit("needs the solver: pip install ortools")
    model = cp_model.CpModel()
    tables = range(len(sizes))
    at = {
        (p, r, t): model.NewBoolVar(f"p{p}r{r}t{t}")
        for p in range(players)
        for r in range(rounds)
        for t in tables
    }
    for r in range(rounds):
        for p in range(players):
            model.AddExactlyOne(at[p, r, t] for t in tables)
        for t in tables:
            model.Add(sum(at[p, r, t] for p in range(players)) == sizes[t])
    for p, q in combinations(range(players), 2):
        together = []
        for r in range(rounds):
            for t in tables:
                both = model.NewBoolVar("")
                model.AddBoolAnd([at[p, r, t], at[q, r, t]]).OnlyEnforceIf(both)
                model.AddBoolOr([at[p, r, t].Not(), at[q, r, t].Not(), both])
                together.append(both)
        model.AddBoolOr(together)  # every pair meets
        model.Add(sum(together) <= 2)  # none more than twice
    # Symmetry: round 1 seats the players in order; of two tables of the same size in a
    # later round, the one listed first holds the lower-numbered player.
    seat = 0
    for t, size in enumerate(sizes):
        for _ in range(size):
            model.Add(at[seat, 0, t] == 1)
            seat += 1
    for r in range(1, rounds):
        for t in range(len(sizes) - 1):
            if sizes[t] == sizes[t + 1]:
                for q in range(players):
                    model.AddBoolOr([at[q, r, t + 1].Not()] + [at[p, r, t] for p in range(q)])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.Solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "FEASIBLE", [
            [tuple(p for p in range(players) if solver.Value(at[p, r, t])) for t in tables]
            for r in range(rounds)
        ]
    return ("INFEASIBLE" if status == cp_model.INFEASIBLE else "UNKNOWN"), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", type=int)
    parser.add_argument("tables", help="table sizes of a round, e.g. 3+2+2")
    parser.add_argument("rounds", type=int)
    parser.add_argument("--seconds", type=float, default=600)
    args = parser.parse_args()
    sizes = sorted((int(s) for s in args.tables.split("+")), reverse=True)
    if sum(sizes) != args.players:
        sys.exit("the tables must seat every player")
    start = time.perf_counter()
    verdict, schedule = search(args.players, sizes, args.rounds, args.seconds)
    print(f"{args.players} players at {args.tables} in {args.rounds} rounds: {verdict}")
    print(f"({time.perf_counter() - start:.1f} s)")
    if schedule is not None:
        for row in schedule:  # type: ignore[attr-defined]
            print(f"    {tuple(row)},")


if __name__ == "__main__":
    main()
