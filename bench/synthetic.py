"""Synthetic rounds written with bulk inserts, for the benchmarks that need a big
tournament in the database (standings_db.py, api_load.py)."""

from __future__ import annotations

import random
from typing import Any


def bulk_round(
    tournament: Any, number: int, entries: list[Any], rng: random.Random, closed: bool = True
) -> tuple[list[Any], list[Any]]:
    """One round of random 2-player tables (an odd field ends with a 3-player table);
    closed rounds get a random finished result per game, open ones pending games.
    Returns the tables and the games."""
    from tournaments.models import Game, Round, Seat, Table

    round_ = Round.objects.create(
        tournament=tournament, number=number, status="closed" if closed else "published"
    )
    order = entries[:]
    rng.shuffle(order)
    tables = Table.objects.bulk_create(
        Table(round=round_, number=t + 1) for t in range(len(order) // 2)
    )
    seats, games = [], []
    for t, table in enumerate(tables):
        pair = order[2 * t : 2 * t + 2] if t < len(tables) - 1 else order[2 * t :]
        for position, entry in enumerate(pair, start=1):
            seats.append(Seat(table=table, round=round_, entry=entry, position=position))
        for g in range(1, (3 if len(pair) == 2 else 2) + 1):
            if not closed:
                games.append(Game(table=table, number=g))
                continue
            out: list[int | None] = [rng.randint(0, 2) for _ in pair]
            out[rng.randrange(len(pair))] = 3
            out += [None] * (4 - len(out))
            games.append(
                Game(
                    table=table,
                    number=g,
                    status="finished",
                    out_1=out[0],
                    out_2=out[1],
                    out_3=out[2],
                    out_4=out[3],
                )
            )
    Seat.objects.bulk_create(seats)
    return tables, Game.objects.bulk_create(games)
