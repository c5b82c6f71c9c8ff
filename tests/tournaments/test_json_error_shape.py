"""Every JSON error the site gives, pages and API alike, has one shape (docs/api.md):
{"error": {"code": "...", "field": "..." or null, "message": "..."}}.

The test walks the URL configuration: every route under /api/ gets a GET and a POST of
a body that is not JSON, every page route that answers JSON gets a refused POST, and
every JSON answer of 400 or more is checked. Page routes that answer HTML are only read
(GET), so nothing is changed by the walk itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_withdraw
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, ResultSubmission
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db

# The pages' own JSON endpoints (scripts post to them and read JSON back). The results
# screen's rows, the check-in taps and the pairing editor's live check answer HTML
# fragments to htmx instead (their refusals: the fragment showing the message).
PAGE_JSON = {
    "games:position",
    "games:record",
    "games:record-token",
}


def _routes(
    patterns: list[Any] | None = None,
    namespace: str = "",
    prefix: str = "",
    outer: tuple[str, ...] = (),
) -> Iterator[tuple[str, list[str], str]]:
    """(name, its keyword arguments, its pattern) of every named route."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        keywords = (*outer, *entry.pattern.regex.groupindex)
        if isinstance(entry, URLResolver):
            space = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, space, prefix + str(entry.pattern), keywords)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", list(keywords), prefix + str(entry.pattern)


@pytest.fixture
def seeded() -> dict[str, Any]:
    director = UserFactory(username="td")
    club = ClubFactory(slug="kiel")
    club.organisers.add(director)
    cup = tournament_with_players(4, club=club, slug="cup", name="Cup", published=True)
    cup.directors.add(director)
    round_ = round_pair_next(tournament=cup, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    games = list(Game.objects.filter(table__round=round_).order_by("pk"))
    game = games[0]
    entry = cup.entries.order_by("seed").first()
    # What the pages' routes refuse: a withdrawn player checked in, a player's report
    # accepted for a version that is not the game's, a player with no seat moved (each
    # answered, never with a 500; JSON only from the routes in PAGE_JSON).
    withdrawn = entry_withdraw(entry=cup.entries.order_by("seed").last(), by=Actor.command())
    reporter = games[1].table.seats.get(position=1)
    game_record_out(game=games[1], out=[3, 1], by=Actor.player(reporter))
    refusals = {
        "entry-check-in": {"present": "1"},
        "round-result-accept": {"version": "999999"},
        "round-edit-check": {"to_999999": "1"},
    }
    values = {
        "slug": "cup",
        "number": 1,
        "pk": game.pk,
        "game_id": game.pk,
        "entry_id": entry.pk,
        "player_id": entry.player_id,
        "token": game.table.seats.get(position=1).report_token,
        "submission_id": ResultSubmission.objects.get(game=games[1]).pk,
    }
    values["entry_id"] = withdrawn.pk
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return {"client": client, "values": values, "refusals": refusals}


def _url(name: str, keywords: list[str], values: dict[str, Any]) -> str | None:
    try:
        return reverse(name, kwargs={k: values.get(k, 999999) for k in keywords})
    except Exception:  # noqa: BLE001 - a route our values cannot fill is not a JSON route
        return None


def _check_shape(answer: Any, where: str) -> None:
    body = answer.json()
    assert isinstance(body, dict) and isinstance(body.get("error"), dict), (where, body)
    error = body["error"]
    assert set(error) == {"code", "field", "message"}, (where, body)
    assert isinstance(error["code"], str) and error["code"], (where, body)
    assert error["field"] is None or isinstance(error["field"], str), (where, body)
    assert isinstance(error["message"], str) and error["message"], (where, body)


def test_every_json_error_of_pages_and_api_has_the_one_shape(seeded):
    client, values, refusals = seeded["client"], seeded["values"], seeded["refusals"]
    refused: dict[str, int] = {}
    for name, keywords, _pattern in _routes():
        url = _url(name, keywords, values)
        if url is None:
            continue
        json_route = url.startswith("/api/") or name in PAGE_JSON
        requests = [("GET", lambda u=url: client.get(u, HTTP_ACCEPT="application/json"))]
        if name in refusals:
            requests.append(
                (
                    "POST",
                    lambda u=url, n=name: client.post(
                        u, refusals[n], HTTP_ACCEPT="application/json"
                    ),
                )
            )
        elif json_route:
            requests.append(
                (
                    "POST",
                    lambda u=url: client.post(
                        u,
                        "{not json",
                        content_type="application/json",
                        HTTP_ACCEPT="application/json",
                    ),
                )
            )
        for method, send in requests:
            answer = send()
            assert answer.status_code < 500, (method, url, answer.status_code)
            if answer.status_code >= 400 and answer["Content-Type"].startswith("application/json"):
                _check_shape(answer, f"{method} {url}")
                refused[name] = answer.status_code
    # The schema's documentation page is HTML (Swagger UI), not a JSON route.
    api = {
        name
        for name, _k, pattern in _routes()
        if pattern.startswith("api/v1/") and name != "api-docs"
    }
    missing = (api | PAGE_JSON) - set(refused)
    # Routes that answered no refusal at all (each should refuse a body that is not JSON).
    assert not missing, sorted(missing)
