"""A closed club evening and a finished tournament are read-only for their players
(issue 27, item 1): the run page offers no entering, late entry, skip, withdrawal,
check-in or report links, says how to go on and keeps only the ways back; the services
refuse those writes too (409), whoever calls them, and take them again once the event
runs again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError
from tournaments.desk.services import entries as entry_services
from tournaments.desk.services.evenings import evening_close, evening_reopen
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import team_add, team_dissolve
from tournaments.desk.services.tournaments import forbidden_pair_add, tournament_add_rounds
from tournaments.models import Entry, ForbiddenPair, Game, Round, Skip, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


def play(tournament: Tournament) -> Round:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        out = [3, 1, 2, 1] if seats == 4 else [3] + [1] * (seats - 1)  # 4: a team table
        game_record_out(game=game, out=out, by=BY)
    return round_close(round=round_, by=BY)


def director_of(tournament: Tournament) -> Actor:
    user = UserFactory()
    tournament.directors.add(user)
    return Actor.director(user)


def closed_evening() -> Tournament:
    """Five entered, four checked in and seated, Emil never came; closed and rated."""
    evening = TournamentFactory(kind=Tournament.Kind.EVENING, slug="night", name="Night")
    for name in ("Anna", "Bert", "Cleo", "Dora", "Emil"):
        entry_services.entry_add(tournament=evening, name=name, by=BY)
    for entry in evening.entries.exclude(player__name="Emil"):
        entry_services.entry_check_in(entry=entry, by=BY)
    play(evening)
    return evening_close(tournament=evening, by=BY)


def director_client(tournament: Tournament) -> Client:
    user = UserFactory()
    tournament.directors.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_the_services_refuse_every_players_write_on_a_closed_evening():
    evening = closed_evening()
    director = director_of(evening)
    anna = evening.entries.get(player__name="Anna")
    emil = evening.entries.get(player__name="Emil")
    refused = {
        "enter": lambda: entry_services.entry_add(tournament=evening, name="Zoe", by=BY),
        "paste": lambda: entry_services.entries_paste(tournament=evening, text="Zoe", by=BY),
        "withdraw": lambda: entry_services.entry_withdraw(entry=anna, by=BY),
        "delete": lambda: entry_services.entry_delete(entry=emil, by=BY),
        "skip": lambda: entry_services.entry_skip(entry=anna, round_number=2, by=BY),
        "unskip": lambda: entry_services.entry_unskip(entry=anna, round_number=2, by=BY),
        "check in": lambda: entry_services.entry_check_in(entry=emil, by=BY),
        "everyone": lambda: entry_services.entries_check_in_all(tournament=evening, by=BY),
        "reseed": lambda: entry_services.entries_reseed_by_rating(tournament=evening, by=BY),
        "forbid": lambda: forbidden_pair_add(
            tournament=evening, first=anna, second=emil, by=director
        ),
    }
    for what, write in refused.items():
        with pytest.raises(ConflictError, match="the evening is closed; reopen it first"):
            write()
            pytest.fail(f"{what} was not refused")
    assert evening.entries.count() == 5
    assert not evening.entries.filter(status=Entry.Status.WITHDRAWN).exists()
    assert not Skip.objects.exists() and not ForbiddenPair.objects.exists()
    # Reopened, the evening takes them again.
    evening_reopen(tournament=evening, by=BY)
    entry_services.entry_withdraw(entry=anna, by=BY)
    entry_services.entry_delete(entry=emil, by=BY)
    assert list(evening.entries.values_list("player__name", "status")) == [
        ("Anna", "withdrawn"),
        ("Bert", "active"),
        ("Cleo", "active"),
        ("Dora", "active"),
    ]


def test_a_finished_tournament_refuses_them_until_rounds_are_added():
    cup = tournament_with_players(4, slug="cup", rounds_planned=1)
    play(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    first = cup.entries.get(seed=1)
    with pytest.raises(ConflictError, match="the tournament is finished; add rounds first"):
        entry_services.entry_withdraw(entry=first, by=BY)
    with pytest.raises(ConflictError, match="add rounds first"):
        entry_services.entries_reseed_by_rating(tournament=cup, by=BY)
    tournament_add_rounds(tournament=cup, count=1, by=director_of(cup))
    assert entry_services.entry_withdraw(entry=first, by=BY).status == Entry.Status.WITHDRAWN


def test_a_finished_team_event_keeps_its_teams():
    event = TournamentFactory(kind=Tournament.Kind.TEAMS, slug="pairs", rounds_planned=1)
    for name, players in (("Stars", ["Ann", "Bea"]), ("Moons", ["Cid", "Dan"])):
        team_add(tournament=event, name=name, players=players, by=BY)
    play(event)
    with pytest.raises(ConflictError, match="add rounds first"):
        team_add(tournament=event, name="Suns", players=["Eve", "Fay"], by=BY)
    stars = event.teams.get(name="Stars")
    with pytest.raises(ConflictError, match="add rounds first"):
        team_dissolve(team=stars, by=BY)
    # Its run page lists the teams without their actions or the forms to enter more.
    page = director_client(event).get(reverse("tournament-manage", args=["pairs"]))
    html = page.content.decode()
    assert 'id="team-' + str(stars.pk) + '"' in html
    for gone in ('id="teams-paste"', 'id="team-form"', "/withdraw/", "/dissolve/", "/edit/"):
        assert gone not in html, gone


def test_the_run_page_of_a_closed_evening_is_read_only():
    evening = closed_evening()
    client = director_client(evening)
    page = client.get(reverse("tournament-manage", args=["night"])).content.decode()
    assert 'id="read-only"' in page
    assert "This evening is closed and rated" in page
    assert "Reopen the evening" in page
    for gone in (
        'id="paste"',  # Enter players
        'id="late"',  # Late entry
        'id="skip"',  # the announced skips' form
        reverse("entries-skip", args=["night"]),
        reverse("check-in", args=["night"]),
        reverse("entries-reseed", args=["night"]),
        reverse("forbidden-add", args=["night"]),
        "/withdraw/",
        "/delete/",
        "/report/",  # the seats' report links
        'class="report-link"',
        "Propose tables for the next round",
        "Close the evening and rate it",
    ):
        assert gone not in page, gone
    # The players are still listed, as they ended.
    for name in ("Anna", "Bert", "Cleo", "Dora", "Emil"):
        assert f">{name}</a>" in page
    # A doctored post is refused by the service and changes nothing.
    anna = evening.entries.get(player__name="Anna")
    response = client.post(reverse("entry-withdraw", args=["night", anna.pk]), {"confirm": "yes"})
    assert response.status_code == 409
    assert "the evening is closed; reopen it first" in response.content.decode()
    response = client.post(
        reverse("entries-skip", args=["night"]),
        {"entry": anna.pk, "round_number": "2", "bye": "0"},
    )
    assert response.status_code == 409
    assert Entry.objects.get(pk=anna.pk).status == Entry.Status.ACTIVE
    assert not Skip.objects.exists()


def test_the_run_page_of_a_finished_tournament_offers_only_the_ways_back():
    cup = tournament_with_players(4, slug="cup", rounds_planned=1)
    play(cup)
    client = director_client(cup)
    page = client.get(reverse("tournament-manage", args=["cup"])).content.decode()
    assert "This tournament is finished" in page
    assert "Add rounds" in page and "Reopen round 1" in page
    for gone in ('id="paste"', 'id="late"', 'id="skip"', "/withdraw/", "/report/"):
        assert gone not in page, gone
    # Once it runs again, the page is the running one.
    tournament_add_rounds(tournament=cup, count=1, by=director_of(cup))
    page = client.get(reverse("tournament-manage", args=["cup"])).content.decode()
    assert 'id="read-only"' not in page
    assert 'id="paste"' in page and 'id="skip"' in page and "/withdraw/" in page
