"""The defects of the one table-wide report link ("One trusted write path", part 4),
first reproduced against it (strict xfail), now each player's own link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    organiser = UserFactory(username="org")
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(organiser)
    tournament = tournament_with_players(2, club=club)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.get(table__round=round_, number=1)


def _link(game, position):
    return reverse("seat-report", args=[game.table.seats.get(position=position).report_token])


def _report(client, game, position, out):
    data = {"game": game.pk, "version": game.version, "finished": "1", "position": position}
    data.update({f"out_{i}": v for i, v in enumerate(out, start=1)})
    return client.post(_link(game, position), data)


def test_a_report_link_cannot_overwrite_a_directors_result(client, game):
    game_record_out(game=game, out=[3, 1], by=Actor.command())
    game.refresh_from_db()
    _report(client, game, 2, [1, 3])
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.confirmed


def test_one_device_cannot_report_and_then_confirm_its_own_report(client, game):
    _report(client, game, 1, [3, 1])
    # The old page let the same phone pick the other seat; the link is seat 1's only.
    client.post(_link(game, 1), {"game": game.pk, "confirm": "1", "position": 2})
    game.refresh_from_db()
    assert not game.confirmed


def test_two_conflicting_reports_are_a_dispute_not_a_silent_replacement(client, game):
    _report(client, game, 1, [3, 1])
    game.refresh_from_db()
    _report(client, game, 2, [1, 3])
    game.refresh_from_db()
    # Neither report counts, and the organiser sees that the players disagree.
    assert game.out_list(2) != [1, 3] and not game.confirmed
    client.force_login(game.table.round.tournament.club.organisers.get())
    page = client.get(
        reverse("round-open-tables", args=[game.table.round.tournament.slug, 1])
    ).content.decode()
    assert "Disputed" in page
