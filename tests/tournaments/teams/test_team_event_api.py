"""A 2 vs 2 team event through the API: teams entered, paired as units, seated 1+3
against 2+4, a match of two games (one clockwise, one anti-clockwise), the team's
dropped score, standings per team and per player, and ratings from team games."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.pentagame.playout import random_game
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/kiel-pairs"
TEAMS = {
    "Stars": ["Ann", "Bea"],
    "Moons": ["Cid", "Dan"],
    "Suns": ["Eve", "Fay"],
    "Comets": ["Gus", "Hal"],
}


@pytest.fixture
def director() -> APIClient:
    user = UserFactory(username="td")
    ClubFactory(slug="kiel", name="Kiel").organisers.add(user)
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def _create(director: APIClient, teams: dict[str, list[str]], rounds: int = 2) -> None:
    created = director.post(
        "/api/v1/tournaments/",
        {"club": "kiel", "name": "Kiel Pairs", "kind": "teams", "rounds_planned": rounds},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["kind"] == "teams"
    for name, players in teams.items():
        entered = director.post(f"{BASE}/teams/", {"name": name, "players": players}, format="json")
        assert entered.status_code == 201, entered.json()
        assert [p["player"] for p in entered.json()["players"]] == players


def _put(director: APIClient, game: dict, body: dict) -> None:
    response = director.put(
        f"/api/v1/games/{game['id']}/", {**body, "version": game["version"]}, format="json"
    )
    assert response.status_code == 200, response.json()


def _team_at(seats: list[dict], positions: tuple[int, int]) -> list[str]:
    return [seats[p - 1]["player"] for p in positions]


def test_a_2_vs_2_team_event_through_the_api(director, django_capture_on_commit_callbacks):
    _create(director, TEAMS)
    assert len(director.get(f"{BASE}/entries/").json()["results"]) == 8
    assert director.post(f"{BASE}/rounds/").status_code == 201
    assert director.post(f"{BASE}/rounds/1/publish/").status_code == 200
    tables = director.get(f"{BASE}/rounds/1/tables/").json()
    # Four teams: two tables of two teams, no bye.
    assert [len(t["seats"]) for t in tables] == [4, 4]
    partners = {tuple(players) for players in TEAMS.values()}
    for table in tables:
        # Partners sit opposite each other: seats 1+3 and 2+4 are teams.
        assert tuple(_team_at(table["seats"], (1, 3))) in partners
        assert tuple(_team_at(table["seats"], (2, 4))) in partners
        # A match is two games, one clockwise and one anti-clockwise.
        assert [(g["first_position"], g["direction"]) for g in table["games"]] == [
            (1, "clockwise"),
            (2, "widdershins"),
        ]
    first, second = tables
    # Table 1: the team in 1+3 reaches 6 by playing out the round (9 : 1), then loses
    # the anti-clockwise game 3 : 5 (3 : 7): 12 against 8.
    _put(director, first["games"][0], {"out": [3, 1, 3, 1], "finished": True})
    _put(director, first["games"][1], {"out": [2, 3, 1, 2], "finished": True})
    # Table 2: 5 : 5 (5 : 5), then the turn ends at 2 : 2 (5 : 5): 10 each.
    _put(director, second["games"][0], {"out": [2, 2, 3, 3], "finished": True})
    _put(director, second["games"][1], {"out": [1, 0, 1, 2], "finished": False})
    tables = director.get(f"{BASE}/rounds/1/tables/").json()
    assert [s["round_score"] for s in tables[0]["seats"]] == [12.0, 8.0, 12.0, 8.0]
    with django_capture_on_commit_callbacks(execute=True):
        assert director.post(f"{BASE}/rounds/1/close/", {}, format="json").status_code == 200

    winners = _team_at(first["seats"], (1, 3))
    losers = _team_at(first["seats"], (2, 4))
    team_rows = director.get(f"{BASE}/teams/standings/").json()
    assert team_rows["rounds_closed"] == 1
    rows = team_rows["rows"]
    assert rows[0]["players"] == winners and rows[0]["score"] == 12 and rows[0]["rank"] == 1
    assert rows[-1]["players"] == losers and rows[-1]["score"] == 8 and rows[-1]["rank"] == 4
    assert [r["score"] for r in rows[1:3]] == [10, 10] and rows[1]["rank"] == rows[2]["rank"] == 2
    # Two games, one match: 6 per game, and per match the match's 12 over its 2 games,
    # so that matches of every table size are on one scale (docs/scoring.md).
    assert (rows[0]["games"], rows[0]["per_game"], rows[0]["per_match"]) == (2, 6, 6)
    players = {r["player"]: r for r in director.get(f"{BASE}/standings/").json()["rows"]}
    assert len(players) == 8
    assert all(players[p]["score"] == 12 for p in winners)
    assert all(players[p]["score"] == 8 for p in losers)
    assert players[winners[0]]["per_match"] == 6

    # Round 2: Swiss on team scores; nobody meets the same team again.
    assert director.post(f"{BASE}/rounds/").status_code == 201
    assert director.post(f"{BASE}/rounds/2/publish/").status_code == 200
    tables2 = director.get(f"{BASE}/rounds/2/tables/").json()
    met = {frozenset(_team_at(t["seats"], (1, 3)) + _team_at(t["seats"], (2, 4))) for t in tables}
    for table in tables2:
        assert frozenset(p["player"] for p in table["seats"]) not in met
        # A move record is replayed with the engine's team variant.
        # Played to the end: a record cut short is a game in progress.
        moves = random_game(4, "teams", seed=table["number"], max_plies=3000)
        _put(director, table["games"][0], {"moves": moves})
        _put(director, table["games"][1], {"out": [1, 3, 1, 2], "finished": True})
    with django_capture_on_commit_callbacks(execute=True):
        assert director.post(f"{BASE}/rounds/2/close/", {}, format="json").status_code == 200
    rows = director.get(f"{BASE}/teams/standings/").json()["rows"]
    assert [r["rounds"] for r in rows] == [2, 2, 2, 2]
    assert sum(r["score"] for r in rows) == pytest.approx(4 * 2 * 2 * 5)  # zero-sum
    # Ratings of the players from the team games.
    leaderboard = director.get("/api/v1/ratings/?system=glicko2&min_games=1").json()
    assert len(leaderboard["results"]) == 8


def test_an_odd_team_gets_a_bye_worth_an_even_match(director, django_capture_on_commit_callbacks):
    _create(director, {**TEAMS, "Planets": ["Ida", "Jon"]}, rounds=1)
    assert director.post(f"{BASE}/rounds/").status_code == 201
    assert director.post(f"{BASE}/rounds/1/publish/").status_code == 200
    tables = director.get(f"{BASE}/rounds/1/tables/").json()
    bye = [t for t in tables if t["is_bye"]]
    assert len(bye) == 1 and len(bye[0]["seats"]) == 2 and not bye[0]["games"]
    # Two games of 5 : 5 times 1.
    assert [s["round_score"] for s in bye[0]["seats"]] == [10.0, 10.0]
    for table in tables:
        for game in table["games"]:
            _put(director, game, {"out": [3, 1, 2, 1], "finished": True})
    with django_capture_on_commit_callbacks(execute=True):
        assert director.post(f"{BASE}/rounds/1/close/", {}, format="json").status_code == 200
    rows = {tuple(r["players"]): r for r in director.get(f"{BASE}/teams/standings/").json()["rows"]}
    bye_team = tuple(s["player"] for s in bye[0]["seats"])
    assert rows[bye_team]["score"] == 10 and rows[bye_team]["games"] == 0
    players = {r["player"]: r for r in director.get(f"{BASE}/standings/").json()["rows"]}
    assert all(players[p]["score"] == 10 for p in bye_team)


def test_bad_team_input_is_a_400_naming_the_field(director):
    _create(director, {"Stars": ["Ann", "Bea"], "Moons": ["Cid", "Dan"]}, rounds=1)
    one = director.post(f"{BASE}/teams/", {"name": "Solo", "players": ["Kim"]}, format="json")
    assert one.status_code == 400 and one.json()["error"]["field"] == "players"
    twice = director.post(
        f"{BASE}/teams/", {"name": "Echo", "players": ["Kim", "kim"]}, format="json"
    )
    assert twice.status_code == 400 and twice.json()["error"]["field"] == "players"
    taken = director.post(
        f"{BASE}/teams/", {"name": "Stars", "players": ["Kim", "Lou"]}, format="json"
    )
    assert taken.status_code == 400 and taken.json()["error"]["field"] == "name"
    again = director.post(
        f"{BASE}/teams/", {"name": "Other", "players": ["Ann", "Lou"]}, format="json"
    )
    assert again.status_code == 400 and again.json()["error"]["field"] == "players"
    # Nothing of a refused team was entered.
    assert len(director.get(f"{BASE}/entries/").json()["results"]) == 4
    assert director.post(f"{BASE}/rounds/").status_code == 201
    assert director.post(f"{BASE}/rounds/1/publish/").status_code == 200
    game = director.get(f"{BASE}/rounds/1/tables/").json()[0]["games"][0]
    for out, finished in (([2, 1, 2, 1], True), ([4, 0, 3, 0], True)):
        refused = director.put(
            f"/api/v1/games/{game['id']}/",
            {"out": out, "finished": finished, "version": game["version"]},
            format="json",
        )
        assert refused.status_code == 400 and refused.json()["error"]["field"] == "out", out
    # A single player cannot change tables in a team event.
    entries = director.get(f"{BASE}/entries/").json()["results"]
    swap = director.post(
        f"{BASE}/rounds/1/swap/",
        {"first": entries[0]["id"], "second": entries[1]["id"]},
        format="json",
    )
    assert swap.status_code in (400, 409)


def test_teams_are_for_team_events_of_pentagame(director):
    swiss = director.post(
        "/api/v1/tournaments/", {"club": "kiel", "name": "Kiel Open"}, format="json"
    )
    assert swiss.status_code == 201
    refused = director.post(
        "/api/v1/tournaments/kiel-open/teams/",
        {"name": "Stars", "players": ["Ann", "Bea"]},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "kind"
    assert director.get("/api/v1/tournaments/kiel-open/teams/standings/").status_code == 400
    other_game = director.post(
        "/api/v1/tournaments/",
        {
            "club": "kiel",
            "name": "Rei Pairs",
            "kind": "teams",
            "game": "pantarei",
            "policy": "pairs+bye",
        },
        format="json",
    )
    assert other_game.status_code == 400 and other_game.json()["error"]["field"] == "kind"


def test_a_withdrawn_team_is_not_paired_and_stays_in_the_standings_marked(director):
    _create(director, TEAMS, rounds=1)
    teams = director.get(f"{BASE}/teams/").json()["results"]
    withdrawn = director.post(f"{BASE}/teams/{teams[0]['id']}/withdraw/")
    assert withdrawn.status_code == 200
    assert [p["status"] for p in withdrawn.json()["players"]] == ["withdrawn", "withdrawn"]
    assert director.post(f"{BASE}/rounds/").status_code == 201
    tables = director.get(f"{BASE}/rounds/1/tables/").json()
    seated = {s["player"] for t in tables for s in t["seats"]}
    assert seated.isdisjoint(TEAMS["Stars"]) and len(seated) == 6
    assert [len(t["seats"]) for t in tables] == [4, 2]  # the odd team out has the bye
    rows = director.get(f"{BASE}/teams/standings/").json()["rows"]
    assert [r["withdrawn"] for r in rows if r["name"] == "Stars"] == [True]


def test_a_partner_cannot_confirm_her_teams_report_an_opponent_can(director):
    from tournaments.models import Seat

    _create(director, {"Stars": ["Ann", "Bea"], "Moons": ["Cid", "Dan"]}, rounds=1)
    assert director.post(f"{BASE}/rounds/").status_code == 201
    assert director.post(f"{BASE}/rounds/1/publish/").status_code == 200
    game = director.get(f"{BASE}/rounds/1/tables/").json()[0]["games"][0]
    token = {s.position: s.report_token for s in Seat.objects.filter(table__games__id=game["id"])}
    players = APIClient(raise_request_exception=False)
    url = f"/api/v1/report/{{}}/games/{game['id']}/"
    body = {"out": [3, 1, 2, 1], "finished": True}
    assert players.post(url.format(token[1]), body, format="json").status_code == 200
    # Seat 3 is seat 1's partner: neither her confirmation nor an agreeing report counts.
    partner = players.post(url.format(token[3]) + "confirm/", {}, format="json")
    assert partner.status_code == 400 and partner.json()["error"]["field"] == "position"
    again = players.post(url.format(token[3]), body, format="json")
    assert again.status_code == 400 and again.json()["error"]["field"] == "position"
    assert director.get(f"/api/v1/games/{game['id']}/").json()["confirmed"] is False
    # Seat 2 plays for the other team.
    assert players.post(url.format(token[2]) + "confirm/", {}, format="json").status_code == 200
    assert director.get(f"/api/v1/games/{game['id']}/").json()["confirmed"] is True


def test_a_team_is_renamed_readmitted_and_dissolved_through_the_api(director):
    _create(director, TEAMS)
    teams = {t["name"]: t["id"] for t in director.get(f"{BASE}/teams/").json()["results"]}
    renamed = director.patch(f"{BASE}/teams/{teams['Stars']}/", {"name": "Novae"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Novae"
    taken = director.patch(f"{BASE}/teams/{teams['Stars']}/", {"name": "Moons"}, format="json")
    assert taken.status_code == 400 and taken.json()["error"]["field"] == "name"
    assert director.post(f"{BASE}/teams/{teams['Suns']}/withdraw/").status_code == 200
    back = director.post(f"{BASE}/teams/{teams['Suns']}/readmit/")
    assert back.status_code == 200
    assert {p["status"] for p in back.json()["players"]} == {"active"}
    assert director.delete(f"{BASE}/teams/{teams['Comets']}/").status_code == 204
    assert len(director.get(f"{BASE}/teams/").json()["results"]) == 3
    assert len(director.get(f"{BASE}/entries/").json()["results"]) == 8  # players stay
    # Once a team has played it is withdrawn, not dissolved.
    director.delete(f"{BASE}/teams/{teams['Moons']}/")
    assert director.post(f"{BASE}/rounds/").status_code == 201
    refused = director.delete(f"{BASE}/teams/{teams['Stars']}/")
    assert refused.status_code == 409 and refused.json()["error"]["field"] == "team"


def test_only_directors_rename_or_dissolve_a_team(director):
    _create(director, TEAMS)
    team = director.get(f"{BASE}/teams/").json()["results"][0]
    stranger = APIClient()
    stranger.force_authenticate(UserFactory(username="stranger"))
    assert stranger.patch(
        f"{BASE}/teams/{team['id']}/", {"name": "x"}, format="json"
    ).status_code in (403, 404)
    assert stranger.delete(f"{BASE}/teams/{team['id']}/").status_code in (403, 404)
    assert director.get(f"{BASE}/teams/{team['id']}/").json()["name"] == team["name"]
