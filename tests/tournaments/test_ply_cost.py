"""A ply is cheap and its cost does not grow with its game (issue 44, point 3): a ply
sent from a seat's link is checked against the position stored with the record
(`Game.position`), never by replaying the record, and costs the same few SQL statements
at ply 10 as at ply 300, its answer and its news to the live tables included.

Counted without a test transaction around it, as production runs: the request's
statements, the broadcast after the commit included, none of a session's (a seat's link
has none)."""

from __future__ import annotations

import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import pentagame
from games.pentagame.playout import random_game
from games.pentagame.rules import Position
from tests.factories import tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Ply, Seat
from tournaments.results.services.result_path import ResultEntry, game_result_record

pytestmark = pytest.mark.django_db(transaction=True)

# The statements of one ply, all counted: the game with the link's seat (the view),
# BEGIN, the game's row locked with its seat count and flags, the ply rows' facts, the
# record in progress, the game row, the ply row, COMMIT (after which its news is sent
# with the state it wrote, reading nothing).
PLY_STATEMENTS = 8


def _long_game(players: int, plies: int) -> list[str]:
    seed = 0
    while True:
        moves = random_game(players, seed=seed, max_plies=plies + 1)
        if (
            len(moves) > plies
            and not pentagame.replay(
                {"players": players, "variant": "standard", "moves": moves[:plies]}
            ).finished
        ):
            return moves
        seed += 1


RECORD = _long_game(3, 301)


def _table():
    t = tournament_with_players(3)
    round_ = round_pair_next(tournament=t, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    tokens = {s.position: s.report_token for s in Seat.objects.filter(table=game.table)}
    return game, tokens


def test_a_ply_costs_the_same_few_statements_at_ply_10_and_at_ply_300(client, monkeypatch):
    game, tokens = _table()
    order = game.moving_order(3)
    # Every replay plays the record's moves through `Position.play`; a ply checked
    # against the stored position plays one move.
    replays: list[int] = []
    play = Position.play

    def spied(self, moves):
        if len(moves) > 1:
            replays.append(len(moves))
        return play(self, moves)

    monkeypatch.setattr(Position, "play", spied)
    counts = {}
    for n, move in enumerate(RECORD[:300], start=1):
        url = reverse("games:record-token", args=[game.pk, tokens[order[(n - 1) % 3]]])
        body = json.dumps({"ply": n, "move": move, "key": uuid.uuid4().hex})
        replays.clear()
        with CaptureQueriesContext(connection) as ctx:
            answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 200, answer.content
        counts[n] = len(ctx.captured_queries)
        if n == 10:
            at_10 = [q["sql"][:90] for q in ctx.captured_queries]
        if n > 2:
            # Checked against the stored position: the record is never replayed, not
            # for the ply, its answer's legal moves or the live tables' board.
            assert replays == [], (n, replays)
    assert counts[10] == counts[300] <= PLY_STATEMENTS, (counts, at_10)
    assert max(counts[n] for n in range(3, 301)) <= PLY_STATEMENTS
    game.refresh_from_db()
    assert game.moves == RECORD[:300] and game.status == Game.Status.IN_PROGRESS
    assert Ply.objects.filter(game=game).count() == 300
    # The answer is the one a replay gives: the position and its legal moves.
    state = answer.json()
    assert state["moves"] == RECORD[:300] and state["last_by"] == order[299 % 3]
    assert state["position"]["plies"] == 300 and state["position"]["legal"]


def test_a_ply_after_a_whole_record_was_saved_replays_once_and_is_cheap_again(client):
    """Any other write of the record forgets the stored position; the next ply replays
    the record once and stores it; a record cut back takes its stale ply rows along."""
    game, tokens = _table()
    order = game.moving_order(3)

    def send(n: int) -> None:
        url = reverse("games:record-token", args=[game.pk, tokens[order[(n - 1) % 3]]])
        body = json.dumps({"ply": n, "move": RECORD[n - 1], "key": uuid.uuid4().hex})
        assert client.post(url, body, content_type="application/json").status_code == 200

    for n in range(1, 41):
        send(n)
    game.refresh_from_db()
    assert game.position["ply"] == 40
    # The director saves a shorter record as a whole: the rows of plies 31-40 go.
    director = Actor.command()
    game_result_record(game=game, entry=ResultEntry(moves=RECORD[:30]), by=director)
    game.refresh_from_db()
    assert game.position is None
    assert list(Ply.objects.filter(game=game).values_list("number", flat=True)) == list(
        range(1, 31)
    )
    send(31)
    game.refresh_from_db()
    assert game.moves == RECORD[:31] and game.position["ply"] == 31
