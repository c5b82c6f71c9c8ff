"""Organisers editing one pairing at once, on the real PostgreSQL: the edits take turns
(the round row is locked), so each sees the layout the one before left and the round
stays whole; an edit racing the publishing is either in before it or refused."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.factories import tournament_with_players
from tests.tournaments.test_concurrency import race
from tests.tournaments.test_pairing_edit import assert_invariants
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.pairing_edit import round_seat_move
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Round, Seat
from tournaments.results.services.results import Actor

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
BY = Actor.command()


def test_moves_at_once_each_see_the_last_layout_and_keep_the_round_whole():
    assert connection.vendor == "postgresql"
    t = tournament_with_players(9)
    round_ = round_pair_next(tournament=t, by=BY)
    entries = list(t.entries.order_by("seed"))
    calls = [
        lambda e=e, n=n: round_seat_move(
            round=round_, entry=e, table=n, override_reason="race", by=BY
        )
        for e, n in ((entries[0], 4), (entries[2], None), (entries[4], 1), (entries[8], 2))
    ]
    outcomes = race(calls)
    # A move the one before made impossible (a table of 4) is refused; none fails else.
    assert all(not isinstance(o, Exception) or isinstance(o, ServiceError) for o in outcomes)
    assert any(not isinstance(o, Exception) for o in outcomes), outcomes
    assert_invariants(round_, {e.pk for e in entries})


def test_a_move_racing_the_publishing_is_in_before_it_or_refused():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    five = t.entries.get(seed=5)
    outcomes = race(
        [
            # A reason, as the move breaks the book's rule for the 3-player table (seed 5
            # ranks below seed 1): the race is about the lock, not the warning.
            lambda: round_seat_move(
                round=round_, entry=five, table=1, override_reason="race", by=BY
            ),
            lambda: round_publish(round=round_, by=BY),
        ]
    )
    moved, published = outcomes
    assert isinstance(published, Round), outcomes
    table = Seat.objects.get(round=round_, entry=five).table.number
    if isinstance(moved, ConflictError):
        assert table == 2
    else:
        assert not isinstance(moved, Exception), outcomes
        assert table == 1
    assert_invariants(round_, set(t.entries.values_list("pk", flat=True)))
