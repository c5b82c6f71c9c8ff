"""The results screen: a round's games one row each, saved one game at a time in the
background (htmx posts, answered with the game's row as an HTML fragment), and the
pages that keep themselves current (304 until something they show changes)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, ResultSubmission, Round
from tournaments.results.services.result_path import pieces_out
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": "live-poll"}


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
    return client.post(url, data, **HTMX)


def row_error(html: str) -> str:
    """The message a row answered shows next to its field."""
    return re.search(r'class="row-error" data-error[^>]*>([^<]*)', html)[1].strip()


def invalid_fields(html: str) -> list[str]:
    """The names of the row's fields marked invalid."""
    return re.findall(r'<(?:input|textarea)[^>]*name="(\w+)"[^>]*aria-invalid="true"', html)


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
    assert "agon/results.js" in html and "agon/poll.js" in html and 'name="agon-live"' in html
    assert "vendor/htmx-2.0.11.min.js" in html and 'name="htmx-config"' in html
    # htmx saves a game's field when it changes; the answer replaces the field's row.
    assert html.count('hx-trigger="change"') == len(games(round_))


def test_saving_one_game_answers_its_row_and_the_progress_and_leaves_the_others(client, screen):
    first, *others = games(screen)
    before = versions(screen)
    response = save(client, first, "3 1")
    assert response.status_code == 200
    html = response.content.decode()
    first.refresh_from_db()
    assert first.out_list(2) == [3, 1] and first.status == "finished" and first.confirmed
    assert html.strip().startswith(f'<tr id="game-{first.pk}"')
    assert f'data-live-version="{first.version}"' in html and "data-invalid" not in html
    assert 'value="3 1"' in html and "3:1" in html and row_error(html) == ""
    # The round's progress, swapped in beside the row.
    assert 'id="round-progress"' in html and 'hx-swap-oob="innerHTML"' in html
    assert f"1 of {len(others) + 1} games in" in html
    assert html.count("<tr") == 1
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


@pytest.mark.parametrize(
    ("text", "seats", "message"),
    [
        ("3", 2, "one number per seat: seat 2 is missing"),
        ("3", 3, "one number per seat: seats 2–3 are missing"),
        ("3 1 0", 2, "one number per seat: 1 number too many for 2 seats"),
        ("3 1 0 2", 2, "one number per seat: 2 numbers too many for 2 seats"),
    ],
)
def test_a_count_of_numbers_off_says_which_seats_miss_one_or_how_many_too_many(
    text, seats, message
):
    with pytest.raises(ServiceError) as refused:
        pieces_out(text, seats, 3)
    assert refused.value.message == message


def test_a_refused_result_is_a_400_with_the_services_message_for_that_input(client, screen):
    game = games(screen)[0]
    before = versions(screen)
    response = save(client, game, "3 9")
    assert response.status_code == 400
    html = response.content.decode()
    assert row_error(html) == "seat 2: pieces out must be between 0 and 3, not 9"
    assert invalid_fields(html) == ["out"] and "data-invalid" in html
    # What was typed stays in the field, for the organiser to correct.
    assert 'value="3 9"' in html
    assert versions(screen) == before
    unreadable = save(client, game, "3 x")
    assert unreadable.status_code == 400
    assert "only numbers" in row_error(unreadable.content.decode())
    too_few = save(client, game, "3")
    assert too_few.status_code == 400
    assert row_error(too_few.content.decode()) == "one number per seat: seat 2 is missing"
    assert versions(screen) == before


def test_a_bad_colour_is_refused_next_to_its_field(client, screen):
    game = games(screen)[0]
    response = save(client, game, "3 1", colours_1="rx")
    assert response.status_code == 400
    html = response.content.decode()
    assert invalid_fields(html) == ["colours_1"] and 'value="rx"' in html
    assert "<details open>" in html  # the field at fault is under "more"
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
    html = response.content.decode()
    assert invalid_fields(html) == ["out"] and "changed by someone else" in row_error(html)
    # The row shows what counts now (the other device's result) beside what was typed,
    # keeps the version typed against (leaving the field again is refused again) and
    # offers the current result: a GET of the same URL answers the row as it now is.
    first.refresh_from_db()
    assert "1:3" in html and 'value="3 1"' in html
    assert f'name="version" value="{stale}"' in html
    url = reverse("round-result-save", args=[screen.tournament.slug, 1, first.pk])
    assert f'class="show-current" hx-get="{url}"' in html
    current = client.get(url, **HTMX)
    assert current.status_code == 200 and "1:3" in current.content.decode()
    assert f'name="version" value="{first.version}"' in current.content.decode()
    assert first.out_list(2) == [1, 3]
    assert save(client, second, "3 0").status_code == 200


def test_posting_a_games_result_again_changes_nothing(client, screen):
    game = games(screen)[0]
    save(client, game, "3 1")
    game.refresh_from_db()
    before = versions(screen)
    again = save(client, game, "31")
    assert again.status_code == 200
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
    response = client.post(accept, {"version": game.version}, **HTMX)
    total = len(games(screen))
    assert response.status_code == 200 and f"1 of {total} games in" in response.content.decode()
    game.refresh_from_db()
    assert game.confirmed and game.out_list(2) == [3, 2]
    again = client.post(accept, {"version": game.version}, **HTMX)
    assert again.status_code == 409 and "no longer open" in row_error(again.content.decode())


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
    assert client.post(url, **HTMX).status_code == 200
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
    # Not an htmx request (a page's form, or any other client): a redirect, never a row.
    plain = client.post(url, {"out": "3 1", "version": game.version}, HTTP_ACCEPT="text/html")
    assert plain.status_code == 302 and plain["Location"].endswith(f"#game-{game.pk}")
    assert client.get(url).status_code == 302


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
    assert client.post(url, {"out": "3 1", "version": game.version}, **HTMX).status_code == 404


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


def test_a_page_fetched_without_the_poll_header_is_never_the_polls_304(client, organiser):
    """The poll answers a fragment; a plain GET naming the poll's ETag gets the whole
    page, under an ETag of its own (issue 44: conditional GETs for every client), which
    a later plain GET may name for its own 304."""
    round_ = running(organiser)
    url = reverse("tournament-standings", args=[round_.tournament.slug])
    etag = poll(client, url)["ETag"]
    plain = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert plain.status_code == 200 and b"<html" in plain.content
    assert "ETag" in plain and plain["ETag"] != etag
    assert client.get(url, HTTP_IF_NONE_MATCH=plain["ETag"]).status_code == 304
    assert poll(client, url, plain["ETag"]).status_code == 200


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


def test_the_last_result_in_offers_closing_the_round_and_a_closed_round_pairing_the_next(
    client, organiser
):
    """Issue 27, item 2: the results screen has a way on. The save that brings the last
    game in answers the progress with the close button (out of band); before, none."""
    client.force_login(organiser)
    round_ = running(organiser)
    tournament = round_.tournament
    *first, last = games(round_)
    for game in first:
        assert "way-on" not in save(client, game, "3 1").content.decode()
    answer = save(client, last, "3 0").content.decode()
    close = reverse("round-action", args=[tournament.slug, round_.number, "close"])
    assert f'action="{close}"' in answer and "close round 1" in answer
    round_close(round=round_, by=Actor.command())
    page = client.get(reverse("round-results", args=[tournament.slug, round_.number]))
    assert f'action="{reverse("round-pair", args=[tournament.slug])}"' in page.content.decode()
