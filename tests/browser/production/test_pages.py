"""Every page kind, the service worker and the web app manifest on the production site
(conftest.py here: DEBUG=false, collected static files under the manifest storage,
gunicorn behind nginx): no page answers a 500, and every static file they name is a
collected, hashed file that is served, with what it imports."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin

import pytest

from tests.factories import UserFactory, tournament_with_players
from tests.pages import player_pages, round_pages, site_pages, tournament_pages
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Seat
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.production

NAMED = re.compile(r'(?:src|href)="(/[^"]+)"')
IMPORTS = re.compile(r'(?:from|import)\s*"(\.{1,2}/[^"]+)"')
CSS_URLS = re.compile(r"url\(\s*[\"']?([^\"')]+)[\"']?\s*\)")
HASHED = re.compile(r"\.[0-9a-f]{12}\.[a-z0-9]+$")
# The modules import each other by plain names: a page preloads those by the same names.
PRELOADED = re.compile(r'<link rel="modulepreload" href="([^"]+)"')


@pytest.fixture
def event(live_server: Any) -> tuple[Any, list[str]]:
    """A published event of four with round 1 played and closed and round 2 published,
    its director, and one page of each kind it has (public, player and organiser pages;
    tests/test_german_complete.py renders every page of the larger demo)."""
    from django.urls import reverse

    director = UserFactory(is_staff=True)
    tournament = tournament_with_players(4, published=True)
    tournament.directors.add(director)
    by = Actor.director(director)
    first = round_pair_next(tournament=tournament, by=by)
    round_publish(round=first, by=by)
    for game in Game.objects.filter(table__round=first):
        game_record_out(game=game, out=[3, 1], by=by)
    round_close(round=first, by=by)
    second = round_pair_next(tournament=tournament, by=by)
    round_publish(round=second, by=by)
    club = tournament.club
    entry = tournament.entries.order_by("seed").first()
    game = Game.objects.filter(table__round=first).first()
    seat = Seat.objects.filter(table__round=second).first()
    urls = [
        *site_pages(club),
        *player_pages(entry.player),
        *tournament_pages(tournament, entry),
        reverse("games:replay", args=[game.pk]),
        reverse("games:record", args=[game.pk]),
        reverse("seat-report", args=[seat.report_token]),
        reverse("games:record-token", args=[seat.table.games.first().pk, seat.report_token]),
    ]
    for number in (1, 2):
        urls += round_pages(tournament, number)
    return director, urls


def session_of(user: Any) -> dict[str, str]:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def worker_prefix(site: Any) -> str:
    """The static files' address the service worker is told (its first line)."""
    status, headers, body = site.get("/sw.js")
    assert status == 200, body[:500]
    first = body.decode().splitlines()[0]
    found = re.fullmatch(r'const AGON_STATIC = "([^"]+)";', first)
    assert found, first
    return found.group(1)


def collected(site: Any) -> dict[str, str]:
    """The manifest storage's map: a static file's name to its collected, hashed name."""
    return json.loads((site.dir / "static" / "staticfiles.json").read_text())["paths"]


def test_the_service_worker_is_served_under_the_manifest_storage_with_the_static_prefix(
    live_server,
):
    """Finding 1 of issue 41: `static("")` raised "Missing staticfiles manifest entry
    for ''" and /sw.js was a 500 on every production site."""
    status, headers, body = live_server.get("/sw.js")
    assert status == 200, body[:500]
    assert headers["Content-Type"].startswith("text/javascript")
    assert headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in headers["Cache-Control"]
    prefix = worker_prefix(live_server)
    assert prefix == "/static/"
    # The worker keeps what is under the prefix: the collected files, hashed and not.
    for name in ("agon/sw.js", "agon/offline.js", "agon/board.js", "agon/site.css"):
        hashed = collected(live_server)[name]
        assert HASHED.search(hashed), hashed
        for path in (prefix + hashed, prefix + name):
            assert live_server.get(path)[0] == 200, path


def test_the_web_app_manifest_names_collected_icons_that_are_served(live_server):
    status, headers, body = live_server.get("/manifest.webmanifest")
    assert status == 200, body[:500]
    assert headers["Content-Type"] == "application/manifest+json"
    prefix = worker_prefix(live_server)
    icons = json.loads(body)["icons"]
    assert len(icons) == 5
    for icon in icons:
        assert icon["src"].startswith(prefix) and HASHED.search(icon["src"]), icon
        status, headers, _ = live_server.get(icon["src"])
        assert (status, headers["Content-Type"]) == (200, icon["type"]), icon


def static_files_served(site: Any, urls: set[str], prefix: str) -> list[str]:
    """Fetch every static file named, and what the scripts import and the style sheets
    name in turn; the failures, as "url: why"."""
    failures = []
    seen: set[str] = set()
    todo = list(urls)
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        status, _, body = site.get(url)
        if status != 200:
            failures.append(f"{url}: {status}")
            continue
        if url.endswith(".js"):
            todo += [urljoin(url, name) for name in IMPORTS.findall(body.decode())]
        elif url.endswith(".css"):
            named = CSS_URLS.findall(body.decode())
            todo += [urljoin(url, n) for n in named if not n.startswith(("data:", "#"))]
    return failures + [
        f"{url}: outside the worker's prefix {prefix}" for url in seen if not url.startswith(prefix)
    ]


def test_every_kind_of_page_and_every_static_file_it_names_is_served_in_production(
    live_server, event
):
    site = live_server
    prefix = worker_prefix(site)
    director, pages = event
    organiser = session_of(director)
    urls = [
        *pages,
        "/healthz",
        "/admin/",
        "/api/v1/docs/",
        "/api/v1/schema/",
        "/api/v1/tournaments/",
        "/api/v1/ratings/",
    ]
    wrong: list[str] = []
    static_urls: set[str] = set()
    for url in urls:
        status, _, body = site.get(url, organiser)
        if status != 200:
            wrong.append(f"{url} as the organiser: {status}")
            continue
        named = {u.replace("&amp;", "&") for u in NAMED.findall(body.decode())}
        static_urls |= {u for u in named if u.startswith(prefix)}
        plain = set(PRELOADED.findall(body.decode()))
        wrong += [
            f"{url} names {u}, not hashed"
            for u in named - plain
            if u.startswith(prefix) and not HASHED.search(u.split("?")[0])
        ]
        anonymous = site.get(url)[0]
        if anonymous >= 500:
            wrong.append(f"{url} to a visitor: {anonymous}")
    # Refusals and the icon's redirect are pages of the site too.
    for url, expected in (("/admin/login/", 200), ("/no-such-page/", 404), ("/favicon.ico", 302)):
        status, headers, _ = site.get(url)
        if status != expected:
            wrong.append(f"{url}: {status}, not {expected}")
        elif status == 302:
            static_urls.add(headers["Location"])
    assert static_urls
    wrong += static_files_served(site, static_urls, prefix)
    assert not wrong, "\n".join(wrong)
