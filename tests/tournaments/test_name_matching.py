"""Names (issue 42, "Why" 7): a pasted "cleo marchetti" became a second, unrated player
beside the club's "Cleo Marchetti". Pasting, the single entry and the API's entry find a
player of the club without regard to case and spacing, and ask (refuse until the
organiser chooses) when a name is only near one, or matches two; accents stay
significant ("René" is asked about, not taken for "Rene")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.desk.services.entries import (
    NamesInDoubt,
    entries_paste,
    entries_paste_preview,
    entry_add,
)
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def tournament():
    tournament = TournamentFactory(slug="tonight", name="Tonight")
    PlayerFactory(club=tournament.club, name="Cleo Marchetti")
    return tournament


def entered(tournament) -> list[str]:
    return list(tournament.entries.order_by("seed").values_list("player__name", flat=True))


def test_a_pasted_name_in_other_case_and_spacing_is_the_clubs_existing_player(tournament):
    cleo = Player.objects.get(name="Cleo Marchetti")
    entries_paste(tournament=tournament, text="  cleo   MARCHETTI , 1500\nBert", by=BY)
    assert entered(tournament) == ["Cleo Marchetti", "Bert"]
    assert tournament.entries.get(seed=1).player == cleo
    assert Player.objects.filter(club=tournament.club).count() == 2


def test_the_single_entry_matches_the_same_way(tournament):
    entry = entry_add(tournament=tournament, name="CLEO marchetti", by=BY)
    assert entry.player.name == "Cleo Marchetti"
    assert Player.objects.filter(club=tournament.club).count() == 1


def test_a_near_name_is_asked_about_and_nothing_is_entered(tournament):
    with pytest.raises(NamesInDoubt) as asked:
        entries_paste(tournament=tournament, text="Bert\nCleo Marchettí", by=BY)
    assert asked.value.field == "players"
    assert [d.number for d in asked.value.doubts] == [2]
    assert [p.name for p in asked.value.doubts[0].candidates] == ["Cleo Marchetti"]
    assert entered(tournament) == []
    assert Player.objects.filter(club=tournament.club).count() == 1


def test_the_organisers_choice_settles_a_doubt_either_way(tournament):
    cleo = Player.objects.get(name="Cleo Marchetti")
    entries_paste(
        tournament=tournament,
        text="Cleo Marchettí\nCleo Marcheti",
        choices={1: "new", 2: cleo.pk},
        by=BY,
    )
    assert entered(tournament) == ["Cleo Marchettí", "Cleo Marchetti"]


def test_two_existing_players_of_the_same_normalised_name_are_asked_about(tournament):
    twin = PlayerFactory(club=tournament.club, name="cleo marchetti")
    with pytest.raises(NamesInDoubt) as asked:
        entry_add(tournament=tournament, name="Cleo  Marchetti", by=BY)
    assert asked.value.field == "name"
    assert {p.name for p in asked.value.doubts[0].candidates} == {"Cleo Marchetti", twin.name}
    entry = entry_add(tournament=tournament, name="Cleo Marchetti", player_choice=twin.pk, by=BY)
    assert entry.player == twin


def test_a_choice_of_another_clubs_player_is_refused_naming_the_field(tournament):
    stranger = PlayerFactory(name="Cleo Marchetti")  # another club's
    with pytest.raises(ServiceError) as refused:
        entry_add(tournament=tournament, name="Cleo Marchettí", player_choice=stranger.pk, by=BY)
    assert refused.value.field == "player"
    assert entered(tournament) == []


def test_the_preview_says_what_each_line_becomes(tournament):
    lines = entries_paste_preview(
        tournament=tournament, text="cleo marchetti\nCleo Marchettí\nBert"
    )
    assert [(line.name, line.player and line.player.name, line.doubtful) for line in lines] == [
        ("cleo marchetti", "Cleo Marchetti", False),
        ("Cleo Marchettí", None, True),
        ("Bert", None, False),
    ]


def test_the_apis_entry_asks_with_a_409_and_takes_the_choice(tournament):
    user = UserFactory()
    tournament.directors.add(user)
    api = APIClient()
    api.force_authenticate(user)
    url = "/api/v1/tournaments/tonight/entries/"
    asked = api.post(url, {"name": "Cleo Marchettí"}, format="json")
    assert asked.status_code == 409, asked.content
    assert asked.json()["error"]["field"] == "name"
    assert "Cleo Marchetti" in asked.json()["error"]["message"]
    assert not Entry.objects.filter(tournament=tournament).exists()
    lower = api.post(url, {"name": "cleo marchetti"}, format="json")
    assert lower.status_code == 201
    assert lower.json()["player"] == "Cleo Marchetti"
    pasted = api.post(
        url + "paste/", {"players": "Cleo Marcheti", "choices": {"1": "new"}}, format="json"
    )
    assert pasted.status_code == 201, pasted.content
    assert entered(tournament) == ["Cleo Marchetti", "Cleo Marcheti"]


def test_names_that_differ_only_in_their_number_are_two_players_not_a_typo(tournament):
    # The test suite's own "Annegret Vogelsang-Meier 0" and "… 1" were asked about
    # (one character apart in a long name); a club numbers namesakes the same way.
    PlayerFactory(club=tournament.club, name="Annegret Vogelsang-Meier 0")
    entries_paste(tournament=tournament, text="Annegret Vogelsang-Meier 1", by=BY)
    assert entered(tournament) == ["Annegret Vogelsang-Meier 1"]
    assert Player.objects.filter(name__startswith="Annegret").count() == 2
