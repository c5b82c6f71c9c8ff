"""The results screen: a round's games one row each, saved one game at a time in the
background (JSON answers), and the pages that keep themselves current (304 until
something they show changes)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.models import Game, ResultSubmission, Round
from tournaments.services.results import Actor, game_record_out
from tournaments.services.rounds import round_close, round_pair_next, round_publish
from tournaments.views_manage import pieces_out

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
LIVE = {"HTTP_X_AGON_LIVE": "1"}


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    ClubFactory(name="Kiel", slug="kiel").organisers.add(user)
    return user


def running(organiser, players: int = 4) -> Round:
    # Each tournament in a club of its own: the factory's player names repeat.
    club = ClubFactory()
    club.organisers.add(organiser)
    tournament = tournament_with_players(players, club=club)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return round_


def games(round_: Round) -> list[Game]:
    return list(
        Game.objects.filter(table__round=round_, table__is_bye=False)
        .select_related("table")
        .order_by("table__number", "number")
    )


def save(client, game: Game, out: str, version: int | None = None, **extra):
    round_ = game.table.round
    url = reverse("round-result-save", args=[round_.tournament.slug, round_.number, game.pk])
    data = {"out": out, "version": game.version if version is None else version, **extra}
    return client.post(url, data, **JSON)


def versions(round_: Round) -> dict[int, int]:
    return dict(Game.objects.filter(table__round=round_).values_list("pk", "version"))


@pytest.fixture
def screen(client, organiser):
    client.force_login(organiser)
    return running(organiser)


def test_the_screen_shows_every_game_as_a_row_with_the_rounds_progress(client, screen):
    round_ = screen
    page = client.get(reverse("round-results", args=[round_.tournament.slug, 1]))
    html = page.content.decode()
    assert page.status_code == 200
    for game in games(round_):
        assert f'id="out-{game.pk}"' in html
    assert html.count('class="pieces-out"') == len(games(round_))
    assert f"0 of {len(games(round_))} games in" in html
    assert "agon/results.js" in html and "agon/live.js" in html and 'name="agon-live"' in html


def test_saving_one_game_answers_its_row_and_the_progress_and_leaves_the_others(client, screen):
    first, *others = games(screen)
    before = versions(screen)
    response = save(client, first, "3 1")
    assert response.status_code == 200
    body = response.json()
    first.refresh_from_db()
    assert first.out_list(2) == [3, 1] and first.status == "finished" and first.confirmed
    assert body["saved"] is True and body["version"] == first.version
    assert 'value="3 1"' in body["row"] and "3:1" in body["row"]
    assert body["progress"] == {
        "done": 1,
        "total": len(others) + 1,
        "text": f"1 of {len(others) + 1} games in",
    }
    after = versions(screen)
    assert all(after[g.pk] == before[g.pk] for g in others)
    assert ResultSubmission.objects.get(game=first).by_user.username == "org"


@pytest.mark.parametrize(
    ("text", "out", "finished"),
    [
        ("31", [3, 1], True),
        ("3:1", [3, 1], True),
        (" 2 1 u", [2, 1], False),
        ("21U", [2, 1], False),
    ],
)
def test_pieces_out_are_read_spaced_run_together_or_marked_unfinished(text, out, finished):
    assert pieces_out(text, 2, 3) == (out, finished)


def test_a_refused_result_is_a_400_with_the_services_message_for_that_input(client, screen):
    game = games(screen)[0]
    before = versions(screen)
    response = save(client, game, "3 9")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error == {
        "code": "invalid",
        "field": "out",
        "message": "seat 2: pieces out must be between 0 and 3, not 9",
    }
    assert versions(screen) == before
    unreadable = save(client, game, "3 x")
    assert unreadable.status_code == 400 and "only numbers" in unreadable.json()["error"]["message"]
    too_few = save(client, game, "3")
    assert (
        too_few.status_code == 400 and "1 numbers for 2 seats" in too_few.json()["error"]["message"]
    )
    assert versions(screen) == before


def test_a_bad_colour_is_refused_next_to_its_field(client, screen):
    game = games(screen)[0]
    response = save(client, game, "3 1", colours_1="rx")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "colours_1"
    game.refresh_from_db()
    assert game.status == "pending"


def test_a_stale_version_is_a_409_on_that_game_only_and_keeps_the_other_result(
    client, screen, organiser
):
    first, second = games(screen)[:2]
    stale = first.version
    game_record_out(game=first, out=[1, 3], by=Actor.director(organiser))
    response = save(client, first, "3 1", version=stale)
    assert response.status_code == 409
    body = response.json()
    assert body["error"]["field"] == "out" and "changed by someone else" in body["error"]["message"]
    # The row it answers is the game as it now is, for the organiser to look at.
    assert "1:3" in body["row"]
    first.refresh_from_db()
    assert first.out_list(2) == [1, 3]
    assert save(client, second, "3 0").status_code == 200


def test_posting_a_games_result_again_changes_nothing(client, screen):
    game = games(screen)[0]
    save(client, game, "3 1")
    game.refresh_from_db()
    before = versions(screen)
    again = save(client, game, "31")
    assert again.status_code == 200 and again.json()["saved"] is False
    assert versions(screen) == before
    assert ResultSubmission.objects.filter(game=game).count() == 1


def test_a_waiting_report_is_shown_and_accepted_on_the_screen(client, screen):
    game = games(screen)[0]
    seat = game.table.seats.get(position=1)
    game_record_out(game=game, out=[3, 2], by=Actor.player(seat))
    page = client.get(reverse("round-results", args=[screen.tournament.slug, 1])).content.decode()
    report = ResultSubmission.objects.get(game=game)
    accept = reverse("round-result-accept", args=[screen.tournament.slug, 1, report.pk])
    assert accept in page and "awaiting confirmation" in page
    game.refresh_from_db()
    response = client.post(accept, {"version": game.version}, **JSON)
    assert response.status_code == 200 and response.json()["progress"]["done"] == 1
    game.refresh_from_db()
    assert game.confirmed and game.out_list(2) == [3, 2]
    again = client.post(accept, {"version": game.version}, **JSON)
    assert again.status_code == 409 and "no longer open" in again.json()["error"]["message"]


def test_a_dispute_is_shown_with_both_reports_and_settled_by_accepting_one(client, screen):
    game = games(screen)[0]
    first, second = game.table.seats.order_by("position")
    game_record_out(game=game, out=[3, 1], by=Actor.player(first))
    game_record_out(game=game, out=[1, 3], by=Actor.player(second))
    page = client.get(reverse("round-results", args=[screen.tournament.slug, 1])).content.decode()
    assert "disputed: the organiser decides" in page
    reports = list(ResultSubmission.objects.filter(game=game).order_by("pk"))
    for report in reports:
        assert reverse("round-result-accept", args=[screen.tournament.slug, 1, report.pk]) in page
    url = reverse("round-result-accept", args=[screen.tournament.slug, 1, reports[1].pk])
    assert client.post(url, **JSON).status_code == 200
    game.refresh_from_db()
    assert game.confirmed and game.out_list(2) == [1, 3]


def test_without_javascript_a_row_is_saved_and_the_screen_shown_again(client, screen):
    game = games(screen)[0]
    url = reverse("round-result-save", args=[screen.tournament.slug, 1, game.pk])
    response = client.post(url, {"out": "3 9", "version": game.version}, follow=True)
    assert b"pieces out must be between 0 and 3, not 9" in response.content
    response = client.post(url, {"out": "3 1", "version": game.version}, follow=True)
    total = len(games(screen))
    assert b"result saved" in response.content
    assert f"1 of {total} games in".encode() in response.content


def test_only_the_tournaments_directors_may_save(client, organiser):
    round_ = running(organiser)
    client.force_login(UserFactory(username="stranger"))
    game = games(round_)[0]
    assert save(client, game, "3 1").status_code == 403
    game.refresh_from_db()
    assert game.status == "pending"


def test_a_game_of_another_round_is_a_404(client, screen, organiser):
    other = running(organiser)
    game = games(other)[0]
    url = reverse("round-result-save", args=[screen.tournament.slug, 1, game.pk])
    assert client.post(url, {"out": "3 1", "version": game.version}, **JSON).status_code == 404


def _screen_queries(client, round_: Round) -> int:
    url = reverse("round-results", args=[round_.tournament.slug, round_.number])
    client.get(url)  # warm the caches (sessions, standings) like any second visit
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_screens_queries_do_not_grow_with_its_tables(client, organiser):
    client.force_login(organiser)
    small, large = running(organiser, 4), running(organiser, 12)
    for round_ in (small, large):
        for game in games(round_)[:2]:
            game_record_out(game=game, out=[3, 1], by=Actor.player(game.table.seats.first()))
    assert len(games(large)) > 2 * len(games(small))
    assert _screen_queries(client, large) == _screen_queries(client, small)


def test_a_save_answers_with_the_same_queries_however_many_tables(client, organiser):
    client.force_login(organiser)
    counts = []
    for players in (4, 12):
        game = games(running(organiser, players))[0]
        with CaptureQueriesContext(connection) as queries:
            assert save(client, game, "3 1").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def poll(client, url: str, etag: str | None = None):
    headers = dict(LIVE)
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **headers)


def test_the_public_round_page_answers_304_to_its_poll_until_a_result_changes_it(client, organiser):
    round_ = running(organiser)
    url = reverse("round-detail", args=[round_.tournament.slug, 1])
    first = poll(client, url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    assert poll(client, url, etag).status_code == 304
    game_record_out(game=games(round_)[0], out=[3, 1], by=Actor.command())
    changed = poll(client, url, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and b"3:1" in changed.content


def test_a_page_fetched_without_the_poll_header_is_never_a_304(client, organiser):
    round_ = running(organiser)
    url = reverse("tournament-standings", args=[round_.tournament.slug])
    etag = poll(client, url)["ETag"]
    plain = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert plain.status_code == 200 and "ETag" not in plain


def test_the_standings_poll_changes_when_a_round_closes(client, organiser):
    round_ = running(organiser)
    url = reverse("tournament-standings", args=[round_.tournament.slug])
    etag = poll(client, url)["ETag"]
    for game in games(round_):
        game_record_out(game=game, out=[3, 1], by=Actor.command())
    # A result of the round being played is not in the standings yet.
    assert poll(client, url, etag).status_code == 304
    round_close(round=round_, by=Actor.command())
    changed = poll(client, url, etag)
    assert changed.status_code == 200 and b'id="standings-live"' in changed.content


def test_the_open_tables_and_results_pages_poll_too(client, screen):
    for name in ("round-open-tables", "round-results"):
        url = reverse(name, args=[screen.tournament.slug, 1])
        etag = poll(client, url)["ETag"]
        assert poll(client, url, etag).status_code == 304, name
    game = games(screen)[0]
    game_record_out(game=game, out=[3, 1], by=Actor.player(game.table.seats.first()))
    for name in ("round-open-tables", "round-results"):
        url = reverse(name, args=[screen.tournament.slug, 1])
        assert poll(client, url, etag).status_code == 200, name
