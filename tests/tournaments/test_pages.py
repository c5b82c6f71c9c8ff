from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import AuditEntry, Game, Round, Tournament
from tournaments.results.services.results import Actor, game_record_out
from tournaments.standings.selectors.standings import tournament_scores

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = UserFactory(username="org")
    club = ClubFactory(name="Hamburg", slug="hamburg")
    club.organisers.add(user)
    client.force_login(user)
    return user


def test_an_organiser_runs_a_round_through_the_pages(client, organiser):
    club = organiser.organised_clubs.get()
    response = client.post(
        reverse("tournament-create"),
        {
            "club": club.pk,
            "name": "Winter Open",
            "game": "pentagame",
            "kind": "swiss",
            "rounds_planned": 3,
            "policy": "pairs+triple",
            "games_per_turn_2": 3,
            "games_per_turn_3": 2,
            "factor_2": "2",
            "factor_3": "3",
            "target": 3,
            "absence_score": "0",
            "published": "on",
        },
    )
    tournament = Tournament.objects.get(slug="winter-open")
    assert response.status_code == 302
    client.post(reverse("entries-paste", args=["winter-open"]), {"players": "A\nB\nC\nD\nE"})
    assert tournament.entries.count() == 5
    client.post(reverse("round-pair", args=["winter-open"]))
    round_ = tournament.rounds.get()
    page = client.get(reverse("tournament-manage", args=["winter-open"]))
    assert b"Publish round 1" in page.content
    client.post(reverse("round-action", args=["winter-open", 1, "publish"]))
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        data = {"game": game.pk, "version": game.version, "finished": "1", "out_1": 3, "out_2": 1}
        if seats == 3:
            data["out_3"] = 2
        r = client.post(reverse("round-results", args=["winter-open", 1]), data)
        assert r.status_code == 302
    assert not Game.objects.filter(table__round=round_, status="pending").exists()
    client.post(reverse("round-action", args=["winter-open", 1, "close"]))
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    standings = client.get(reverse("tournament-standings", args=["winter-open"]) + "?format=json")
    rows = standings.json()["rows"]
    assert len(rows) == 5
    # Zero-sum per game: a table of 2 (3 games x 6 x factor 2) + one of 3 (2 games x 9 x 3).
    assert sum(r["score"] for r in rows) == pytest.approx(3 * 6 * 2 + 2 * 9 * 3)


def test_a_bad_result_is_reported_next_to_the_game_and_nothing_is_saved(client, organiser):
    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    response = client.post(
        reverse("round-results", args=[tournament.slug, 1]),
        {"game": game.pk, "version": game.version, "finished": "1", "out_1": 3, "out_2": 9},
        follow=True,
    )
    assert b"seat 2: pieces out must be between 0 and 3, not 9" in response.content
    game.refresh_from_db()
    assert game.status == "pending"


def test_directors_of_another_tournament_are_refused(client):
    tournament = tournament_with_players(4)
    client.force_login(UserFactory(username="stranger"))
    response = client.post(reverse("round-pair", args=[tournament.slug]))
    assert response.status_code == 403
    assert not tournament.rounds.exists()


def test_unpublished_tournaments_and_rounds_are_hidden_from_the_public(client):
    hidden = tournament_with_players(4, published=False)
    assert client.get(reverse("tournament-detail", args=[hidden.slug])).status_code == 404
    shown = tournament_with_players(4)
    round_pair_next(tournament=shown, by=Actor.command())
    assert client.get(reverse("tournament-detail", args=[shown.slug])).status_code == 200
    assert client.get(reverse("round-detail", args=[shown.slug, 1])).status_code == 404


def test_players_report_through_their_own_links_and_an_opponent_confirms(client):
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    table = round_.tables.get()
    game = table.games.get(number=1)
    first, second = table.seats.order_by("position")
    url = reverse("seat-report", args=[second.report_token])
    page = client.get(url)
    assert page.status_code == 200 and second.entry.player.name in page.content.decode()
    report = {"game": game.pk, "version": game.version, "finished": "1", "out_1": 1, "out_2": 3}
    client.post(url, report)
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3] and not game.confirmed and game.reported_by_position == 2
    # Not counted yet: the round cannot close and standings ignore it.
    assert set(tournament_scores(tournament=tournament).values()) == {0.0}
    response = client.post(url, {"game": game.pk, "confirm": "1"}, follow=True)
    assert b"confirmed by an opponent" in response.content
    game.refresh_from_db()
    assert not game.confirmed
    client.post(
        reverse("seat-report", args=[first.report_token]), {"game": game.pk, "confirm": "1"}
    )
    game.refresh_from_db()
    assert game.confirmed
    assert client.get(reverse("seat-report", args=["not-a-token"])).status_code == 404


def test_a_players_link_reports_as_that_player_whatever_seat_the_form_names(client):
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    table = round_.tables.get()
    game = table.games.get(number=1)
    first = table.seats.get(position=1)
    client.post(
        reverse("seat-report", args=[first.report_token]),
        {
            "game": game.pk,
            "version": game.version,
            "finished": "1",
            "out_1": 1,
            "out_2": 3,
            "position": 2,
        },
    )
    game.refresh_from_db()
    assert game.reported_by_position == 1 and not game.confirmed


def test_exports_and_a_lossless_import(client, organiser):
    tournament = tournament_with_players(5, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(by=DIRECTOR, game=game, out=[3, 0, 1][: game.table.seats.count()])
    round_close(round=round_, by=Actor.command())
    csv_text = client.get(reverse("tournament-standings", args=[tournament.slug]) + "?format=csv")
    assert csv_text.content.decode().splitlines()[0].startswith("rank,player,score")
    pairings = client.get(
        reverse("round-detail", args=[tournament.slug, 1]) + "?format=json"
    ).json()
    assert sum(len(t["players"]) for t in pairings["tables"]) == 5
    document = client.get(reverse("tournament-export", args=[tournament.slug])).json()
    before = client.get(
        reverse("tournament-standings", args=[tournament.slug]) + "?format=json"
    ).json()
    tournament.delete()
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "t.json"
    client.post(reverse("tournament-import"), {"document": upload, "players_by_name": "1"})
    again = client.get(reverse("tournament-export", args=[document["tournament"]["slug"]])).json()
    # The same document, and the log says it was imported.
    assert again["audit"][-1]["action"] == "import"
    assert {**again, "audit": again["audit"][:-1]} == document
    after = client.get(
        reverse("tournament-standings", args=[document["tournament"]["slug"]]) + "?format=json"
    ).json()
    assert [(r["player"], r["score"]) for r in after["rows"]] == [
        (r["player"], r["score"]) for r in before["rows"]
    ]


def test_an_import_of_a_broken_document_creates_nothing(client, organiser):
    upload = io.BytesIO(
        b'{"format": "agon-tournament", "version": 1, "club": {"slug": "x", "name": "X"}}'
    )
    upload.name = "t.json"
    response = client.post(reverse("tournament-import"), {"document": upload}, follow=True)
    assert b"tournament: This field is required." in response.content
    assert not Tournament.objects.exists()


def test_editing_a_closed_round_through_the_page_is_audited(client, organiser):
    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=DIRECTOR, game=game, out=[3, 2])
    round_close(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    client.post(
        reverse("round-results", args=[tournament.slug, 1]),
        {
            "game": game.pk,
            "version": game.version,
            "finished": "1",
            "out_1": 2,
            "out_2": 3,
            "correction": "1",
        },
    )
    assert AuditEntry.objects.filter(action="edit result", user__username="org").exists()


def test_a_published_round_shows_each_seats_chance_before_play(
    client, django_capture_on_commit_callbacks
):
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=DIRECTOR, game=game, out=[3, 0])
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=Actor.command())
    second = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=second, by=Actor.command())
    page = client.get(reverse("round-detail", args=[tournament.slug, 2]))
    assert page.status_code == 200
    chances = [seat.chance for table in page.context["tables"] for seat in table.seats]
    assert all(c is not None and 0 < c < 1 for c in chances)
    # Two seats per table: their chances add up to one.
    for table in page.context["tables"]:
        assert sum(s.chance for s in table.seats) == pytest.approx(1.0)


@pytest.mark.parametrize("value", ["abc", "1.5", "-3", "１２", "9" * 40, ""])
def test_a_results_or_report_form_naming_no_game_is_a_404_and_changes_nothing(
    client, organiser, value
):
    from tournaments.models import Seat

    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    data = {"game": value, "version": 0, "finished": "1", "out_1": 3, "out_2": 1}
    manage = client.post(reverse("round-results", args=[tournament.slug, 1]), data)
    token = Seat.objects.filter(round=round_).first().report_token
    report = Client().post(reverse("seat-report", args=[token]), data)
    assert manage.status_code == 404 and report.status_code == 404
    assert not Game.objects.filter(table__round=round_).exclude(status="pending").exists()
