"""The egg timer as the book's sand timer (section 3; tournaments/results/egg_timer.py): a player
who moves early leaves the rest of her minute to the next, and the timer is turned on a
player only when it runs out."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tournaments.results.egg_timer import deadline

T0 = datetime(2026, 11, 25, 20, 0, 0)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_after_the_first_move_the_next_player_has_one_minute():
    assert deadline(T0, T0, 60) == at(60)


def test_a_player_who_moves_early_leaves_the_rest_of_her_minute_to_the_next():
    # "If you move before your minute runs out, your opponent can use that extra time
    # before you can turn the egg timer on her."
    assert deadline(T0, at(20), 60) == at(120)


def test_a_lost_turn_at_the_end_of_a_minute_turns_the_timer_on_the_next_player():
    assert deadline(T0, at(120), 60) == at(180)


def simulated(first_to_last: float, seconds: int) -> float:
    """A sand timer by hand: turned at 0, again each time it runs out; the player to move
    after `first_to_last` is the one it is turned on at the first end not before it."""
    turned = 0.0
    while turned < first_to_last - 1e-6:
        turned += seconds
    return turned + seconds


@given(st.floats(0, 3600), st.sampled_from([30, 60, 90]))
def test_the_deadline_is_the_sand_timers(elapsed, seconds):
    got = (deadline(T0, at(elapsed), seconds) - T0).total_seconds()
    assert abs(got - simulated(elapsed, seconds)) < 1e-3
    # Never less than nothing left, never more than two minutes after the last ply.
    assert elapsed < got <= elapsed + 2 * seconds + 1e-3
