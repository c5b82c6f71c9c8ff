"""What keeps a round open, said in one place (issue 42, "Why" 3): the open-tables
page and the close refusal list the same reasons per table, from one selector
(selectors/rounds.py, round_open_reasons), held offline entries and ply-conflict flags
included."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, PlyConflict, ResultSubmission, Round
from tournaments.results.selectors import rounds as round_selectors
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


def round_with_held_and_flag_at_table_2():
    """Four players at two tables, every game entered; table 2 has an entry kept from an
    offline queue (game 1) and a refused ply flagged (game 2)."""
    organiser = UserFactory()
    club = ClubFactory()
    club.organisers.add(organiser)
    tournament = tournament_with_players(4, club=club)
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(game=game, out=[3, 1], by=BY)
    first, second = list(
        Game.objects.filter(table__round=round_, table__number=2).order_by("number")
    )[:2]
    ResultSubmission.objects.create(
        game=first,
        by_user=organiser,
        state=ResultSubmission.State.HELD,
        held_reason=ResultSubmission.HeldReason.CHANGED,
        status=Game.Status.FINISHED,
        out=[1, 3],
    )
    PlyConflict.objects.create(
        game=second, number=1, move="W-W1B", recorded="W-W2B", by_position=1, at=timezone.now()
    )
    return organiser, round_


def test_the_selector_names_a_held_entry_and_a_flag_at_table_2_in_few_queries(
    django_assert_max_num_queries,
):
    _organiser, round_ = round_with_held_and_flag_at_table_2()
    with django_assert_max_num_queries(3):
        reasons = round_selectors.round_open_reasons(round_=round_)
    assert list(reasons) == [2]
    assert [(r.reason, r.games) for r in reasons[2]] == [("held", [1]), ("flagged", [2])]


def test_the_open_tables_page_shows_the_held_entry_and_the_flag():
    organiser, round_ = round_with_held_and_flag_at_table_2()
    client = Client()
    client.force_login(organiser)
    url = reverse("round-open-tables", args=[round_.tournament.slug, round_.number])
    page = client.get(url).content.decode()
    row = page.split('id="table-2"')[1].split("</tr>")[0]
    assert "Held: game 1" in row
    assert "Flagged: game 2" in row
    assert 'id="table-1"' not in page


def test_closing_is_refused_naming_table_2_with_both_reasons():
    _organiser, round_ = round_with_held_and_flag_at_table_2()
    with pytest.raises(ServiceError) as refused:
        round_close(round=round_, by=BY, force=True)
    assert refused.value.field == "round"
    message = refused.value.message
    assert "table 2" in message
    assert "held: game 1" in message and "flagged: game 2" in message
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_the_results_screen_names_what_keeps_the_round_open_and_offers_no_close():
    # Every game is in, so the screen offered "close round 1", and closing was refused
    # for reasons the screen never showed: it now says them, from the same selector.
    organiser, round_ = round_with_held_and_flag_at_table_2()
    client = Client()
    client.force_login(organiser)
    url = reverse("round-results", args=[round_.tournament.slug, round_.number])
    page = client.get(url).content.decode()
    progress = page.split('id="round-progress"')[1].split("</div>")[0]
    assert "table 2 (held: game 1; flagged: game 2)" in progress
    assert "close round 1" not in progress
