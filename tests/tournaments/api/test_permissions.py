"""Who may write what: every write endpoint against five kinds of caller. A write counts
as refused only with the status that says so (403) and the data
re-read unchanged; an allowed one has its success status and changes the data."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Club, Entry, ForbiddenPair, Game, Player, Round, Seat, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
ROLES = ["anonymous", "player", "director", "other_director", "staff"]


@pytest.fixture
def world():
    club = ClubFactory(slug="home")
    tournament = tournament_with_players(4, club=club, slug="cup", name="Cup")
    other = tournament_with_players(2, slug="other", name="Other")
    users = {
        "player": UserFactory(username="pl"),
        "director": UserFactory(username="dir"),
        "other_director": UserFactory(username="odir"),
        "staff": UserFactory(username="st"),
    }
    users["staff"].is_staff = True
    users["staff"].save()
    Player.objects.filter(pk=tournament.entries.first().player_id).update(user=users["player"])
    tournament.directors.add(users["director"])
    other.directors.add(users["other_director"])
    # Round 1 paired, not yet published: what each write needs beyond that is prepared
    # for it (see `writes`).
    round_pair_next(tournament=tournament, by=Actor.director(users["director"]))
    return {"tournament": tournament, "users": users}


def client_for(world, role: str) -> APIClient:
    api = APIClient()
    if role != "anonymous":
        api.force_authenticate(world["users"][role])
    return api


def _round_1(world) -> Round:
    return world["tournament"].rounds.get(number=1)


def _publish(world) -> None:
    round_publish(round=_round_1(world), by=Actor.director(world["users"]["director"]))


def _close(world) -> None:
    _publish(world)
    round_close(round=_round_1(world), by=Actor.director(world["users"]["director"]), force=True)


def _with_result(world) -> None:
    _publish(world)
    game = Game.objects.filter(table__round=_round_1(world)).first()
    game_record_out(game=game, out=[3, 1], by=Actor.director(world["users"]["director"]))


Write = tuple[str, Callable[[dict], str], Callable[[dict], dict], Callable[[dict], None] | None]


def _two_tables_apart(world) -> dict:
    seats = list(Seat.objects.filter(round=_round_1(world)).order_by("table__number"))
    first = seats[0]
    second = next(s for s in seats if s.table_id != first.table_id)
    return {"first": first.entry_id, "second": second.entry_id}


def _move_to_other_table(world) -> dict:
    seats = list(Seat.objects.filter(round=_round_1(world)).order_by("table__number"))
    # The partner left alone gets the bye, which the policy warns about: overridden.
    return {"entry": seats[0].entry_id, "table": 2, "override_reason": "permission matrix"}


def _game_url(world) -> str:
    return f"/api/v1/games/{Game.objects.filter(table__round=_round_1(world)).first().pk}/"


def _last_entry_url(world) -> str:
    entry = world["tournament"].entries.order_by("seed").last()
    return f"/api/v1/tournaments/cup/entries/{entry.pk}/withdraw/"


# name -> (method, url, body, prepare): the request, and what must hold before it.
WRITES: dict[str, Write] = {
    "tournament create": (
        "post",
        lambda w: "/api/v1/tournaments/",
        lambda w: {"club": "home", "name": "Second cup"},
        None,
    ),
    "tournament update": (
        "patch",
        lambda w: "/api/v1/tournaments/cup/",
        lambda w: {"rounds_planned": 6},
        None,
    ),
    "tournament delete": ("delete", lambda w: "/api/v1/tournaments/cup/", lambda w: {}, None),
    "entry add": (
        "post",
        lambda w: "/api/v1/tournaments/cup/entries/",
        lambda w: {"name": "Zed"},
        None,
    ),
    "entries paste": (
        "post",
        lambda w: "/api/v1/tournaments/cup/entries/paste/",
        lambda w: {"players": "Yan\nXia"},
        None,
    ),
    "entry withdraw": ("post", _last_entry_url, lambda w: {}, None),
    "round pair": ("post", lambda w: "/api/v1/tournaments/cup/rounds/", lambda w: {}, _close),
    "round swap": (
        "post",
        lambda w: "/api/v1/tournaments/cup/rounds/1/swap/",
        _two_tables_apart,
        None,
    ),
    "round move": (
        "post",
        lambda w: "/api/v1/tournaments/cup/rounds/1/move/",
        _move_to_other_table,
        None,
    ),
    "round repair": (
        "post",
        lambda w: "/api/v1/tournaments/cup/rounds/1/repair/",
        lambda w: {},
        None,
    ),
    "round publish": (
        "post",
        lambda w: "/api/v1/tournaments/cup/rounds/1/publish/",
        lambda w: {},
        None,
    ),
    "round close": (
        "post",
        lambda w: "/api/v1/tournaments/cup/rounds/1/close/",
        lambda w: {"force": True},
        _publish,
    ),
    "game result": ("put", _game_url, lambda w: {"out": [3, 1]}, _publish),
    "game result clear": ("delete", lambda w: _game_url(w) + "result/", lambda w: {}, _with_result),
    "club create": (
        "post",
        lambda w: "/api/v1/clubs/",
        lambda w: {"name": "New", "slug": "new"},
        None,
    ),
    "club update": ("patch", lambda w: "/api/v1/clubs/home/", lambda w: {"city": "Bremen"}, None),
    "player create": (
        "post",
        lambda w: "/api/v1/players/",
        lambda w: {"name": "Solo", "club": "home"},
        None,
    ),
}

# The success status of each write for those allowed to make it.
SUCCESS = {
    "tournament create": 201,
    "tournament update": 200,
    "tournament delete": 204,
    "entry add": 201,
    "entries paste": 201,
    "entry withdraw": 200,
    "round pair": 201,
    "round swap": 200,
    "round move": 200,
    "round repair": 200,
    "round publish": 200,
    "round close": 200,
    "game result": 200,
    "game result clear": 200,
    "club create": 201,
    "club update": 200,
    "player create": 201,
}
DIRECTING = {
    "tournament update",
    "tournament delete",
    "entry add",
    "entries paste",
    "entry withdraw",
    "round pair",
    "round swap",
    "round move",
    "round repair",
    "round publish",
    "round close",
    "game result",
    "game result clear",
}
ALLOWED = {
    "anonymous": set(),
    "player": set(),
    "director": DIRECTING,
    "other_director": set(),
    "staff": set(SUCCESS),
}


def expected_status(role: str, name: str) -> int:
    if name in ALLOWED[role]:
        return SUCCESS[name]
    # Anonymous callers too: session authentication comes first and sends no
    # WWW-Authenticate challenge, so DRF answers 403, not 401.
    return 403


def state() -> list[list[dict]]:
    """Everything a write could change, re-read from the database."""
    return [
        list(model.objects.order_by("pk").values())
        for model in (Club, Player, Tournament, Entry, Round, Seat, Game, ForbiddenPair)
    ]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(WRITES))
def test_permission_matrix(world, role, name):
    method, url, body, prepare = WRITES[name]
    api = client_for(world, role)
    with transaction.atomic():
        if prepare is not None:
            prepare(world)
        before = state()
        response = getattr(api, method)(url(world), body(world), format="json")
        after = state()
        transaction.set_rollback(True)
    expected = expected_status(role, name)
    assert response.status_code == expected, (role, name, response.content[:300])
    if name in ALLOWED[role]:
        assert after != before, (role, name, "allowed but nothing changed")
    else:
        assert after == before, (role, name, "refused but the data changed")


def test_anonymous_users_read_published_tournaments_only(world):
    api = APIClient()
    Tournament.objects.filter(pk=world["tournament"].pk).update(published=False)
    _publish(world)
    assert api.get("/api/v1/tournaments/cup/").status_code == 404
    assert api.get("/api/v1/tournaments/cup/standings/").status_code == 404
    assert api.get("/api/v1/tournaments/other/").status_code == 200
    assert api.get(_game_url(world)).status_code == 404


def _redis_down() -> dict:
    """The cache on a loopback port where nothing listens: Redis stopped."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }


@pytest.mark.parametrize("name", list(WRITES))
def test_with_redis_stopped_every_write_a_director_may_make_succeeds_and_is_saved(world, name):
    """Throttles and the standings cache read Redis; with it gone they fail open, and no
    write depends on it."""
    from django.test import override_settings

    method, url, body, prepare = WRITES[name]
    role = "director" if name in ALLOWED["director"] else "staff"
    assert name in ALLOWED[role]
    api = client_for(world, role)
    with override_settings(CACHES=_redis_down()), transaction.atomic():
        if prepare is not None:
            prepare(world)
        before = state()
        response = getattr(api, method)(url(world), body(world), format="json")
        after = state()
        transaction.set_rollback(True)
    assert response.status_code == expected_status(role, name), (name, response.content[:300])
    assert after != before, (name, "accepted but not saved")


def test_with_redis_stopped_the_public_pages_answer(world):
    from django.test import Client, override_settings

    _close(world)
    game = Game.objects.filter(table__round__tournament=world["tournament"]).first()
    pages = [
        "/",
        "/t/cup/",
        "/t/cup/standings/",
        "/t/cup/standings/?format=csv",
        "/t/cup/rounds/1/",
        "/t/cup/projector/",
        "/t/cup/projector/data.json",
        f"/games/{game.pk}/",
        "/ratings/",
        "/api/v1/tournaments/cup/standings/",
        "/api/v1/tournaments/",
        "/api/v1/ratings/",
    ]
    with override_settings(CACHES=_redis_down()):
        for page in pages:
            assert Client().get(page).status_code == 200, page
