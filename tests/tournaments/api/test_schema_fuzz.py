"""Schemathesis against the project's own OpenAPI schema.

Every operation is fuzzed with valid and invalid input, once anonymously and once as a
tournament director (token auth), on a database holding a small published tournament
with a paired and published round. No answer may be a 5xx, and every answer must match
the schema: documented status code, content type, headers and body.

Path parameters come half of the time from the seeded objects (so the views get past
their 404s) and otherwise from the generator (unicode slugs, huge or negative ids...).
Each request runs in a savepoint that is rolled back, so every example sees the same
seed, and the cache is cleared so throttles and cached standings start afresh.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Seat

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def seeded() -> dict[str, Any]:
    director = UserFactory(username="td")
    club = ClubFactory(slug="kiel", name="Kiel")
    club.organisers.add(director)
    tournament = tournament_with_players(7, club=club, slug="kiel-open", name="Kiel Open")
    tournament.directors.add(director)
    round_publish(
        round=round_pair_next(tournament=tournament, by=Actor.command()), by=Actor.command()
    )
    games = list(Game.objects.filter(table__round__tournament=tournament).order_by("id"))
    entries = list(tournament.entries.order_by("seed"))
    return {
        "token": Token.objects.create(user=director).key,
        "slugs": [tournament.slug, club.slug],
        "ids": [games[0].pk, games[-1].pk, entries[0].pk, entries[0].player_id],
        "game_ids": [games[0].pk],
        "report_tokens": list(
            Seat.objects.filter(round__tournament=tournament).values_list("report_token", flat=True)
        ),
    }


def _config(seeded: dict[str, Any]) -> SchemathesisConfig:
    dictionaries = {
        "slug": seeded["slugs"],
        "id": seeded["ids"],
        "player_id": seeded["ids"],
        "game_id": seeded["game_ids"],
        "number": [1],
        "token": seeded["report_tokens"],
    }
    return SchemathesisConfig.from_dict(
        {
            "dictionaries": {name: {"values": values} for name, values in dictionaries.items()},
            "parameters": {
                f"path.{name}": {"dictionary": name, "probability": 0.5} for name in dictionaries
            },
        }
    )


@pytest.fixture
def _keep_the_test_connection() -> Iterator[None]:
    """Requests go through the real WSGI application, whose request signals close a
    database connection found in a transaction: on PostgreSQL that would close the
    test's own connection. Django's test client disconnects them the same way."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(seeded: dict[str, Any], _keep_the_test_connection: None) -> Any:
    from config.wsgi import application

    return schemathesis.openapi.from_wsgi(
        "/api/v1/schema/?format=json", application, config=_config(seeded)
    )


def _operations() -> list[tuple[str, str]]:
    """(method, path) of every operation, read from the generator at collection time."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return [(method.upper(), path) for path, ops in paths.items() for method in ops]


OPERATIONS = _operations()


def _fuzz(api_schema: Any, method: str, path: str, headers: dict[str, str] | None) -> None:
    # The WSGI transport asks for gzip but never decodes it (the answers are compressed
    # since GZipMiddleware; tests/tournaments/test_compression.py covers that): ask for
    # the plain body, whose schema is the one to check.
    headers = {**(headers or {}), "Accept-Encoding": "identity"}
    operation = api_schema[path][method]
    strategy = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=strategy)
    @FUZZ
    def run(case: Any) -> None:
        cache.clear()
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[" ".join(op) for op in OPERATIONS])
def test_anonymous_calls_never_fail_and_match_the_schema(
    api_schema: Any, method: str, path: str
) -> None:
    _fuzz(api_schema, method, path, headers=None)


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[" ".join(op) for op in OPERATIONS])
def test_director_calls_never_fail_and_match_the_schema(
    api_schema: Any, seeded: dict[str, Any], method: str, path: str
) -> None:
    _fuzz(api_schema, method, path, headers={"Authorization": f"Token {seeded['token']}"})
