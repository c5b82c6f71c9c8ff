"""The compiled history rows (ratings/copy_kernel.pyx) against the Python rows of
record (``rate._game_rows`` and ``rate._period_rows`` with ``row_maker``): the same
bytes, to the bit, for random periods of every system's states; a value a column cannot
hold fails instead of being written; and a whole recomputation writes the same history
either way. The test command builds the kernel (config/bin/engine-build --require)."""

from __future__ import annotations

import argparse
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ratings.rate as rate
from games.engine_common.builds import wanted
from ratings.compiled import BUILD, kernel
from ratings.history_rows import copy_statement, row_maker
from ratings.models import GameRating, PeriodRating, RatingLedger
from ratings.rate import (
    _Chain,
    _game_rows,
    _period_rows,
    kernel_state_fields,
    ratings_recompute,
)
from ratings.replay import RatedPeriod
from ratings.systems import SYSTEM_NAMES, GameChange
from ratings.systems.elo import EloState
from ratings.systems.glicko2 import Glicko2State
from ratings.systems.openskill_pl import OpenSkillState

pytestmark = pytest.mark.django_db

FLOATS = st.floats(allow_nan=False, width=64) | st.sampled_from([-0.0, math.inf, -math.inf])
POSITIVE = st.floats(min_value=1e-300, max_value=1e300)
STATES = {
    "glicko2": st.builds(Glicko2State, FLOATS, POSITIVE, POSITIVE),
    "openskill": st.builds(OpenSkillState, FLOATS, POSITIVE),
    "elo": st.builds(EloState, FLOATS, st.integers(0, 2**31 - 1), st.booleans()),
}


def test_the_job_uses_the_build_unless_the_python_rows_are_asked_for():
    if wanted():
        assert BUILD.current(), "no build of copy_kernel.pyx: bash config/bin/engine-build"
        assert kernel() is not None and rate.row_kernel() is kernel()
    else:
        assert rate.row_kernel() is None


@st.composite
def periods(draw):
    """One period: its players, games of 2 to 4 of them, and every system's outcome
    (the states before and after, each game's ratings before and after)."""
    players = [str(pid) for pid in draw(st.sets(st.integers(1, 2**40), min_size=4, max_size=9))]
    games = [
        tuple(draw(st.permutations(players))[: draw(st.integers(2, 4))])
        for _ in range(draw(st.integers(1, 6)))
    ]
    seated = sorted({pid for game in games for pid in game}, key=int)
    played = {pid: sum(pid in game for game in games) for pid in seated}
    outcomes = []
    for name in SYSTEM_NAMES:
        changes = tuple(
            GameChange(
                index,
                {pid: draw(FLOATS) for pid in game},
                {pid: draw(FLOATS) for pid in game},
            )
            for index, game in enumerate(games)
        )
        before = {pid: draw(STATES[name]) for pid in seated if draw(st.booleans())}
        after = {pid: draw(STATES[name]) for pid in seated}
        outcomes.append((RatedPeriod(0, after, changes, ()), before))
    return seated, played, outcomes, len(games)


def _chains():
    return [
        _Chain(name, RatingLedger.objects.get_or_create(system=name)[0].params, [])
        for name in SYSTEM_NAMES
    ]


def _types():
    game = ("game_id", "period_id", "player_id")
    game += tuple(column for name in SYSTEM_NAMES for column in GameRating.columns(name))
    period = ("period_id", "player_id", "games", *PeriodRating.rating_columns())
    return copy_statement(GameRating, game)[1], copy_statement(PeriodRating, period)[1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(period=periods(), period_id=st.integers(1, 2**62), first_record=st.integers(1, 2**62))
def test_the_compiled_rows_are_the_python_rows_to_the_bit(period, period_id, first_record):
    seated, played, outcomes, count = period
    compiled = kernel()
    assert compiled is not None
    chains = _chains()
    game_types, period_types = _types()
    ids = {pid: int(pid) for pid in seated}
    records = [first_record + at for at in range(count)]
    rated = [outcome for outcome, _ in outcomes]

    made, rows = compiled.game_rows(records, period_id, ids, tuple(r.games for r in rated))
    python = list(_game_rows(records, period_id, ids, rated, count, row_maker(game_types), None))
    assert rows == len(python) and made == b"".join(python)

    nulls = [3 + 3 * at + 2 for at, chain in enumerate(chains) if chain.deviation_name is None]
    fields = kernel_state_fields(chains, period_types)
    systems = [
        (before, chain.default, outcome.states, chain.deviation_name)
        for chain, (outcome, before) in zip(chains, outcomes, strict=True)
    ]
    made, rows = compiled.period_rows(period_id, seated, played, ids, systems, fields)
    python = list(
        _period_rows(
            period_id, seated, played, ids, chains, outcomes, row_maker(period_types, nulls), None
        )
    )
    assert rows == len(seated) == len(python) and made == b"".join(python)


def test_a_value_a_column_cannot_hold_fails_instead_of_being_written():
    compiled = kernel()
    assert compiled is not None
    ids = {"1": 1, "2": 2}

    def one_game(value):
        change = GameChange(0, {"1": 1.0, "2": 2.0}, {"1": value, "2": 2.0})
        return compiled.game_rows([7], 3, ids, (((change,)),))

    assert one_game(3) == one_game(3.0)  # an int is the same double, as in struct's "d"
    with pytest.raises(TypeError):
        one_game(None)
    with pytest.raises(OverflowError):
        compiled.game_rows([2**63], 3, ids, ((GameChange(0, {"1": 1.0}, {"1": 1.0}),),))
    with pytest.raises(KeyError):  # a player rated by one system only
        compiled.game_rows(
            [7],
            3,
            ids,
            (
                (GameChange(0, {"1": 1.0}, {"1": 1.0}),),
                (GameChange(0, {"2": 1.0}, {"2": 1.0}),),
            ),
        )
    with pytest.raises(ValueError, match="different games"):
        compiled.game_rows(
            [7, 8],
            3,
            ids,
            ((GameChange(0, {"1": 1.0}, {"1": 1.0}),), (GameChange(1, {"1": 1.0}, {"1": 1.0}),)),
        )
    with pytest.raises(ValueError, match="no system at 1"):
        compiled.period_rows(3, [], {}, ids, [({}, None, {}, None)], [(1, "games", "int4")])
    elo = EloState(1500.0, games=2**31, reached_top=False)  # more games than int4 holds
    with pytest.raises(OverflowError):
        compiled.period_rows(
            3, ["1"], {"1": 1}, ids, [({}, elo, {"1": elo}, None)], [(0, "games", "int4")]
        )


def test_a_recomputation_writes_the_same_history_with_the_compiled_rows_and_without(monkeypatch):
    from bench.ratings_recompute import build
    from tests.ratings.test_full_recompute import everything

    build(argparse.Namespace(games=600, players=16, seed=9))
    ratings_recompute()
    made_here = everything()
    monkeypatch.setattr(rate, "row_kernel", lambda: None)
    ratings_recompute()
    assert everything() == made_here
    assert len(made_here["games"]) > 2 * 600
