"""A whole tournament driven through the API only."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.pentagame.playout import random_game
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def director() -> APIClient:
    user = UserFactory(username="td")
    ClubFactory(slug="kiel", name="Kiel").organisers.add(user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def test_a_swiss_tournament_of_13_players_through_the_api(
    director, django_capture_on_commit_callbacks
):
    created = director.post(
        "/api/v1/tournaments/",
        {"club": "kiel", "name": "Kiel Open", "rounds_planned": 5, "published": True},
        format="json",
    )
    assert created.status_code == 201, created.json()
    base = "/api/v1/tournaments/kiel-open"
    names = "\n".join(f"Player {i:02d}, {1700 - 10 * i}" for i in range(13))
    assert director.post(f"{base}/entries/paste/", {"players": names}).status_code == 201
    assert len(director.get(f"{base}/entries/").json()["results"]) == 13
    seen_triple = False
    for number in range(1, 6):
        paired = director.post(f"{base}/rounds/")
        assert paired.status_code == 201, paired.json()
        assert director.post(f"{base}/rounds/{number}/publish/").status_code == 200
        tables = director.get(f"{base}/rounds/{number}/tables/").json()
        assert sum(len(t["seats"]) for t in tables) == 13
        for t_index, table in enumerate(tables):
            n = len(table["seats"])
            seen_triple |= n == 3
            for game in table["games"]:
                if (t_index + game["number"]) % 2:
                    body = {
                        # Played to the end: a record cut short is a game in progress.
                        "moves": random_game(n, seed=number * 100 + game["id"], max_plies=3000),
                        "version": game["version"],
                    }
                else:
                    body = {
                        "out": [3] + [1] * (n - 1),
                        "finished": True,
                        "version": game["version"],
                    }
                response = director.put(f"/api/v1/games/{game['id']}/", body, format="json")
                assert response.status_code == 200, response.json()
        with django_capture_on_commit_callbacks(execute=True):
            closed = director.post(f"{base}/rounds/{number}/close/", {}, format="json")
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert seen_triple
    standings = director.get(f"{base}/standings/").json()
    assert len(standings["rows"]) == 13 and standings["rounds_closed"] == 5
    ranks = [row["rank"] for row in standings["rows"]]
    assert ranks == sorted(ranks)
    leaderboard = director.get("/api/v1/ratings/?system=glicko2&min_games=1").json()
    assert len(leaderboard["results"]) == 13
    top = leaderboard["results"][0]["player_id"]
    history = director.get(f"/api/v1/players/{top}/ratings/?system=elo").json()
    assert len(history) == 5
    # A sixth round is refused with a clear message.
    refused = director.post(f"{base}/rounds/")
    assert refused.status_code == 400 and "all 5 rounds" in refused.json()["error"]["message"]


def test_illegal_move_records_return_the_engines_ply_and_reason(director):
    director.post(
        "/api/v1/tournaments/", {"club": "kiel", "name": "Blitz", "published": True}, format="json"
    )
    director.post("/api/v1/tournaments/blitz/entries/paste/", {"players": "A\nB"})
    director.post("/api/v1/tournaments/blitz/rounds/")
    director.post("/api/v1/tournaments/blitz/rounds/1/publish/")
    game = director.get("/api/v1/tournaments/blitz/rounds/1/tables/").json()[0]["games"][0]
    response = director.put(
        f"/api/v1/games/{game['id']}/", {"moves": ["W-W1B", "W-W1B"]}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["field"] == "moves" and body["error"]["message"].startswith(
        "ply 2 `W-W1B`"
    )
    stale = director.put(
        f"/api/v1/games/{game['id']}/",
        {"out": [3, 1], "version": game["version"] + 5},
        format="json",
    )
    assert stale.status_code == 409
    bad = director.put(f"/api/v1/games/{game['id']}/", {"out": [3, 7]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "out_2"


def test_the_rules_endpoint_replays_a_record(client):
    response = client.post(
        "/api/v1/rules/replay/",
        {"players": 2, "variant": "standard", "moves": ["W-W1B", "W-W1B"]},
        content_type="application/json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False and body["error"]["ply"] == 2


def test_standings_answer_304_to_a_matching_etag(director):
    director.post(
        "/api/v1/tournaments/",
        {"club": "kiel", "name": "Etag Cup", "published": True},
        format="json",
    )
    first = director.get("/api/v1/tournaments/etag-cup/standings/")
    etag = first["ETag"]
    again = director.get("/api/v1/tournaments/etag-cup/standings/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    director.post("/api/v1/tournaments/etag-cup/entries/", {"name": "Newcomer"}, format="json")
    changed = director.get("/api/v1/tournaments/etag-cup/standings/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_self_report_counts_once_an_opponent_confirms(director):
    from tournaments.models import Seat

    director.post(
        "/api/v1/tournaments/", {"club": "kiel", "name": "Self", "published": True}, format="json"
    )
    director.post("/api/v1/tournaments/self/entries/paste/", {"players": "A\nB"})
    director.post("/api/v1/tournaments/self/rounds/")
    director.post("/api/v1/tournaments/self/rounds/1/publish/")
    seats = Seat.objects.filter(round__tournament__slug="self").order_by("position")
    first, second = (seat.report_token for seat in seats)
    game = director.get("/api/v1/tournaments/self/rounds/1/tables/").json()[0]["games"][0]
    player = APIClient()
    url = f"/api/v1/report/{first}/games/{game['id']}/"
    other_seat = player.post(url, {"out": [3, 2], "position": 2}, format="json")
    assert other_seat.status_code == 400 and other_seat.json()["error"]["field"] == "position"
    # v1 clients still send their seat; it must be the link's.
    reported = player.post(url, {"out": [3, 2], "position": 1}, format="json")
    assert reported.status_code == 200 and reported.json()["confirmed"] is False
    same = player.post(url + "confirm/", {"position": 1}, format="json")
    assert same.status_code == 400
    opponent = f"/api/v1/report/{second}/games/{game['id']}/confirm/"
    confirmed = player.post(opponent, {"position": 2}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"] is True
    assert (
        player.post(
            "/api/v1/report/wrong/games/1/", {"out": [3, 2], "position": 1}, format="json"
        ).status_code
        == 404
    )


def test_a_pantarei_record_with_its_setup_through_the_api(director):
    from games.pantarei.playout import random_record

    created = director.post(
        "/api/v1/tournaments/",
        {
            "club": "kiel",
            "name": "Snake",
            "game": "pantarei",
            "policy": "pairs+bye",
            "published": True,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    director.post("/api/v1/tournaments/snake/entries/paste/", {"players": "A\nB"})
    director.post("/api/v1/tournaments/snake/rounds/")
    director.post("/api/v1/tournaments/snake/rounds/1/publish/")
    game = director.get("/api/v1/tournaments/snake/rounds/1/tables/").json()[0]["games"][0]
    record = random_record(seed=3)
    bad = director.put(
        f"/api/v1/games/{game['id']}/",
        {"moves": record["moves"], "setup": {"setup": None}},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "moves"
    good = director.put(
        f"/api/v1/games/{game['id']}/",
        {"moves": record["moves"], "setup": {"setup": record["setup"], "first": record["first"]}},
        format="json",
    )
    assert good.status_code == 200, good.json()
    assert sorted(good.json()["out"]) in ([0, 0], [0, 1])
