"""The recording board's batch door (docs/offline.md, "The batch door"; issue 44, point
2): one request carries many queued plies, each answered as its own request would be,
each with its own idempotency key, the plies of one game in order in one transaction,
counted by the throttles item by item, every item checked for its actor."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.pentagame.playout import random_game
from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core import throttles
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, IdempotencyKey, Ply, PlyConflict, Round, Seat
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor
from tournaments.results.views.batch import MAX_BYTES, MAX_ITEMS

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()
BATCH = "/games/batch/"
MOVES = random_game(2, "standard", 11, 40)


@pytest.fixture(autouse=True)
def _fresh_throttles():
    caches["default"].clear()
    yield
    caches["default"].clear()


def round_of_tables(tables: int = 2, organiser: Any | None = None) -> list[tuple[Game, dict]]:
    """A published round of 2-player tables: each table's first game and its seats."""
    club = ClubFactory()
    if organiser is not None:
        club.organisers.add(organiser)
    tournament = tournament_with_players(2 * tables, club=club)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    games = Game.objects.filter(table__round=round_, number=1, table__is_bye=False).order_by(
        "table__number"
    )
    return [(g, {s.position: s for s in Seat.objects.filter(table=g.table)}) for g in games]


def link(game: Game, seat: Seat) -> str:
    return reverse("games:record-token", args=[game.pk, seat.report_token])


def typed(minutes_ago: int = 5) -> str:
    return (datetime.now(UTC) - timedelta(minutes=minutes_ago)).isoformat().replace("+00:00", "Z")


def ply(url: str, number: int, move: str, key: str | None = None) -> dict[str, Any]:
    """An item as the queue sends it: its key, the door it stands for, its body."""
    k = key or uuid.uuid4().hex
    return {
        "key": k,
        "url": url,
        "queued_at": typed(),
        "body": {"ply": number, "move": move, "key": k},
    }


def plies(url: str, moves: list[str], start: int = 1) -> list[dict[str, Any]]:
    return [ply(url, n, m) for n, m in enumerate(moves, start=start)]


def batch(items: list[dict[str, Any]], client: Client | None = None):
    return (client or Client()).post(
        BATCH, json.dumps({"items": items}), content_type="application/json"
    )


def send_alone(url: str, item: dict[str, Any]):
    """An item as the queue sends it by itself: its own request to its game's door."""
    return Client().post(
        url,
        json.dumps(item["body"]),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=item["key"],
        HTTP_X_AGON_QUEUED_AT=item["queued_at"],
    )


def outcomes(answer) -> list[tuple[int, str]]:
    return [(a["status"], a["outcome"]) for a in answer.json()["items"]]


def test_a_batch_stores_each_ply_once_and_answers_each_in_the_order_sent():
    (game_a, seats_a), (game_b, seats_b) = round_of_tables(2)
    items = plies(link(game_a, seats_a[1]), MOVES[:5]) + plies(link(game_b, seats_b[2]), MOVES[:3])
    # Interleaved: the answer follows the order sent, each game's plies in their order.
    items = [items[0], items[5], items[1], items[6], items[2], items[7], items[3], items[4]]
    answer = batch(items)
    assert answer.status_code == 200, answer.content
    assert outcomes(answer) == [(200, "saved")] * 8
    game_a.refresh_from_db()
    game_b.refresh_from_db()
    assert list(game_a.moves) == MOVES[:5] and list(game_b.moves) == MOVES[:3]
    assert Ply.objects.filter(game__in=[game_a, game_b]).count() == 8
    assert IdempotencyKey.objects.filter(key__in=[i["key"] for i in items]).count() == 8
    # Each game's state once, after its last ply (the board adopts it).
    states = answer.json()["games"]
    assert states[str(game_a.pk)]["moves"] == MOVES[:5] and "position" in states[str(game_a.pk)]
    assert states[str(game_b.pk)]["version"] == game_b.version


def test_mixed_outcomes_saved_in_already_flagged_refused_each_named_and_others_go_on():
    (game_a, seats_a), (game_b, seats_b), (game_c, seats_c) = round_of_tables(3)
    url_a, url_b, url_c = (
        link(game_a, seats_a[1]),
        link(game_b, seats_b[1]),
        link(game_c, seats_c[1]),
    )
    # Game B: another device recorded ply 1 already, and a different ply 2.
    by = Actor.player(seats_b[2])
    for n, move in ((1, MOVES[0]), (2, MOVES[1])):
        game_result_record(
            game=game_b, entry=ResultEntry(ply=PlyEntry(number=n, move=move, key=f"o{n}")), by=by
        )
    other = next(m for m in random_game(2, "standard", 99, 2)[1:] if m != MOVES[1])
    items = [
        ply(url_a, 1, MOVES[0]),
        ply(url_a, 2, "not-a-move"),  # refused: the notation does not read it
        ply(url_a, 2, MOVES[1]),  # the next goes on
        ply(url_b, 1, MOVES[0]),  # in already
        ply(url_b, 2, other),  # flagged: another ply at that number
        ply(url_c, 5, MOVES[0]),  # refused: beyond the record
        ply(link(game_c, seats_a[1]), 1, MOVES[0]),  # another table's link: no such game
        ply(url_c, 1, MOVES[0]),
    ]
    answer = batch(items)
    assert answer.status_code == 200, answer.content
    got = answer.json()["items"]
    assert outcomes(answer) == [
        (200, "saved"),
        (400, "refused"),
        (200, "saved"),
        (200, "duplicate"),
        (202, "conflict"),
        (409, "refused"),
        (404, "refused"),
        (200, "saved"),
    ]
    assert got[1]["error"]["field"] == "move"
    assert got[5]["error"]["field"] == "ply" and "ply 1" in got[5]["error"]["message"]
    assert "ply 2" in got[4]["detail"]
    assert not any(a.get("retry") for a in got)
    game_a.refresh_from_db()
    game_c.refresh_from_db()
    assert list(game_a.moves) == MOVES[:2] and list(game_c.moves) == MOVES[:1]
    assert PlyConflict.objects.filter(game=game_b, number=2, move=other).exists()
    # The refused link's item was not run: its key is not taken.
    assert not IdempotencyKey.objects.filter(key=items[6]["key"]).exists()


def test_the_same_batch_sent_again_stores_nothing_twice_and_answers_alike():
    ((game, seats),) = round_of_tables(1)
    items = plies(link(game, seats[1]), MOVES[:6])
    first = batch(items)
    version = Game.objects.get(pk=game.pk).version
    again = batch(items)
    assert again.status_code == 200
    assert [a["status"] for a in again.json()["items"]] == [
        a["status"] for a in first.json()["items"]
    ]
    assert all(a["replayed"] for a in again.json()["items"])
    assert not any(a["replayed"] for a in first.json()["items"])
    assert Ply.objects.filter(game=game).count() == 6
    assert Game.objects.get(pk=game.pk).version == version


def test_a_batch_cut_in_the_middle_and_sent_again_with_its_items_alone_first_stores_once():
    ((game, seats),) = round_of_tables(1)
    url = link(game, seats[1])
    items = plies(url, MOVES[:8])
    # The first three went alone (the queue's single requests) before the connection
    # was cut; then the whole batch goes: the same keys, the same requests.
    for item in items[:3]:
        alone = send_alone(url, item)
        assert alone.status_code == 200, alone.content
    answer = batch(items)
    assert [a["replayed"] for a in answer.json()["items"]] == [True] * 3 + [False] * 5
    assert outcomes(answer) == [(200, "saved")] * 8
    assert Ply.objects.filter(game=game).count() == 8
    # And an item of the batch sent alone afterwards is its stored answer again.
    alone = send_alone(url, items[-1])
    assert alone.status_code == 200 and alone["Idempotency-Replayed"] == "true"
    # The same key with another body is the single door's 422, and writes nothing.
    changed = {**items[-1], "body": {**items[-1]["body"], "move": MOVES[9]}}
    assert outcomes(batch([changed])) == [(422, "refused")]
    assert Ply.objects.filter(game=game).count() == 8


def test_an_oversize_batch_is_refused_naming_the_field_and_nothing_is_saved():
    ((game, seats),) = round_of_tables(1)
    url = link(game, seats[1])
    many = [ply(url, 1, MOVES[0]) for _ in range(MAX_ITEMS + 1)]
    answer = batch(many)
    assert answer.status_code == 413
    assert answer.json()["error"]["field"] == "items"
    assert str(MAX_ITEMS) in answer.json()["error"]["message"]
    big = [ply(url, 1, MOVES[0])]
    big[0]["body"]["padding"] = "x" * MAX_BYTES
    answer = batch(big)
    assert answer.status_code == 413 and answer.json()["error"]["field"] == "body"
    malformed = batch([{"key": "k" * 10, "url": url}])
    assert malformed.status_code == 400 and malformed.json()["error"]["field"] == "items[0]"
    assert batch([]).status_code == 400
    assert not Ply.objects.filter(game=game).exists()
    assert not IdempotencyKey.objects.exists()


def test_items_the_door_does_not_take_are_named_and_the_others_go():
    ((game, seats),) = round_of_tables(1)
    url = link(game, seats[1])
    report = {
        "key": uuid.uuid4().hex,
        "url": reverse("seat-report", args=[seats[1].report_token]),
        "body": {"out": "3 1"},
    }
    record = {"key": uuid.uuid4().hex, "url": url, "body": {"moves": MOVES[:2], "version": 1}}
    answer = batch([report, record, ply(url, 1, MOVES[0])])
    got = answer.json()["items"]
    assert [(a["status"], a["error"]["code"] if "error" in a else a["outcome"]) for a in got] == [
        (400, "not_batched"),
        (400, "not_batched"),
        (200, "saved"),
    ]
    assert got[0]["error"]["field"] == "url" and got[1]["error"]["field"] == "body"


def test_throttling_counts_items_not_requests(monkeypatch):
    for cls in (throttles.LinkThrottle, throttles.AddressThrottle):
        monkeypatch.setattr(
            cls, "THROTTLE_RATES", {"link_writes": "3/minute", "address_writes": "100/minute"}
        )
    (game_a, seats_a), (game_b, seats_b) = round_of_tables(2)
    items = plies(link(game_a, seats_a[1]), MOVES[:5]) + plies(link(game_b, seats_b[1]), MOVES[:2])
    answer = batch(items)
    got = answer.json()["items"]
    # Three writes of the first link, then its plies wait (in order); the other link's go.
    assert outcomes(answer) == [(200, "saved")] * 3 + [(429, "refused")] * 2 + [(200, "saved")] * 2
    assert got[3]["retry"] and got[4]["retry"]
    assert Ply.objects.filter(game=game_a).count() == 3
    # The link's budget is spent for single requests too, and a batch of only its
    # items is a 429 with Retry-After.
    again = batch(items[3:5])
    assert again.status_code == 429 and int(again["Retry-After"]) >= 1
    alone = Client().post(
        link(game_a, seats_a[1]),
        json.dumps(items[3]["body"]),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=items[3]["key"],
    )
    assert alone.status_code == 429
    assert not IdempotencyKey.objects.filter(key__in=[i["key"] for i in items[3:5]]).exists()


def test_a_directors_session_records_its_tournaments_games_only():
    organiser = UserFactory(username=f"org-{uuid.uuid4().hex[:6]}")
    ((mine, _seats),) = round_of_tables(1, organiser=organiser)
    ((theirs, _other),) = round_of_tables(1)
    client = Client()
    client.force_login(organiser)
    mine_url = reverse("games:record", args=[mine.pk])
    theirs_url = reverse("games:record", args=[theirs.pk])
    answer = batch([ply(mine_url, 1, MOVES[0]), ply(theirs_url, 1, MOVES[0])], client)
    assert outcomes(answer) == [(200, "saved"), (403, "refused")]
    assert str(theirs.pk) not in answer.json()["games"]
    # Without a session a director's door is refused, item by item.
    assert outcomes(batch([ply(mine_url, 2, MOVES[1])])) == [(403, "refused")]
    assert not Ply.objects.filter(game=theirs).exists()


def test_a_batch_of_a_hundred_plies_costs_far_fewer_statements_than_a_hundred_requests():
    ((game, seats),) = round_of_tables(1)
    moves = random_game(2, "standard", 5, 100)
    items = plies(link(game, seats[1]), moves)
    with CaptureQueriesContext(connection) as queries:
        answer = batch(items)
    assert outcomes(answer) == [(200, "saved")] * len(moves)
    assert Ply.objects.filter(game=game).count() == len(moves)
    # Per ply: the ply's own statements; the keys claimed and stored, the actor read and
    # the game's state once for the batch (single requests: 28-30 and 5 for the key).
    assert len(queries) / len(moves) < 25, len(queries)


def test_a_run_of_plies_is_written_at_once_and_its_statements_do_not_grow_with_the_run():
    (short, seats_s), (long_, seats_l) = round_of_tables(2)
    moves = random_game(2, "standard", 5, 100)
    counts = []
    for game, seats, run in ((short, seats_s, moves[:20]), (long_, seats_l, moves)):
        items = plies(link(game, seats[1]), run)
        with CaptureQueriesContext(connection) as queries:
            answer = batch(items)
        assert outcomes(answer) == [(200, "saved")] * len(run)
        counts.append(len(queries))
        game.refresh_from_db()
        assert list(game.moves) == run
        # The position stored is the record's: the next ply is checked against it.
        assert game.position["ply"] == len(run)
        assert list(
            Ply.objects.filter(game=game).order_by("number").values_list("number", "move")
        ) == list(enumerate(run, start=1))
    # The first ply alone, then the run of 19 or 99 in the same statements.
    assert counts[0] == counts[1], counts
    assert counts[1] < 60, counts


def _alone(url: str, item: dict[str, Any]) -> tuple[int, str]:
    response = send_alone(url, item)
    if response.status_code < 400:
        return response.status_code, ""
    return response.status_code, response.json()["error"].get("field", "")


def _state(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    rows = Ply.objects.filter(game=game).order_by("number")
    return (
        list(game.moves),
        game.status,
        game.out_list(2),
        game.position,
        [(p.number, p.move, p.by_position, p.at) for p in rows],
    )


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    length=st.integers(2, 30),
    wrong=st.none() | st.tuples(st.integers(0, 29), st.sampled_from(["bad", "illegal", "again"])),
    cut=st.integers(1, 30),
)
def test_a_batch_leaves_the_game_exactly_as_its_plies_sent_alone(seed, length, wrong, cut):
    """Random records with a wrong item somewhere (unreadable, illegal, a ply sent
    twice), sent as batches cut anywhere and, at another table, one request each: the
    same statuses and fields at fault, the same record, position, rows and labels (a
    single request's 200 carries the game's state, a batch item's its outcome)."""
    caches["default"].clear()
    (by_batch, seats_b), (alone, seats_a) = round_of_tables(2)
    moves = random_game(2, "standard", seed, length)
    sent: list[tuple[int, str]] = list(enumerate(moves, start=1))
    if wrong is not None:
        at, kind = wrong
        at = min(at, len(sent) - 1)
        number = sent[at][0]
        other = "W-W1B" if sent[at][1] != "W-W1B" else "B-B1W"
        insert = {"bad": (number, "not-a-move"), "illegal": (number, other)}.get(
            kind, sent[max(0, at - 1)]
        )
        sent.insert(at, insert)
    stamp = datetime.now(UTC) - timedelta(hours=1)
    labels = [
        (stamp + timedelta(seconds=n)).isoformat().replace("+00:00", "Z") for n in range(len(sent))
    ]

    def items(url: str) -> list[dict[str, Any]]:
        out = []
        for (number, move), label in zip(sent, labels, strict=True):
            key = uuid.uuid4().hex
            out.append(
                {
                    "key": key,
                    "url": url,
                    "queued_at": label,
                    "body": {"ply": number, "move": move, "key": key},
                }
            )
        return out

    batched = items(link(by_batch, seats_b[1]))
    answers: list[tuple[int, str]] = []
    for start in range(0, len(batched), cut):
        answer = batch(batched[start : start + cut])
        assert answer.status_code == 200, answer.content
        answers += [
            (a["status"], (a.get("error") or {}).get("field", "")) for a in answer.json()["items"]
        ]
    url = link(alone, seats_a[1])
    single = [_alone(url, item) for item in items(url)]
    assert answers == single
    assert _state(by_batch) == _state(alone)


@pytest.mark.embedded
def test_the_batch_door_works_on_the_embedded_default_too():
    """SQLite claims the keys one by one (`idempotency_claim_many`'s fallback): the same
    answers, the same single storage."""
    ((game, seats),) = round_of_tables(1)
    items = plies(link(game, seats[1]), MOVES[:4])
    items.append(dict(items[1]))  # a key twice in one batch: the first's answer again
    first = batch(items)
    assert outcomes(first) == [(200, "saved")] * 5
    assert [a["replayed"] for a in first.json()["items"]] == [False] * 4 + [True]
    again = batch(items)
    assert all(a["replayed"] for a in again.json()["items"])
    assert Ply.objects.filter(game=game).count() == 4
    assert IdempotencyKey.objects.filter(key__in=[i["key"] for i in items]).count() == 4


def test_a_batch_items_claimed_time_only_labels_its_ply_and_never_moves_the_clock():
    """The server owns the clock (docs/offline.md, "The clock is the server's"): a batch
    item's ``queued_at`` from the future is labelled now, one from before the round was
    published is labelled with the publication, the plies' received times are the
    server's, and a time that cannot be read is refused naming ``queued_at``."""
    ((game, seats),) = round_of_tables(1)
    url = link(game, seats[1])
    future = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    ancient = "2001-01-01T00:00:00Z"
    items = plies(url, MOVES[:6])
    for n, item in enumerate(items):
        item["queued_at"] = future if n % 2 else ancient
    before = datetime.now(UTC)
    answer = batch(items)
    after = datetime.now(UTC)
    assert outcomes(answer) == [(200, "saved")] * 6
    published = Round.objects.get(pk=game.table.round_id).published_at
    rows = list(Ply.objects.filter(game=game).order_by("number"))
    assert [p.number for p in rows] == [1, 2, 3, 4, 5, 6]
    for row in rows:
        assert before <= row.received_at <= after  # the server's clock
        assert published <= row.at <= after  # a label between publication and now
    assert all(row.at >= earlier.at for earlier, row in zip(rows, rows[1:], strict=False))
    bad = ply(url, 7, MOVES[6])
    bad["queued_at"] = "yesterday, about teatime"
    got = batch([bad]).json()["items"][0]
    assert (got["status"], got["error"]["field"]) == (400, "queued_at")
    assert Ply.objects.filter(game=game).count() == 6
