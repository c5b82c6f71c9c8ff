"""Hostile input on every write: each write operation of the API schema and each of the
organiser's and players' forms gets random JSON or form data (deep nesting, lone
surrogates, huge numbers, long strings, wrong types). The answer is never a 500, and a
refused write (4xx) leaves every row as it was."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import (
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    ResultSubmission,
    Round,
    Seat,
    Tournament,
)

pytestmark = pytest.mark.django_db
WATCHED = (Club, Player, Tournament, Entry, Round, Seat, Game, ResultSubmission, ForbiddenPair)

HOSTILE_TEXT = st.sampled_from(
    ["a\ud800b", "\x00", "x" * 5000, "=HYPERLINK(1)", "1e999", "-1", "NaN", "", " ", "ü" * 200]
)
HOSTILE_NUMBER = st.sampled_from([10**30, -(10**30), 1e308, -1, 0, 2**31, 2**63, 0.5])
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    HOSTILE_NUMBER,
    st.floats(allow_nan=False),
    st.text(max_size=30),
    HOSTILE_TEXT,
)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


DEEP = "[" * 2000 + "]" * 2000  # written out: json.dumps itself would recurse too deep
_OPS: list[tuple[str, str]] = []


def _fingerprint() -> list[list[dict[str, Any]]]:
    return [list(model.objects.order_by("pk").values()) for model in WATCHED]


@pytest.fixture
def world() -> dict[str, Any]:
    user = UserFactory(username="fuzz-td")
    club = ClubFactory(slug="fuzz")
    club.organisers.add(user)
    tournament = tournament_with_players(6, club=club, slug="cup", name="Cup")
    tournament.directors.add(user)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    seat = Seat.objects.filter(table=game.table).first()
    return {
        "user": user,
        "slug": "cup",
        "number": "1",
        "id": str(tournament.entries.first().pk),
        "game_id": str(game.pk),
        "player_id": str(tournament.entries.first().player_id),
        "token": seat.report_token,
    }


def _operations(world: dict[str, Any]) -> list[tuple[str, str]]:
    """The schema's write operations, read once (the same list for every example)."""
    if _OPS:
        return _OPS
    api = APIClient()
    api.force_authenticate(world["user"])
    schema = api.get("/api/v1/schema/?format=json").json()
    ops = []
    for path, operations in schema["paths"].items():
        for method in operations:
            if method in {"post", "put", "patch"}:
                ops.append((method, path))
    _OPS.extend(sorted(ops))
    return _OPS


def _fill(path: str, world: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return world.get(name) or world["id"]

    return re.sub(r"\{(\w+)\}", value, path)


def test_the_schema_lists_the_write_operations_the_fuzz_covers(world):
    ops = _operations(world)
    assert ("post", "/api/v1/tournaments/{slug}/entries/paste/") in ops
    assert any(path.startswith("/api/v1/report/") for _, path in ops)
    assert len(ops) >= 10


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_json_on_every_api_write_is_never_a_500_and_a_refusal_changes_nothing(world, data):
    method, path = data.draw(st.sampled_from(_operations(world)), label="operation")
    body = data.draw(st.one_of(JSON, st.dictionaries(st.text(max_size=8), JSON)), label="body")
    deep = data.draw(st.integers(0, 9), label="deep") == 0
    as_director = data.draw(st.booleans(), label="as director")
    client = APIClient(raise_request_exception=False)
    if as_director:
        client.force_authenticate(world["user"])
    before = _fingerprint()
    # Lone surrogates become \ud800 escapes: valid JSON, but no text.
    raw = DEEP if deep else json.dumps(body)
    response = client.generic(method.upper(), _fill(path, world), raw, "application/json")
    assert response.status_code < 500, (method, path, response.content[:300])
    if 400 <= response.status_code < 500:
        assert _fingerprint() == before, (method, path)


FORMS = [
    "/t/new/",
    "/t/cup/manage/settings/",
    "/t/cup/manage/entries/paste/",
    "/t/cup/manage/forbidden/",
    "/t/cup/manage/rounds/1/results/",
    "/t/cup/manage/rounds/1/swap/",
    "/t/cup/manage/rounds/1/edit/",
    "/t/cup/manage/rounds/1/edit/check/",
    "/t/cup/manage/entries/{entry}/withdraw/",
    "/t/cup/manage/rounds/1/close/",
    "/report/{token}/",
]
FORM_VALUE = st.one_of(st.text(max_size=40), HOSTILE_TEXT, HOSTILE_NUMBER.map(str))
FORM_FIELDS = st.sampled_from(
    [
        "name",
        "players",
        "game",
        "version",
        "out_1",
        "out_2",
        "out_3",
        "finished",
        "first",
        "second",
        "target",
        "factor_2",
        "games_per_turn_2",
        "kind",
        "policy",
        "club",
        "rounds_planned",
        "confirm",
        "rating",
        "override_reason",
        "split",
    ]
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    form=st.sampled_from(FORMS),
    fields=st.dictionaries(FORM_FIELDS, FORM_VALUE, max_size=8),
)
def test_random_form_posts_are_never_a_500_and_a_refusal_changes_nothing(world, form, fields):
    client = Client(raise_request_exception=False)
    client.force_login(world["user"])
    before = _fingerprint()
    # Encoded as a raw client would send them: a lone surrogate as the bytes %ED%A0%80.
    body = urlencode(fields, encoding="utf-8", errors="surrogatepass")
    response = client.post(
        form.replace("{token}", world["token"]).replace("{entry}", world["id"]),
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code < 500, (form, fields, response.content[:300])
    if 400 <= response.status_code < 500:
        assert _fingerprint() == before, form


def test_every_form_the_fuzz_posts_to_exists(world):
    client = Client(raise_request_exception=False)
    client.force_login(world["user"])
    for form in FORMS:
        url = form.replace("{token}", world["token"]).replace("{entry}", world["id"])
        assert client.get(url).status_code != 404 or client.post(url).status_code != 404, url
