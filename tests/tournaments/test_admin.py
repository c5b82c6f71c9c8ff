"""The admin writes through the services: each change form posted by a superuser
changes the data through its service and leaves the service's audit line; a refused
change shows the service's message and changes nothing; what no service edits
(tables, seats, a round's fields, games, the audit log, ratings) cannot be posted."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from ratings.models import PlayerRating
from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    UserFactory,
    tournament_with_players,
)
from tournaments.core.actor import Actor
from tournaments.desk.services import clubs
from tournaments.desk.services import tournaments as tournament_services
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import AuditEntry, Club, ForbiddenPair, Game, Player, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def root() -> Any:
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def admin(root: Any) -> Client:
    client = Client()
    client.force_login(root)
    return client


def form_data(client: Client, url: str) -> dict[str, Any]:
    """What the admin's form posts back unchanged: its fields' current values and the
    inlines' management forms."""
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        if isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        elif value is True:
            data[name] = "on"
        else:
            data[name] = str(value)
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management[name].value()
    return data


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def paired(n: int = 4, **kwargs: Any) -> Tournament:
    tournament = tournament_with_players(n, **kwargs)
    round_pair_next(tournament=tournament, by=Actor.command())
    return tournament


def test_changing_a_tournament_in_the_admin_goes_through_the_service(admin, root):
    tournament = tournament_with_players(4, name="Spring Open", slug="spring-open")
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    data = form_data(admin, url)
    # 4 games × 1.5 at 2 players = 2 games × 3 at 3 players: turns stay even.
    data.update(name="Spring Cup", games_per_turn_2="4", factor_2="1.50", directors=[str(root.pk)])
    response = admin.post(url, data)
    assert response.status_code == 302, messages_of(response)
    tournament.refresh_from_db()
    # The service derived the new address and counted the standings as changed.
    assert (tournament.name, tournament.slug) == ("Spring Cup", "spring-cup")
    assert str(tournament.factor_2) == "1.50"
    assert tournament.standings_version == 1
    assert list(tournament.directors.all()) == [root]
    settings = AuditEntry.objects.get(tournament=tournament, action="settings")
    assert settings.user == root
    assert settings.before == {"name": "Spring Open", "games_per_turn_2": 3, "factor_2": "2.00"}
    assert settings.after == {"name": "Spring Cup", "games_per_turn_2": 4, "factor_2": "1.50"}
    directors = AuditEntry.objects.get(tournament=tournament, action="directors")
    assert (directors.before, directors.after) == ([], ["root"])


def test_adding_a_tournament_in_the_admin_goes_through_the_service(admin, root):
    club = ClubFactory()
    data = form_data(admin, "/admin/tournaments/tournament/add/")
    data.update(club=str(club.pk), name="Winter Open", rounds_planned="5")
    response = admin.post("/admin/tournaments/tournament/add/", data)
    assert response.status_code == 302, messages_of(response)
    tournament = Tournament.objects.get(name="Winter Open")
    assert tournament.slug == "winter-open"
    assert tournament.created_by == root
    assert list(tournament.directors.all()) == [root]
    created = AuditEntry.objects.get(tournament=tournament)
    assert (created.action, created.user) == ("create", root)


def test_a_refused_rename_shows_the_message_and_changes_nothing(admin):
    tournament_with_players(2, name="Taken", slug="taken")
    tournament = tournament_with_players(2, name="Mine", slug="mine")
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    data = form_data(admin, url)
    data.update(name="Taken", factor_2="1.50")
    response = admin.post(url, data)
    assert response.status_code == 302
    assert messages_of(response) == ["a tournament with this name exists already"]
    tournament.refresh_from_db()
    assert (tournament.name, str(tournament.factor_2)) == ("Mine", "2.00")
    assert tournament.standings_version == 0
    assert not AuditEntry.objects.filter(tournament=tournament).exists()


def test_a_game_its_tables_cannot_seat_is_refused_with_the_message(admin):
    tournament = tournament_with_players(3, name="Triple", slug="triple")
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    data = form_data(admin, url)
    data.update(game="pantarei", policy="pairs+triple")
    response = admin.post(url, data)
    assert messages_of(response) == ["this game is played by two: use 2-player tables and a bye"]
    tournament.refresh_from_db()
    assert tournament.game == "pentagame"
    assert not AuditEntry.objects.filter(tournament=tournament).exists()


def test_the_game_of_a_played_tournament_does_not_change_through_the_admin(admin):
    tournament = paired(name="Played", slug="played")
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    data = form_data(admin, url)
    assert "game" not in data  # read-only once round 1 is paired
    data.update(game="pantarei", policy="pairs+bye")
    admin.post(url, data)
    tournament.refresh_from_db()
    assert (tournament.game, tournament.policy) == ("pentagame", "pairs+triple")
    assert not AuditEntry.objects.filter(tournament=tournament, action="settings").exists()


def test_deleting_a_played_tournament_in_the_admin_goes_through_the_service(admin):
    tournament = paired(name="Gone", slug="gone")
    url = f"/admin/tournaments/tournament/{tournament.pk}/delete/"
    with mock.patch(
        "tournaments.admin.tournament_delete", wraps=tournament_services.tournament_delete
    ) as delete:
        response = admin.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert delete.call_count == 1
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Game.objects.exists()


def test_club_changes_in_the_admin_go_through_the_club_services(admin, root):
    club = ClubFactory(name="Old Town", slug="old-town")
    url = f"/admin/tournaments/club/{club.pk}/change/"
    data = form_data(admin, url)
    data.update(city="Bremen", organisers=[str(root.pk)])
    with (
        mock.patch("tournaments.admin.club_update", wraps=clubs.club_update) as update,
        mock.patch(
            "tournaments.admin.club_organisers_set", wraps=clubs.club_organisers_set
        ) as organisers,
    ):
        response = admin.post(url, data)
    assert response.status_code == 302, messages_of(response)
    assert update.call_args.kwargs["by"] == Actor.director(root)
    assert update.call_args.kwargs["city"] == "Bremen"
    assert organisers.call_count == 1
    club.refresh_from_db()
    assert club.city == "Bremen"
    assert list(club.organisers.all()) == [root]


def test_adding_a_club_in_the_admin_goes_through_the_service(admin, root):
    data = form_data(admin, "/admin/tournaments/club/add/")
    data.update(name="New Club", slug="new-club", rating_system="elo", organisers=[str(root.pk)])
    with mock.patch("tournaments.admin.club_create", wraps=clubs.club_create) as create:
        response = admin.post("/admin/tournaments/club/add/", data)
    assert response.status_code == 302, messages_of(response)
    assert create.call_count == 1
    club = Club.objects.get(slug="new-club")
    assert club.rating_system == "elo"
    assert list(club.organisers.all()) == [root]


def test_renaming_a_player_in_the_admin_refreshes_their_standings(admin):
    tournament = tournament_with_players(2, name="Named", slug="named")
    player = tournament.entries.get(seed=1).player
    url = f"/admin/tournaments/player/{player.pk}/change/"
    data = form_data(admin, url)
    data.update(name="Renamed Player")
    response = admin.post(url, data)
    assert response.status_code == 302, messages_of(response)
    player.refresh_from_db()
    assert player.name == "Renamed Player"
    assert Tournament.objects.get(pk=tournament.pk).standings_version == 1


def test_a_player_name_taken_in_the_club_is_refused_with_the_message(admin):
    club = ClubFactory()
    PlayerFactory(name="Ada Lovelace", club=club)
    player = PlayerFactory(name="Bea", club=club)
    url = f"/admin/tournaments/player/{player.pk}/change/"
    data = form_data(admin, url)
    # The form sees a new name; the service joins the spaces and finds it taken.
    data.update(name="Ada  Lovelace")
    response = admin.post(url, data)
    assert messages_of(response) == ["Ada Lovelace is a player of this club already"]
    player.refresh_from_db()
    assert player.name == "Bea"


def test_linking_a_player_to_an_account_in_the_admin_goes_through_the_service(admin):
    player = PlayerFactory(name="Cem")
    account = UserFactory(username="cem")
    url = f"/admin/tournaments/player/{player.pk}/change/"
    data = form_data(admin, url)
    data.update(user=str(account.pk))
    with mock.patch("tournaments.admin.player_update", wraps=clubs.player_update) as update:
        response = admin.post(url, data)
    assert response.status_code == 302, messages_of(response)
    assert update.call_args.kwargs["user"] == account
    assert Player.objects.get(pk=player.pk).user == account


def test_forbidding_and_allowing_a_pair_in_the_admin_is_audited(admin, root):
    tournament = tournament_with_players(4, name="Pairs", slug="pairs")
    first, second = tournament.entries.order_by("seed")[:2]
    data = form_data(admin, "/admin/tournaments/forbiddenpair/add/")
    data.update(tournament=str(tournament.pk), first=str(first.pk), second=str(second.pk))
    response = admin.post("/admin/tournaments/forbiddenpair/add/", data)
    assert response.status_code == 302, messages_of(response)
    pair = ForbiddenPair.objects.get(tournament=tournament)
    forbid = AuditEntry.objects.get(tournament=tournament, action="forbid pair")
    assert (forbid.user, forbid.target) == (root, "P01 / P02")
    response = admin.post(f"/admin/tournaments/forbiddenpair/{pair.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not ForbiddenPair.objects.exists()
    assert AuditEntry.objects.filter(tournament=tournament, action="allow pair").count() == 1


def test_a_pair_from_another_tournament_is_refused_with_the_message(admin):
    tournament = tournament_with_players(2, name="Here", slug="here")
    elsewhere = EntryFactory()
    data = form_data(admin, "/admin/tournaments/forbiddenpair/add/")
    first = tournament.entries.get(seed=1)
    data.update(tournament=str(tournament.pk), first=str(first.pk), second=str(elsewhere.pk))
    response = admin.post("/admin/tournaments/forbiddenpair/add/", data)
    assert messages_of(response) == ["both players must be entered in this tournament"]
    assert not ForbiddenPair.objects.exists()


def test_deleting_the_last_round_in_the_admin_goes_through_the_service(admin, root):
    tournament = paired(name="Rounds", slug="rounds")
    round_ = tournament.rounds.get()
    response = admin.post(f"/admin/tournaments/round/{round_.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302, messages_of(response)
    assert not Round.objects.exists()
    deleted = AuditEntry.objects.get(tournament=tournament, action="delete round")
    assert deleted.user == root
    assert Tournament.objects.get(pk=tournament.pk).status == "draft"


def test_deleting_an_earlier_round_in_the_admin_is_refused_with_the_message(admin):
    tournament = paired(name="Two", slug="two")
    first = tournament.rounds.get()
    round_publish(round=first, by=Actor.command())
    round_close(round=first, by=Actor.command(), force=True)
    round_pair_next(tournament=tournament, by=Actor.command())
    response = admin.post(f"/admin/tournaments/round/{first.pk}/delete/", {"post": "yes"})
    assert messages_of(response) == ["only the last round (2) can be deleted, not round 1"]
    assert list(tournament.rounds.values_list("number", flat=True)) == [1, 2]


@pytest.mark.parametrize(
    ("model", "obj"),
    [
        ("table", lambda t: t.rounds.get().tables.first()),
        ("round", lambda t: t.rounds.get()),
        ("game", lambda t: Game.objects.filter(table__round__tournament=t).first()),
        ("auditentry", lambda t: t.audit.first()),
    ],
)
def test_what_no_service_edits_cannot_be_posted_in_the_admin(admin, model, obj):
    tournament = paired(name="Fixed", slug="fixed")
    target = obj(tournament)
    change = admin.post(f"/admin/tournaments/{model}/{target.pk}/change/", {"number": "9"})
    assert change.status_code == 403
    assert admin.get(f"/admin/tournaments/{model}/add/").status_code == 403
    target.refresh_from_db()
    assert getattr(target, "number", None) != 9


def test_ratings_are_read_only_in_the_admin(admin):
    player = PlayerFactory()
    rating = PlayerRating.objects.create(player=player, system="elo", rating=1500)
    url = f"/admin/ratings/playerrating/{rating.pk}/"
    assert admin.post(f"{url}change/", {"rating": "2000"}).status_code == 403
    assert admin.post(f"{url}delete/", {"post": "yes"}).status_code == 403
    rating.refresh_from_db()
    assert rating.rating == 1500
