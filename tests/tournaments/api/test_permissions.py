"""Who may write what: every write endpoint against five kinds of caller."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.models import Game, Player
from tournaments.services.rounds import round_pair_next, round_publish

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
    round_ = round_pair_next(tournament=tournament)
    round_publish(round=round_)
    return {
        "tournament": tournament,
        "users": users,
        "game": Game.objects.filter(table__round=round_).first(),
    }


def client_for(world, role: str) -> APIClient:
    api = APIClient()
    if role != "anonymous":
        api.force_authenticate(world["users"][role])
    return api


def writes(world):
    entry = world["tournament"].entries.order_by("seed").last()
    e1, e2 = world["tournament"].entries.order_by("seed")[:2]
    game = world["game"]
    return {
        "tournament update": ("patch", "/api/v1/tournaments/cup/", {"rounds_planned": 6}),
        "entry add": ("post", "/api/v1/tournaments/cup/entries/", {"name": "Zed"}),
        "entries paste": (
            "post",
            "/api/v1/tournaments/cup/entries/paste/",
            {"players": "Yan\nXia"},
        ),
        "entry withdraw": ("post", f"/api/v1/tournaments/cup/entries/{entry.pk}/withdraw/", {}),
        "round pair": ("post", "/api/v1/tournaments/cup/rounds/", {}),
        "round swap": (
            "post",
            "/api/v1/tournaments/cup/rounds/1/swap/",
            {"first": e1.pk, "second": e2.pk},
        ),
        "round repair": ("post", "/api/v1/tournaments/cup/rounds/1/repair/", {}),
        "round close": ("post", "/api/v1/tournaments/cup/rounds/1/close/", {"force": True}),
        "game result": ("put", f"/api/v1/games/{game.pk}/", {"out": [3, 1]}),
        "club create": ("post", "/api/v1/clubs/", {"name": "New", "slug": "new"}),
        "club update": ("patch", "/api/v1/clubs/home/", {"city": "Bremen"}),
        "player create": ("post", "/api/v1/players/", {"name": "Solo", "club": "home"}),
    }


ALLOWED = {
    "anonymous": set(),
    "player": set(),
    "director": {
        "tournament update",
        "entry add",
        "entries paste",
        "entry withdraw",
        "round pair",
        "round swap",
        "round repair",
        "round close",
        "game result",
    },
    "other_director": set(),
    "staff": {
        "tournament update",
        "entry add",
        "entries paste",
        "entry withdraw",
        "round pair",
        "round swap",
        "round repair",
        "round close",
        "game result",
        "club create",
        "club update",
        "player create",
    },
}


@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(world, role):
    api = client_for(world, role)
    for name, (method, url, body) in writes(world).items():
        response = getattr(api, method)(url, body, format="json")
        refused = response.status_code in (401, 403)
        assert refused != (name in ALLOWED[role]), (
            role,
            name,
            response.status_code,
            response.content[:200],
        )
        if refused and role == "anonymous":
            assert response.status_code == 401 or response.status_code == 403


def test_anonymous_users_read_published_tournaments_only(world):
    api = APIClient()
    world["tournament"].published = False
    world["tournament"].save()
    assert api.get("/api/v1/tournaments/cup/").status_code == 404
    assert api.get("/api/v1/tournaments/cup/standings/").status_code == 404
    assert api.get("/api/v1/tournaments/other/").status_code == 200
    assert api.get(f"/api/v1/games/{world['game'].pk}/").status_code == 404
