"""A full recomputation (history tables emptied at once, current ratings written by one
upsert) gives, to the bit, what rating the same history period by period gives, what a
recomputation from the middle (the rewind) gives, and the pure maths' final states."""

from __future__ import annotations

import argparse
import random
import struct

import pytest
from django.db import IntegrityError, connection, transaction

import ratings.rate as rate
from ratings.models import GameRating, PeriodRating, PlayerRating, RatingLedger, RatingPeriod
from ratings.periods import periods_games
from ratings.rate import period_rate, ratings_recompute
from ratings.replay import iter_replay
from ratings.systems import SYSTEM_NAMES, RatedGame, make_system

pytestmark = pytest.mark.django_db


def _bits(value):
    """Floats by their bits, so that 0.1 + 0.2 and 0.30000000000000004 compare equal
    only when they are the same double, and -0.0 differs from 0.0."""
    if isinstance(value, float):
        return ("float", struct.pack(">d", value))
    if isinstance(value, dict):
        return tuple(sorted((key, _bits(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_bits(item) for item in value)
    return value


def everything() -> dict[str, list[tuple]]:
    def rows(queryset, *columns):
        return sorted(_bits(row) for row in queryset.values_list(*columns))

    return {
        "players": rows(
            PlayerRating.objects,
            "player_id",
            "game",
            "system",
            "rating",
            "deviation",
            "state",
            "games",
            "last_played",
        ),
        "periods": rows(
            PeriodRating.objects,
            "period_id",
            "player_id",
            "games",
            *PeriodRating.rating_columns(),
        ),
        "games": rows(
            GameRating.objects,
            "game_id",
            "period_id",
            "player_id",
            *(column for name in SYSTEM_NAMES for column in GameRating.columns(name)),
        ),
        "rated": rows(RatingPeriod.objects, "id", "games", "skipped"),
    }


def test_a_full_recomputation_is_bit_identical_to_rating_period_by_period_and_to_the_maths():
    from bench.ratings_recompute import build  # bulk history: the benchmark's builder

    build(argparse.Namespace(games=2_500, players=40, seed=11))
    periods = list(RatingPeriod.objects.order_by("closed_at", "id"))
    assert len(periods) > 10
    # The incremental path: each period rated by its own job, as rounds close.
    for period in periods:
        assert period_rate(period=period) == "rated"
    incremental = everything()
    assert len(incremental["games"]) > 2 * 2_500 and len(incremental["periods"]) > 400

    # Full, over that history: emptied and written again.
    assert ratings_recompute() == len(periods)
    assert everything() == incremental
    # The rewind: from the middle, the earlier players restored from their history.
    assert ratings_recompute(start=periods[len(periods) // 2]) == len(periods) - len(periods) // 2
    assert everything() == incremental
    # Full again, now over the rewind's history.
    assert ratings_recompute() == len(periods)
    assert everything() == incremental

    # The pure maths over the same periods end on the same states, to the bit.
    games = [source.games for source in periods_games(periods)]
    for name in SYSTEM_NAMES:
        system = make_system(name, RatingLedger.objects.get(system=name).params)
        states: dict = {}
        for rated in iter_replay(system, {}, games):
            states = rated.states
        stored = {
            str(player_id): (_bits(rating), _bits(state))
            for player_id, rating, state in PlayerRating.objects.filter(system=name).values_list(
                "player_id", "rating", "state"
            )
        }
        assert stored == {
            pid: (_bits(state.rating), _bits(system.state_to_json(state)))
            for pid, state in states.items()
        }


def test_a_player_without_history_keeps_her_rating_through_a_full_recomputation():
    from bench.ratings_recompute import build

    build(argparse.Namespace(games=300, players=12, seed=4))
    ratings_recompute()
    row = PlayerRating.objects.filter(system="elo").first()
    kept = PlayerRating.objects.create(
        player_id=row.player_id, game="pantarei", system="elo", rating=1234.5, state={}
    )
    before = everything()
    ratings_recompute()
    assert everything() == before
    assert PlayerRating.objects.get(pk=kept.pk).rating == 1234.5


def _history_indexes() -> tuple[list[tuple], list[tuple]]:
    """The history tables' indexes and constraints: names and definitions."""
    tables = [GameRating._meta.db_table, PeriodRating._meta.db_table]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes "
            "WHERE tablename = ANY(%s) ORDER BY 1, 2",
            [tables],
        )
        indexes = cursor.fetchall()
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE conrelid = ANY(%s::regclass[]) ORDER BY 1, 2",
            [tables],
        )
        return indexes, cursor.fetchall()


def test_a_full_recomputation_indexes_the_new_history_at_the_end_and_leaves_the_indexes_as_they_were(
    monkeypatch,
):
    from bench.ratings_recompute import build

    build(argparse.Namespace(games=600, players=16, seed=7))
    periods = list(RatingPeriod.objects.order_by("closed_at", "id"))
    ratings_recompute()
    rows = everything()
    schema = _history_indexes()
    names = {name for _, name, _ in schema[0]}
    assert {"game_rating_once", "period_rating_once"} <= names and len(names) == 6
    during: list[set[str]] = []
    real = rate._rate

    def watching(*args, **kwargs):
        during.append({name for _, name, _ in _history_indexes()[0]})
        return real(*args, **kwargs)

    monkeypatch.setattr(rate, "_rate", watching)
    assert ratings_recompute() == len(periods)
    # Rated with the primary keys only; afterwards every index and unique constraint is
    # back under its own name and definition, and the rows are the same.
    assert during == [{"ratings_gamerating_pkey", "ratings_periodrating_pkey"}]
    assert _history_indexes() == schema
    assert everything() == rows
    row = GameRating.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        GameRating.objects.create(
            game_id=row.game_id, period_id=row.period_id, player_id=row.player_id
        )
    # A recomputation from the middle keeps the indexes throughout.
    during.clear()
    ratings_recompute(start=periods[len(periods) // 2])
    assert during == [names] and _history_indexes() == schema and everything() == rows


def test_a_recomputation_that_fails_midway_keeps_the_old_history_and_its_indexes(monkeypatch):
    from bench.ratings_recompute import build

    build(argparse.Namespace(games=300, players=12, seed=3))
    ratings_recompute()
    rows, schema = everything(), _history_indexes()

    def failing(*args, **kwargs):
        raise RuntimeError("worker killed")

    monkeypatch.setattr(rate, "_player_ratings", failing)  # after every history row went out
    with pytest.raises(RuntimeError):
        ratings_recompute()
    assert everything() == rows and _history_indexes() == schema


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_a_period_ratings_columns_hold_the_whole_state_to_the_bit(name):
    """PeriodRating keeps each system's state in plain columns (its after and deviation
    columns and ``state_columns``): from them ``state_from_json`` must give back the
    very state, and the job's getters (``_Chain.state_fields``) the columns' values."""
    from ratings.rate import _Chain

    chain = _Chain(name, {}, [])
    system = chain.system
    _, after, deviation = PeriodRating.columns(name)
    rng = random.Random(name)
    states = [chain.default]
    current: dict = {}
    for _ in range(300):
        games = []
        for _ in range(5):
            seats = tuple(rng.sample([str(n) for n in range(8)], rng.choice((2, 3))))
            out = [rng.randint(0, 2) for _ in seats]
            out[rng.randrange(len(seats))] = 3
            games.append(RatedGame(seats=seats, out=tuple(out)))
        current = system.rate_period(current, games).states
        states += current.values()
    for state in states:
        row = PeriodRating(**{after: state.rating, deviation: chain.deviation(state)})
        for (_, column), field in zip(
            PeriodRating.state_columns(name), chain.state_fields, strict=True
        ):
            setattr(row, column, field(state))
        again = system.state_from_json(row.state(name))
        assert _bits(system.state_to_json(again)) == _bits(system.state_to_json(state))
    assert PeriodRating().state(name) is None  # not rated by this system
