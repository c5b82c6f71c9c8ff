"""Seeding by an earlier event (issue 26, item 1): the book starts a Swiss "with some
prior ranking, typically the result of the previous tournament" (section 21). The seeds
follow that event's final standings, and the players new since then follow by rating
(the unrated last, in entry order); on the run page and in the API, through the one
service; a choice that gives no order is refused, naming the field, and changes nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.visibility import seed_sources
from tournaments.desk.services.entries import entries_reseed_by_rating, entry_add
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Entry, Game, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db
BY = Actor.command()


def play_round(tournament: Tournament) -> None:
    """Seat 1 of every table wins each game 3 : 0 (3 : 0 : 0)."""
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        game_record_out(game=game, out=[3] + [0] * (seats - 1), by=BY)
    round_close(round=round_, by=BY)


@pytest.fixture
def last_week() -> Tournament:
    previous = tournament_with_players(6, slug="last-week", name="Last week", rounds_planned=2)
    play_round(previous)
    play_round(previous)
    return previous


@pytest.fixture
def tonight(last_week: Tournament) -> Tournament:
    """Tonight's event of the same club: four of last week's players (entered in another
    order, one with a high rating) and two newcomers, one rated and one not."""
    tournament = TournamentFactory(club=last_week.club, slug="tonight", name="Tonight")
    for name, rating in [
        ("P06", 2400),
        ("New unrated", None),
        ("P03", None),
        ("New rated", 1700),
        ("P01", 1000),
        ("P02", None),
    ]:
        entry_add(tournament=tournament, name=name, rating=rating, by=BY)
    return tournament


def seeded(tournament: Tournament) -> list[str]:
    return list(
        Entry.objects.filter(tournament=tournament)
        .order_by("seed")
        .values_list("player__name", flat=True)
    )


def final_order(previous: Tournament, names: set[str]) -> list[str]:
    return [row.name for row in tournament_standings(tournament=previous).rows if row.name in names]


def test_seeds_follow_the_last_events_final_standings_then_the_newcomers_by_rating(
    last_week, tonight
):
    entries_reseed_by_rating(tournament=tonight, by=BY, source=last_week)
    returning = final_order(last_week, {"P06", "P03", "P01", "P02"})
    assert seeded(tonight) == [*returning, "New rated", "New unrated"]
    assert list(
        Entry.objects.filter(tournament=tonight).order_by("seed").values_list("seed", flat=True)
    ) == [1, 2, 3, 4, 5, 6]


def test_the_choices_are_the_clubs_other_events_with_a_closed_round(last_week, tonight):
    elsewhere = tournament_with_players(4, slug="elsewhere", name="Elsewhere")
    play_round(elsewhere)  # another club's event, with a result
    TournamentFactory(club=last_week.club, slug="unplayed", name="Unplayed")
    assert seed_sources(tonight) == [last_week]


@pytest.mark.parametrize("choice", ["itself", "other club", "no closed round"])
def test_an_event_that_gives_no_order_is_refused_naming_the_field_and_nothing_changes(
    last_week, tonight, choice
):
    source = {
        "itself": lambda: tonight,
        "other club": lambda: tournament_with_players(2, slug="x", name="X"),
        "no closed round": lambda: TournamentFactory(club=tonight.club, slug="y", name="Y"),
    }[choice]()
    before = seeded(tonight)
    with pytest.raises(ServiceError) as refused:
        entries_reseed_by_rating(tournament=tonight, by=BY, source=source)
    assert refused.value.field == "event"
    assert seeded(tonight) == before


def director_of(tournament: Tournament) -> APIClient:
    user = UserFactory()
    tournament.directors.add(user)
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_api_seeds_by_an_earlier_event_and_names_the_field_of_a_wrong_one(last_week, tonight):
    api = director_of(tonight)
    url = "/api/v1/tournaments/tonight/entries/reseed/"
    before = seeded(tonight)
    wrong = api.post(url, {"event": "no-such-event"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["error"]["field"] == "event"
    assert seeded(tonight) == before
    response = api.post(url, {"event": "last-week"}, format="json")
    assert response.status_code == 200
    returning = final_order(last_week, {"P06", "P03", "P01", "P02"})
    assert [e["player"] for e in response.json()["entries"]] == [
        *returning,
        "New rated",
        "New unrated",
    ]


def test_the_run_page_offers_the_clubs_earlier_events_and_seeds_by_the_chosen_one(
    client, last_week, tonight
):
    user = UserFactory()
    tonight.directors.add(user)
    client.force_login(user)
    page = client.get("/t/tonight/manage/")
    assert f'<option value="{last_week.pk}">Last week' in page.content.decode()
    response = client.post("/t/tonight/manage/entries/reseed/", {"event": str(last_week.pk)})
    assert response.status_code == 302
    returning = final_order(last_week, {"P06", "P03", "P01", "P02"})
    assert seeded(tonight) == [*returning, "New rated", "New unrated"]
    # A doctored choice (another club's event) is refused with a message.
    other = tournament_with_players(2, slug="other", name="Other")
    play_round(other)
    before = seeded(tonight)
    refused = client.post(
        "/t/tonight/manage/entries/reseed/", {"event": str(other.pk)}, follow=True
    )
    assert "choose one of the club" in refused.content.decode()
    assert seeded(tonight) == before
