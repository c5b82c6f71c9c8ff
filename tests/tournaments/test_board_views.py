"""The board page: the position endpoint, saving through the page, who may record."""

from __future__ import annotations

import json
import math

import pytest
from django.urls import reverse

from games.pentagame.playout import random_game
from games.pictures.pentagame import BOARD_R, CORNER_R, CROSSING_R, board_geometry, position_payload
from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Round
from tournaments.results.services.results import Actor, game_record_moves

OPENING = ["Wxr:G2W", "Bxg:B1R"]
# A complete two-player game of 160 plies.
LONG_GAME = random_game(2, seed=3, max_plies=3000)
# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()


@pytest.fixture
def game() -> Game:
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.filter(table__round=round_).order_by("number").first()


@pytest.fixture
def director(game):
    user = UserFactory()
    game.table.round.tournament.directors.add(user)
    return user


def post_json(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


# --- geometry (no database) --------------------------------------------------------------


def _dist(a, b):
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"])


def test_the_board_has_three_stop_sizes_and_the_books_radius():
    board = board_geometry()
    stops = board["stops"]
    assert len(stops) == 100
    assert {round(s["r"], 3) for s in stops} == {1.0, round(CORNER_R, 3), round(CROSSING_R, 3)}
    assert [s["name"] for s in stops[:10]] == list("WBRYGwbryg")
    # Book §15: R = 24.6174 s, the corners' centres on the circle r = 22.3813 s.
    assert BOARD_R == pytest.approx(24.6174, abs=1e-4)
    assert math.hypot(stops[0]["x"], stops[0]["y"]) == pytest.approx(22.3813, abs=1e-3)


def test_stops_on_a_line_touch_each_other_and_the_nodes():
    stops = board_geometry()["stops"]
    by_name = {s["name"]: s for s in stops}
    # The long line W..r: corner, six stops, crossing, each touching the next.
    line = [by_name[n] for n in ("W", "W1r", "W2r", "W3r", "r3W", "r2W", "r1W", "r")]
    for a, b in zip(line, line[1:], strict=False):
        assert _dist(a, b) == pytest.approx(a["r"] + b["r"], abs=2e-3)
    # Each crossing lies opposite the corner of its colour (book §1).
    for colour in "WBRYG":
        c, x = by_name[colour], by_name[colour.lower()]
        turn = math.degrees(math.atan2(x["y"], x["x"]) - math.atan2(c["y"], c["x"])) % 360
        assert turn == pytest.approx(180, abs=0.01)


# --- the position endpoint ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_position_endpoint_gives_pieces_blocks_and_grouped_legal_moves(client):
    response = post_json(client, reverse("games:position"), {"players": 2, "moves": []})
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] and body["to_move"] == 1 and not body["finished"]
    assert body["black"] == [5, 6, 7, 8, 9] and body["grey"] == [None] * 5
    on_w = [p for p in body["pieces"] if p["stop"] == 0]
    assert {(p["seat"], p["colour"]) for p in on_w} == {(1, "w"), (2, "w")}
    take = next(m for m in body["legal"] if m["text"] == "Wxr")
    assert take["from"] == 0 and take["to"] == 7 and take["black"] and not take["out"]
    # The black block may go on any stop that is empty once the piece has moved.
    assert 41 in take["free"] and 0 not in take["free"] and 7 not in take["free"]
    plain = next(m for m in body["legal"] if m["text"] == "W-W1B")
    assert "free" not in plain


def test_a_piece_reaching_its_goal_asks_for_the_grey_block():
    # Seat 1's white piece goes W->r, r->b and then onto its goal w.
    moves = ["Wxr:G2W", "Bxg:B1R", "rxb:B2R", "Gxy:R1Y", "bxw:W1B"]
    before = position_payload({"players": 2, "variant": "standard", "moves": moves[:4]})
    out = next(m for m in before["legal"] if m["text"] == "bxw")
    assert out["black"] and out["out"] and out["grey_from"] is None
    after = position_payload(
        {"players": 2, "variant": "standard", "moves": [*moves[:4], "bxw:W1BzW2B"]}
    )
    assert after["ok"], after["error"]
    assert after["out"] == [["w"], []]
    assert after["grey"][0] is not None


@pytest.mark.django_db
def test_an_illegal_record_names_the_ply_and_offers_no_moves(client):
    body = post_json(
        client, reverse("games:position"), {"players": 2, "moves": ["W-W1B", "W-W1B"]}
    ).json()
    assert not body["ok"] and body["plies"] == 1
    assert body["error"]["ply"] == 2 and body["legal"] == []


@pytest.mark.django_db
def test_the_position_endpoint_refuses_what_is_not_a_record(client):
    url = reverse("games:position")
    response = post_json(client, url, {"players": 9, "moves": []})
    assert response.status_code == 400 and "2 to 5" in response.json()["error"]["message"]
    assert client.post(url, data="{", content_type="application/json").status_code == 400
    assert client.get(url).status_code == 405


# --- pages and saving ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_director_records_and_saves_through_the_page_a_game_in_progress(client, game, director):
    client.force_login(director)
    url = reverse("games:record", args=[game.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert b'id="pg-svg"' in page.content and b'aria-label="W3r"' in page.content
    response = post_json(client, url, {"moves": OPENING, "version": game.version})
    assert response.status_code == 200, response.content
    answer = response.json()
    game.refresh_from_db()
    assert game.moves == OPENING and game.status == Game.Status.IN_PROGRESS
    assert answer["version"] == game.version and answer["confirmed"] is True


@pytest.mark.django_db
def test_the_services_error_comes_back_for_the_page_to_show(client, game, director):
    client.force_login(director)
    url = reverse("games:record", args=[game.pk])
    response = post_json(client, url, {"moves": ["W-W1B", "W-W1B"], "version": game.version})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "moves"
    assert response.json()["error"]["code"] == "invalid"
    assert response.json()["error"]["message"].startswith("ply 2 `W-W1B`")
    game.refresh_from_db()
    assert game.moves == [] and game.status == Game.Status.PENDING


@pytest.mark.django_db
def test_a_stale_version_is_a_conflict(client, game, director):
    client.force_login(director)
    url = reverse("games:record", args=[game.pk])
    assert post_json(client, url, {"moves": OPENING, "version": game.version}).status_code == 200
    stale = post_json(client, url, {"moves": OPENING[:1], "version": game.version})
    assert (
        stale.status_code == 409 and "changed by someone else" in stale.json()["error"]["message"]
    )


@pytest.mark.django_db
def test_a_malformed_save_is_refused(client, game, director):
    client.force_login(director)
    url = reverse("games:record", args=[game.pk])
    assert post_json(client, url, {"moves": "W-W1B"}).status_code == 400
    assert post_json(client, url, {"version": 0}).status_code == 400


@pytest.mark.django_db
def test_players_record_through_their_own_link_as_their_own_seat_a_game_in_progress(client, game):
    seat = game.table.seats.get(position=1)
    url = reverse("games:record-token", args=[game.pk, seat.report_token])
    page = client.get(url)
    assert page.status_code == 200 and b'id="pg-position"' in page.content
    other = post_json(client, url, {"moves": OPENING, "version": game.version, "position": 2})
    assert other.status_code == 400 and other.json()["error"]["field"] == "position"
    saved = post_json(client, url, {"moves": OPENING, "version": game.version})
    assert saved.status_code == 200, saved.content
    game.refresh_from_db()
    # A partial record is in progress: no result waiting for an opponent's confirmation.
    assert game.moves == OPENING and game.status == Game.Status.IN_PROGRESS
    assert not game.counts and game.reported_by_position == 1


@pytest.mark.django_db
def test_strangers_are_refused(client, game):
    record = reverse("games:record", args=[game.pk])
    assert client.get(record).status_code == 302  # to the login page
    assert post_json(client, record, {"moves": OPENING}).status_code == 302
    client.force_login(UserFactory())
    assert client.get(record).status_code == 403
    assert post_json(client, record, {"moves": OPENING}).status_code == 403
    wrong = reverse("games:record-token", args=[game.pk, "not-the-token"])
    assert client.get(wrong).status_code == 404
    assert post_json(client, wrong, {"moves": OPENING, "position": 1}).status_code == 404
    game.refresh_from_db()
    assert game.moves == []


@pytest.mark.django_db
def test_another_tables_token_does_not_open_this_game(client):
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    first, second = round_.tables.order_by("number")[:2]
    game = first.games.first()
    url = reverse("games:record-token", args=[game.pk, second.seats.first().report_token])
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_a_closed_round_refuses_players_but_not_directors(client, game, director):
    round_close(round=game.table.round, force=True, by=Actor.command())
    url = reverse(
        "games:record-token", args=[game.pk, game.table.seats.get(position=2).report_token]
    )
    refused = post_json(client, url, {"moves": OPENING, "position": 2})
    assert refused.status_code == 400 and "closed" in refused.json()["error"]["message"]
    client.force_login(director)
    # A director too only as a deliberate correction (services/results.py).
    record = reverse("games:record", args=[game.pk])
    plain = post_json(client, record, {"moves": OPENING})
    assert plain.status_code == 409 and plain.json()["error"]["field"] == "correction"
    ok = post_json(client, record, {"moves": OPENING, "correction": True})
    assert ok.status_code == 200


@pytest.mark.django_db
def test_the_replay_page_is_public_and_links_to_a_position(client, game):
    game_record_moves(by=DIRECTOR, game=game, moves=OPENING)
    url = reverse("games:replay", args=[game.pk])
    page = client.get(url + "?ply=1")
    assert page.status_code == 200
    data = page.context["data"]
    assert data["mode"] == "replay" and data["ply"] == 1 and data["record"]["moves"] == OPENING
    assert client.get(url + "?ply=99").context["data"]["ply"] == 2
    assert client.get(url + "?ply=x").context["data"]["ply"] == 2


def _page_data(html: str) -> dict:
    return json.loads(html.split('id="pg-data" type="application/json">')[1].split("</script>")[0])


def _keys(value) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


@pytest.mark.django_db
def test_the_replay_page_grows_by_the_move_texts_only_not_by_a_position_per_ply(client, game):
    """The replay sends the record and the browser finds the positions: a page of 160
    plies is the page of an empty game plus each move's text, twice (the page's JSON and
    the record for readers without JavaScript), where it was a board position per ply
    (about 700 bytes each) before."""
    assert len(LONG_GAME) >= 100
    empty = Game.objects.filter(table=game.table).exclude(pk=game.pk).first()
    assert empty is not None and empty.moves == []
    game_record_moves(by=DIRECTOR, game=game, moves=LONG_GAME)
    html = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    data = _page_data(html)
    assert data["record"]["moves"] == LONG_GAME and data["ply"] == len(LONG_GAME)
    assert not {"frames", "pieces", "black", "grey"} & _keys(data)
    baseline = len(client.get(reverse("games:replay", args=[empty.pk])).content)
    # Per move: its text in a JSON list ("m", ) and in the record's text (m, ), and the
    # headings and flags that differ between a finished and a pending game.
    bound = sum(2 * len(move) + 8 for move in LONG_GAME) + 200
    assert len(html.encode()) - baseline <= bound


@pytest.mark.django_db
def test_the_state_leaves_out_the_position_and_its_legal_moves_when_asked(client, game):
    """The replay page follows a live game with `?legal=0`: the moves, without the work
    of finding the legal moves."""
    game_record_moves(by=DIRECTOR, game=game, moves=OPENING)
    url = reverse("games:state", args=[game.pk])
    full = client.get(url).json()
    light = client.get(url + "?legal=0").json()
    assert full["position"]["legal"] and "position" not in light
    assert light["moves"] == full["moves"] == OPENING and light["version"] == full["version"]


@pytest.mark.django_db
def test_an_unpublished_round_or_tournament_has_no_replay(client, game):
    url = reverse("games:replay", args=[game.pk])
    Round.objects.filter(pk=game.table.round_id).update(status=Round.Status.PAIRED)
    assert client.get(url).status_code == 404
    Round.objects.filter(pk=game.table.round_id).update(status=Round.Status.PUBLISHED)
    type(game.table.round.tournament).objects.filter(pk=game.table.round.tournament_id).update(
        published=False
    )
    assert client.get(url).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        b'{"moves": ["RsY"], "version": 1e999}',
        b'{"moves": ["RsY"], "version": 2.5}',
        b'{"moves": ["RsY"], "version": true}',
        b'{"moves": ["RsY"], "version": 99999999999999999999}',
        b'{"moves": ["Rs\\ud800Y"], "version": 0}',
        b'{"moves": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    ],
)
def test_a_save_with_a_bad_number_or_nesting_is_a_400_and_changes_nothing(
    client, game, director, body
):
    client.force_login(director)
    url = reverse("games:record", args=[game.pk])
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.version == 0 and game.moves == []


@pytest.mark.django_db
def test_the_position_endpoint_refuses_json_nested_too_deep(client):
    body = b'{"players": 2, "moves": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    response = client.post(reverse("games:position"), data=body, content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_the_board_is_drawn_with_decimal_dots_in_german(client, game):
    import re

    page = client.get(
        reverse("games:replay", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert '<html lang="de">' in page
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert len(re.findall(r'class="pg-stop ', svg)) == 100
    assert not re.search(r'(?:cx|cy|r|x1|y1|x2|y2|viewBox)="[^"]*\d,\d', svg)
