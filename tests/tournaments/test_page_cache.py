"""The public pages served from a cache keyed on what they show (issue 44, point 4):
tournaments/core/page_cache.py. Never stale, never shared with someone who may not see
the page or who sees another page, conditional for every client, and read with a fixed
number of queries."""

from __future__ import annotations

import gzip
import re
import zlib

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import F
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory, tournament_with_players
from tournaments.core import poll
from tournaments.core.freshness import standings_changed_for_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Player, Round, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')


def _published(players: int = 4, **kwargs: object) -> tuple:
    tournament = tournament_with_players(players, **kwargs)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    return tournament, round_


def _round_page(client: Client, tournament, number: int = 1, **headers: str):
    return client.get(reverse("round-detail", args=[tournament.slug, number]), **headers)


def _page_etag(response) -> str:
    """The ETag the page embeds for its poller (agon/poll.js): the same for everyone
    who sees the same page."""
    found = re.search(r'<meta name="agon-live" content="([^"]+)"', response.content.decode())
    assert found, "the page embeds its ETag for agon/poll.js"
    return found[1].replace("&quot;", '"')


def _first_game(round_: Round) -> Game:
    return Game.objects.filter(table__round=round_).order_by("table__number", "number").first()


def test_a_result_shows_on_the_next_request_and_an_unchanged_page_is_not_rendered_again(
    client,
):
    tournament, round_ = _published()
    first = _round_page(client, tournament)
    assert first.status_code == 200 and first.context is not None  # rendered
    again = _round_page(Client(), tournament)
    assert again.status_code == 200 and again.context is None  # from the cache
    assert TOKEN.sub("", again.content.decode()) == TOKEN.sub("", first.content.decode())
    result = re.compile(r"\):\s+3:1")
    assert not result.search(first.content.decode())

    game_record_out(by=COMMAND, game=_first_game(round_), out=[3, 1])
    after = _round_page(Client(), tournament)
    assert after.context is not None  # a new key: rendered at once, never the old page
    assert after.content != again.content
    assert result.search(after.content.decode())


def test_a_renamed_player_and_a_closed_round_change_the_page(client):
    tournament, round_ = _published()
    _round_page(client, tournament)
    entry = tournament.entries.select_related("player").first()
    Player.objects.filter(pk=entry.player_id).update(name="Renamed Rita")
    standings_changed_for_players(players=[entry.player_id])
    assert "Renamed Rita" in _round_page(Client(), tournament).content.decode()

    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=COMMAND, game=game, out=[3, 0])
    before_close = _round_page(Client(), tournament).content.decode()
    round_close(round=round_, by=COMMAND)
    closed = _round_page(Client(), tournament)
    assert closed.context is not None and closed.context["round"].status == Round.Status.CLOSED
    assert closed.content.decode() != before_close


def test_each_visitor_gets_a_csrf_token_of_their_own_from_the_cached_page():
    tournament, _ = _published()
    pages = []
    for _ in range(3):
        visitor = Client(enforce_csrf_checks=True)
        page = _round_page(visitor, tournament)
        token = TOKEN.search(page.content.decode())[1]
        secret = page.cookies[settings.CSRF_COOKIE_NAME].value
        assert _unmask_cipher_token(token) == secret
        pages.append(token)
        # The token works: the language switcher's form is accepted.
        switched = visitor.post(
            reverse("set_language"),
            {"language": "de", "next": "/", "csrfmiddlewaretoken": token},
        )
        assert switched.status_code == 302
    assert len(set(pages)) == 3
    assert "<agon:csrf-token>" not in "".join(pages)


def test_if_none_match_is_answered_304_for_every_client_until_the_page_changes(client):
    tournament, round_ = _published()
    first = _round_page(client, tournament)
    etag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    assert {"Cookie", "Accept-Language"} <= {v.strip() for v in first["Vary"].split(",")}
    same = _round_page(client, tournament, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304 and same.content == b"" and same["ETag"] == etag
    # GZipMiddleware's weakened form matches too.
    weak = _round_page(client, tournament, HTTP_IF_NONE_MATCH=f"W/{etag}")
    assert weak.status_code == 304

    game_record_out(by=COMMAND, game=_first_game(round_), out=[3, 1])
    changed = _round_page(client, tournament, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_copy_made_for_another_csrf_cookie_is_not_revalidated(client):
    """The page carries the visitor's CSRF token: after the cookie changed (a log-in and
    log-out), the browser's copy is answered in full, with a token that works."""
    tournament, _ = _published()
    etag = _round_page(client, tournament)["ETag"]
    other = Client()
    other.get(reverse("login"))  # another CSRF cookie
    answer = _round_page(other, tournament, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200


def test_the_poller_is_answered_on_the_page_etag_it_was_given(client):
    tournament, _ = _published()
    etag = _page_etag(_round_page(client, tournament))
    answer = _round_page(
        client,
        tournament,
        HTTP_HX_REQUEST="true",
        HTTP_HX_TRIGGER="live-poll",
        HTTP_IF_NONE_MATCH=etag,
    )
    assert answer.status_code == 304


def test_a_hidden_tournament_is_never_served_from_the_cache_to_anyone_else(client):
    director = UserFactory(username="td")
    tournament, _ = _published(published=False)
    tournament.directors.add(director)
    client.force_login(director)
    seen = _round_page(client, tournament)
    assert seen.status_code == 200 and seen["Cache-Control"] == "private, no-cache"
    assert _round_page(Client(), tournament).status_code == 404
    # Published, seen by the public (and cached), then hidden again: gone at once.
    tournament.published = True
    tournament.save()
    assert _round_page(Client(), tournament).status_code == 200
    tournament.published = False
    tournament.save()
    assert _round_page(Client(), tournament).status_code == 404
    api = Client().get(f"/api/v1/tournaments/{tournament.slug}/standings/")
    assert api.status_code in (401, 403, 404)


def test_a_directors_page_and_the_publics_are_never_each_others(client):
    director = UserFactory(username="td")
    tournament, _ = _published()
    tournament.directors.add(director)
    sheets = reverse("round-sheets", args=[tournament.slug, 1])
    public = _round_page(Client(), tournament).content.decode()
    assert sheets not in public and "Log in" in public
    client.force_login(director)
    own = _round_page(client, tournament).content.decode()
    assert sheets in own and "Log out td" in own
    assert sheets not in _round_page(Client(), tournament).content.decode()


def test_a_page_in_another_language_is_another_page():
    tournament, _ = _published()
    english = _round_page(Client(), tournament)
    german = _round_page(Client(), tournament, HTTP_ACCEPT_LANGUAGE="de")
    assert 'lang="en"' in english.content.decode() and 'lang="de"' in german.content.decode()
    assert english["ETag"] != german["ETag"]
    cookie = Client()
    cookie.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert 'lang="de"' in _round_page(cookie, tournament).content.decode()


def test_a_message_waiting_is_shown_not_answered_304(client):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage

    tournament, _ = _published()
    etag = _round_page(client, tournament)["ETag"]
    storage = CookieStorage(_round_page(client, tournament).wsgi_request)
    storage.add(constants.SUCCESS, "Saved, thank you")
    response = _round_page(client, tournament)
    storage.update(response)
    client.cookies.update(response.cookies)
    shown = _round_page(client, tournament, HTTP_IF_NONE_MATCH=etag)
    assert shown.status_code == 200 and "Saved, thank you" in shown.content.decode()
    # Shown once: the next visitor's page (from the cache) does not carry it.
    assert "Saved, thank you" not in _round_page(Client(), tournament).content.decode()


def _queries(path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert Client().get(path).status_code == 200
    return len(captured)


def test_the_round_page_reads_a_fixed_number_of_queries_rendered_and_cached():
    small, _ = _published(4)
    big, big_round = _published(40)
    for game in Game.objects.filter(table__round=big_round)[:10]:
        game_record_out(by=COMMAND, game=game, out=[3, 2])
    counts = {}
    for name, tournament in (("small", small), ("big", big)):
        path = reverse("round-detail", args=[tournament.slug, 1])
        counts[name] = (_queries(path), _queries(path))
    assert counts["small"] == counts["big"], counts
    rendered, cached = counts["big"]
    # Served from the cache: one query reads the tournament and the round; the games'
    # state is this process's read of a moment ago (`recent_games_state`).
    assert cached == 1 < rendered, counts


def test_a_write_through_another_process_shows_on_a_visitors_round_page_after_the_lag(
    settings, monkeypatch
):
    """The round's games are summed at most once per PUBLIC_ROUND_LAG_MS in a process: a
    write made elsewhere (here a plain update, as another process's write looks to this
    one) shows once the lag has passed, while the round's status and whether the
    tournament is published are read on every request."""
    settings.PUBLIC_ROUND_LAG_MS = 1000
    clock = [1000.0]
    monkeypatch.setattr(poll.time, "monotonic", lambda: clock[0])
    tournament, round_ = _published()
    first = _round_page(Client(), tournament)
    assert first.status_code == 200
    Game.objects.filter(pk=_first_game(round_).pk).update(version=F("version") + 1)
    clock[0] += 0.9
    kept = _round_page(Client(), tournament)
    assert kept.context is None and _page_etag(kept) == _page_etag(first)
    clock[0] += 0.2
    later = _round_page(Client(), tournament)
    assert _page_etag(later) != _page_etag(first)
    # Who may see it is never reused: unpublished, the next request is a 404 at once.
    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    assert _round_page(Client(), tournament).status_code == 404


def test_without_a_lag_every_visitors_request_reads_the_games(settings):
    settings.PUBLIC_ROUND_LAG_MS = 0
    tournament, round_ = _published()
    first = _round_page(Client(), tournament)
    Game.objects.filter(pk=_first_game(round_).pk).update(version=F("version") + 1)
    assert _page_etag(_round_page(Client(), tournament)) != _page_etag(first)


def test_the_standings_page_changes_with_a_correction_and_is_cached_between(client):
    tournament, round_ = _published()
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=COMMAND, game=game, out=[3, 0])
    round_close(round=round_, by=COMMAND)
    path = reverse("tournament-standings", args=[tournament.slug])
    first = client.get(path)
    assert first.context is not None
    assert Client().get(path).context is None
    assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    game = _first_game(round_)
    game_record_out(by=COMMAND, game=game, out=[0, 3], correction=True)
    after = Client().get(path)
    assert after.context is not None and after.content != first.content


def test_the_standings_page_from_the_cache_reads_one_row_and_keeps_its_etag(client):
    """A visitor's standings page comes from the cache after one small query (its early
    way), under the ETag the whole way gives it: a client's copy made by either is
    answered 304 by the other, and a signed-in user or a hidden tournament goes the whole
    way."""
    tournament, round_ = _published()
    path = reverse("tournament-standings", args=[tournament.slug])
    rendered = Client().get(path)  # the whole way: renders and keeps the page
    assert rendered.context is not None
    with CaptureQueriesContext(connection) as captured:
        cached = Client().get(path)
    assert cached.context is None and len(captured) == 1, captured.captured_queries
    assert cached["ETag"].split(".")[0] == rendered["ETag"].split(".")[0]
    visitor = Client()
    first = visitor.get(path)
    assert visitor.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # The round's results and its close are a new page at once.
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=COMMAND, game=game, out=[3, 0])
    round_close(round=round_, by=COMMAND)
    assert visitor.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    hidden, _ = _published(published=False)
    assert Client().get(reverse("tournament-standings", args=[hidden.slug])).status_code == 404


def test_the_standings_api_says_who_may_keep_it(client):
    tournament, round_ = _published()
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "public, no-cache"
    again = client.get(url)  # the early answer, from the cached body
    assert again.content == first.content and again["Cache-Control"] == "public, no-cache"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    director = UserFactory(username="td2")
    hidden, _ = _published(published=False)
    hidden.directors.add(director)
    client.force_login(director)
    private = client.get(f"/api/v1/tournaments/{hidden.slug}/standings/")
    assert private.status_code == 200 and private["Cache-Control"] == "private, no-cache"
    assert "Authorization" in private["Vary"]


def test_the_projector_data_is_kept_once_per_etag_and_private_when_hidden(client):
    tournament, round_ = _published()
    url = reverse("projector-data", args=[tournament.slug])
    first = client.get(url)
    assert first["Cache-Control"] == "public, no-cache"
    assert Client().get(url).content == first.content
    game_record_out(by=COMMAND, game=_first_game(round_), out=[3, 1])
    changed = Client().get(url)
    assert changed["ETag"] != first["ETag"] and changed.content != first.content


def test_ratings_rated_elsewhere_change_the_chances_page_of_an_event_being_played(
    django_capture_on_commit_callbacks,
):
    """A round page shows each seat's chance from the ratings: when another event's round
    is rated, the page of an event being played is a new page."""
    _, other_round = _published()
    playing, _ = _published()
    before = _round_page(Client(), playing)
    assert before.context is not None
    for game in Game.objects.filter(table__round=other_round):
        game_record_out(by=COMMAND, game=game, out=[3, 0])
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=other_round, by=COMMAND)
    after = _round_page(Client(), playing)
    assert after.context is not None
    assert _page_etag(after) != _page_etag(before)


def test_a_new_page_is_rendered_once_while_other_requests_wait_for_it():
    """While one process renders a new page (its lock held), another request waits for
    that body instead of rendering the page again."""
    import threading

    from django.core.cache import cache

    from tournaments.core import page_cache

    tournament, _ = _published()
    path = reverse("round-detail", args=[tournament.slug, 1])
    rendered = Client().get(path)
    key = page_cache.page_key(_page_etag(rendered), path)
    body = page_cache.cached_body(key)
    assert body is not None and page_cache.HOLE in body
    cache.delete(key)
    page_cache.forget_local()
    cache.set(f"{key}:rendering", 1, timeout=5)
    later = threading.Timer(0.3, lambda: cache.set(key, body, timeout=60))
    later.start()
    try:
        waited = Client().get(path)
    finally:
        later.join()
        cache.delete(f"{key}:rendering")
    assert waited.status_code == 200 and waited.context is None  # not rendered again
    assert TOKEN.sub("", waited.content.decode()) == TOKEN.sub("", rendered.content.decode())


@pytest.mark.parametrize("page", ["round", "standings"])
def test_a_cached_page_goes_out_compressed_once_made_with_each_visitors_own_token(
    page, monkeypatch
):
    """A browser (Accept-Encoding: gzip) gets a cached page as a gzip member made from
    the body compressed once, with its own CSRF token stored in the hole: it reads as the
    plain page with that token, its ETag weakened like GZipMiddleware's, and a 304 on
    either ETag."""
    tournament, _ = _published()
    path = (
        reverse("round-detail", args=[tournament.slug, 1])
        if page == "round"
        else reverse("tournament-standings", args=[tournament.slug])
    )
    assert Client().get(path).context is not None  # rendered and kept
    visitor = Client()
    plain = visitor.get(path)
    made = _counting_compressions(monkeypatch)
    zipped = visitor.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.context is None and zipped.context is None  # both from the cache
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    body = gzip.decompress(zipped.content)
    token = TOKEN.search(body.decode())[1]
    assert _unmask_cipher_token(token) == visitor.cookies[settings.CSRF_COOKIE_NAME].value
    assert TOKEN.sub("", body.decode()) == TOKEN.sub("", plain.content.decode())
    assert zipped["ETag"] == "W/" + plain["ETag"]
    again = visitor.get(path, HTTP_IF_NONE_MATCH=zipped["ETag"], HTTP_ACCEPT_ENCODING="gzip")
    assert again.status_code == 304
    # Another visitor gets another token in the same compressed page.
    other = gzip.decompress(Client().get(path, HTTP_ACCEPT_ENCODING="gzip").content).decode()
    assert TOKEN.search(other)[1] != token
    # One body in two pieces around its token, compressed once for all three answers.
    assert len(made) == 2, made


def _counting_compressions(monkeypatch) -> list[int]:
    """Counts zlib's compressors made (GZipMiddleware's gzip module makes one an answer)."""
    made: list[int] = []
    real = zlib.compressobj

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(zlib, "compressobj", counted)
    return made


def test_the_standings_apis_early_answer_goes_out_compressed_once_made(client, monkeypatch):
    tournament, _ = _published()
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    plain = client.get(url)  # the whole way: renders and keeps the body
    early_plain = client.get(url)
    made = _counting_compressions(monkeypatch)
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").content == zipped.content
    assert len(made) == 1, "compressed once, not once an answer"
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    assert zipped["Content-Type"] == "application/json"
    assert gzip.decompress(zipped.content) == early_plain.content == plain.content
    assert zipped["ETag"] == "W/" + plain["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=zipped["ETag"]).status_code == 304
