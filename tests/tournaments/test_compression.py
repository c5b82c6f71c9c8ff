"""Pages and JSON answers go out gzip-compressed to a client that accepts gzip, plain to
one that does not (GZipMiddleware, config/settings.py); and every poller still gets its
304s, although a compressed answer carries its ETag weakened (W/"…")."""

from __future__ import annotations

import gzip
import json

import pytest
from django.urls import reverse

from games.pentagame.playout import random_game
from tests.factories import UserFactory, tournament_with_players
from tournaments.core.poll import etag_matches
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_moves, game_record_out

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
# The headers of the live pages' own poll (tournaments/core/poll.py).
POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": "live-poll"}
COMMAND = Actor.command()


def running(players: int = 4, **kwargs):
    tournament = tournament_with_players(players, **kwargs)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    return tournament, round_


def first_game(round_) -> Game:
    return Game.objects.filter(table__round=round_).order_by("table__number", "number").first()


def test_a_page_is_gzipped_for_a_client_that_accepts_gzip_and_plain_for_one_that_does_not(
    client,
):
    _, round_ = running(2)
    game = game_record_moves(
        by=COMMAND, game=first_game(round_), moves=random_game(2, seed=3, max_plies=3000)
    )
    url = reverse("games:replay", args=[game.pk])
    plain = client.get(url)
    packed = client.get(url, **GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain and plain.content.startswith(b"<!doctype html>")
    assert packed["Content-Encoding"] == "gzip"
    assert int(packed["Content-Length"]) == len(packed.content)
    # Caches keep the two apart.
    assert "Accept-Encoding" in plain["Vary"] and "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content)
    assert html.startswith(b"<!doctype html>") and b'id="pg-data"' in html
    assert b'name="csrfmiddlewaretoken"' in html
    assert len(packed.content) * 3 < len(plain.content)


def test_json_answers_are_gzipped_for_a_client_that_accepts_gzip(client):
    tournament, round_ = running(8)
    game = game_record_moves(by=COMMAND, game=first_game(round_), moves=["Wxr:G2W", "Bxg:B1R"])
    for url in (
        reverse("games:state", args=[game.pk]),  # a page's own JSON
        f"/api/v1/tournaments/{tournament.slug}/entries/",  # the REST API
    ):
        plain = client.get(url)
        packed = client.get(url, **GZIP)
        assert plain.status_code == packed.status_code == 200, url
        assert "Content-Encoding" not in plain, url
        assert packed["Content-Encoding"] == "gzip", url
        assert json.loads(gzip.decompress(packed.content)) == plain.json(), url


def test_the_standings_poll_answers_304_to_the_weak_etag_of_a_compressed_answer(
    client, django_assert_max_num_queries
):
    tournament, _ = running(6)
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    first = client.get(url, **GZIP)  # rendered by the view, and kept for the next pollers
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')
    # The published tournament's polls are answered by StandingsPollMiddleware: one query.
    with django_assert_max_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **GZIP)
    with django_assert_max_num_queries(1):
        stale = client.get(url, HTTP_IF_NONE_MATCH='W/"an-older-version"', **GZIP)
    assert again.status_code == 304 and again["ETag"] == first["ETag"].removeprefix("W/")
    assert stale.status_code == 200 and stale["Content-Encoding"] == "gzip"
    assert gzip.decompress(stale.content) == gzip.decompress(first.content)
    # A client that does not compress still gets its 304 for the strong ETag.
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


def test_the_standings_view_answers_304_to_the_weak_etag_of_a_compressed_answer(client):
    """An unpublished tournament's standings, for its director: the view's own 304."""
    tournament, _ = running(6, published=False)
    director = UserFactory()
    tournament.directors.add(director)
    client.force_login(director)
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    first = client.get(url, **GZIP)
    assert first.status_code == 200 and first["ETag"].startswith('W/"')
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **GZIP).status_code == 304


def test_the_projector_data_answers_304_to_the_weak_etag_of_a_compressed_answer(client):
    tournament, round_ = running(4)
    url = reverse("projector-data", args=[tournament.slug])
    first = client.get(url, **GZIP)
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **GZIP).status_code == 304
    game_record_out(by=COMMAND, game=first_game(round_), out=[3, 1])
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **GZIP).status_code == 200


def test_a_live_pages_poll_answers_304_to_the_weak_etag_of_a_compressed_answer(client):
    tournament, round_ = running(4)
    url = reverse("round-detail", args=[tournament.slug, 1])
    first = client.get(url, **POLL, **GZIP)
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL, **GZIP).status_code == 304
    game_record_out(by=COMMAND, game=first_game(round_), out=[3, 1])
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL, **GZIP)
    assert changed.status_code == 200 and b"3:1" in gzip.decompress(changed.content)


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('"abc"', True),
        ('W/"abc"', True),
        ('"other", W/"abc"', True),
        ("*", True),
        ('"abcd"', False),
        ('W/"ab"', False),
        ("abc", False),  # not a quoted ETag
        ("", False),
        (None, False),
    ],
)
def test_if_none_match_compares_etags_weakly(header, matches):
    assert etag_matches(header, '"abc"') is matches
    assert etag_matches(header, 'W/"abc"') is matches
