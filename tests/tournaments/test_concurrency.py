"""Concurrent organisers and devices, on the real PostgreSQL: one round, not two; the
second write of a game gets a conflict instead of overwriting the first."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.factories import tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race(calls) -> list[object]:
    """Run the calls at the same moment in threads; collect results or exceptions."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def test_two_organisers_pairing_at_once_create_one_round():
    assert connection.vendor == "postgresql"
    tournament = tournament_with_players(12)
    outcomes = race([lambda: round_pair_next(tournament=tournament, by=Actor.command())] * 4)
    conflicts = [o for o in outcomes if isinstance(o, ConflictError)]
    rounds = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(rounds) == 1 and len(conflicts) == 3, outcomes
    assert tournament.rounds.count() == 1


def test_two_devices_entering_one_game_one_wins_the_other_is_told():
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    seen = game.version
    outcomes = race(
        [
            lambda: game_record_out(by=DIRECTOR, game=game, out=[3, 1], version=seen),
            lambda: game_record_out(by=DIRECTOR, game=game, out=[1, 3], version=seen),
        ]
    )
    saved = [o for o in outcomes if isinstance(o, Game)]
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(saved) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], ConflictError)
    game.refresh_from_db()
    assert game.out_list(2) == saved[0].out_list(2) and game.version == seen + 1


def test_twenty_organisers_pairing_a_round_again_at_once_get_one_round_and_conflicts():
    from tournaments.desk.services.rounds import round_repair
    from tournaments.models import Round

    tournament = tournament_with_players(8)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    outcomes = race([lambda: round_repair(round=round_, by=Actor.command()) for _ in range(20)])
    assert all(isinstance(o, Round | ConflictError) for o in outcomes), outcomes
    assert sum(isinstance(o, Round) for o in outcomes) >= 1
    assert Round.objects.filter(tournament=tournament).count() == 1


def _published_game() -> Game:
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.filter(table__round=round_).first()


def test_two_players_reporting_different_results_at_once_are_a_dispute():
    game = _published_game()
    one, two = (Actor.player(s) for s in game.table.seats.order_by("position"))
    outcomes = race(
        [
            lambda: game_record_out(game=game, out=[3, 1], by=one),
            lambda: game_record_out(game=game, out=[1, 3], by=two),
        ]
    )
    assert all(isinstance(o, Game) for o in outcomes), outcomes
    game.refresh_from_db()
    # Neither report silently replaced the other: both are kept, and nothing counts.
    states = sorted(game.submissions.values_list("state", flat=True))
    assert states == ["disputed", "disputed"] and not game.confirmed


def test_one_link_reporting_twice_at_once_reports_once():
    game = _published_game()
    one = Actor.player(game.table.seats.get(position=1))
    outcomes = race([lambda: game_record_out(game=game, out=[3, 1], by=one)] * 3)
    refused = [o for o in outcomes if isinstance(o, ConflictError)]
    assert len(refused) == 2, outcomes
    assert game.submissions.count() == 1


def test_a_report_racing_a_directors_entry_never_replaces_it():
    game = _published_game()
    one = Actor.player(game.table.seats.get(position=1))
    outcomes = race(
        [
            lambda: game_record_out(game=game, out=[3, 2], by=DIRECTOR),
            lambda: game_record_out(game=game, out=[1, 3], by=one),
        ]
    )
    assert isinstance(outcomes[0], Game), outcomes
    game.refresh_from_db()
    assert game.out_list(2) == [3, 2] and game.confirmed
