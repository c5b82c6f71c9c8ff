"""Trust at the edges (issue 41) for the plies and the write doors of the pages: the egg
timer reads the server's clock, never a device's (`X-Agon-Queued-At` only labels an
item); a move is read by the game's notation before anything is stored; a game holds
one open conflict flag per seat and ply, so its live message stays small whatever a
link sends; the board's save, the report form and the results screen's writes are
throttled per link and per address like the API (429 in the one error shape)."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.pentagame.board import STOP_NAMES
from games.pentagame.playout import random_game
from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core import throttles
from tournaments.core.errors import ServiceError
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Ply, PlyConflict, Round, Seat
from tournaments.results.selectors.table_state import game_live
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db

COMMAND = Actor.command()
FORGED = {"HTTP_X_AGON_QUEUED_AT": "2000-01-01T00:00:00Z"}


def two_player_round(
    organiser: Any | None = None, **tournament: Any
) -> tuple[Round, Game, dict[int, Seat]]:
    """A published round with one 2-player table: the round, its first game, the seats."""
    club = ClubFactory()
    if organiser is not None:
        club.organisers.add(organiser)
    t = tournament_with_players(2, club=club, **tournament)
    round_ = round_pair_next(tournament=t, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    game = Game.objects.select_related("table__round__tournament").get(
        table__round=round_, number=1
    )
    seats = {s.position: s for s in Seat.objects.filter(table=game.table)}
    return round_, game, seats


def board_url(seat: Seat, game: Game) -> str:
    return reverse("games:record-token", args=[game.pk, seat.report_token])


def api_url(seat: Seat, game: Game) -> str:
    return reverse("api:report-plies", args=[seat.report_token, game.pk])


def post(url: str, body: dict[str, Any], **headers: Any):
    return Client().post(
        url,
        json.dumps(body),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        **headers,
    )


def send(game: Game, seat: Seat | None, number: int, move: str, **kw: Any) -> Game:
    by = Actor.player(seat) if seat is not None else COMMAND
    entry = ResultEntry(ply=PlyEntry(number=number, move=move, key=uuid.uuid4().hex))
    return game_result_record(game=game, entry=entry, by=by, **kw)


@pytest.fixture(autouse=True)
def _fresh_throttles():
    caches["default"].clear()
    yield
    caches["default"].clear()


# --- the clock is the server's ----------------------------------------------------------


@pytest.mark.parametrize("door", [board_url, api_url], ids=["board", "api"])
def test_a_forged_early_queued_time_never_makes_the_opponents_timeout_valid(door):
    round_, game, seats = two_player_round(seconds_per_move=60)
    # The round went out two hours ago: a clock clamped to it alone is long past.
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(hours=2))
    order = game.moving_order(2)
    mine = seats[order[0]]
    move = random_game(2, seed=3, max_plies=1)[0]
    first = post(door(mine, game), {"ply": 1, "move": move, "key": "k1"}, **FORGED)
    assert first.status_code == 200, first.content
    # At once, the same link claims the opponent ran out of time.
    timeout = post(door(mine, game), {"ply": 2, "move": "", "key": "k2", "timeout": True})
    assert timeout.status_code == 400, timeout.content
    error = timeout.json()["error"]
    assert error["field"] == "timeout" and " s left" in error["message"]
    game.refresh_from_db()
    assert game.moves == [move]
    assert list(Ply.objects.filter(game=game).values_list("number", "timed_out")) == [(1, False)]


def test_a_queued_plys_claimed_time_stays_its_label_and_the_timer_runs_from_its_arrival():
    round_, game, seats = two_player_round(seconds_per_move=60)
    published = timezone.now() - timedelta(hours=2)
    Round.objects.filter(pk=round_.pk).update(published_at=published)
    move = random_game(2, seed=3, max_plies=1)[0]
    seat = seats[game.moving_order(2)[0]]
    before = timezone.now()
    assert (
        post(board_url(seat, game), {"ply": 1, "move": move, "key": "k1"}, **FORGED).status_code
        == 200
    )
    ply = Ply.objects.get(game=game)
    assert ply.at == published  # the label: typed (as far as it is believed) then
    assert before <= ply.received_at <= timezone.now()  # the timer's: the server's
    state = game_live(game_id=game.pk)
    assert state is not None and state["clock"] is not None
    left = datetime.fromisoformat(state["clock"]["deadline"]) - timezone.now()
    assert timedelta(seconds=55) < left <= timedelta(seconds=60)
    board = Client().get(reverse("games:state", args=[game.pk])).json()
    assert board["deadline"] == state["clock"]["deadline"]


# --- a move is read before it is stored -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["W-W1B\x00", "a\x00b", "W-W1B\x1f", "W-\x0bW1B", "W-W1B\u200b", "x" * 65, "hello", "W-W1Q"],
    ids=["nul-end", "nul", "control", "vertical-tab", "zero-width", "too-long", "words", "no-stop"],
)
def test_a_move_the_notation_cannot_read_is_a_400_naming_move_and_nothing_is_stored(text):
    _round, game, seats = two_player_round()
    order = game.moving_order(2)
    recorded = random_game(2, seed=3, max_plies=1)[0]
    send(game, seats[order[0]], 1, recorded)
    game.refresh_from_db()
    version = game.version
    # At the recorded ply (a different move would be a flag) and at the next one.
    for number in (1, 2):
        answer = post(board_url(seats[order[1]], game), {"ply": number, "move": text, "key": "k"})
        assert answer.status_code == 400, (number, answer.content)
        assert answer.json()["error"]["field"] == "move"
    assert not PlyConflict.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.moves == [recorded] and game.version == version


def test_a_move_the_notation_cannot_read_is_not_kept_after_the_game_was_decided(organiser):
    _round, game, seats = two_player_round(organiser)
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    with pytest.raises(ServiceError) as refused:
        send(game, seats[1], 1, "W-W1B\x00", queued_at=timezone.now())
    assert refused.value.field == "move"
    assert not PlyConflict.objects.filter(game=game).exists()


# --- one open flag per seat and ply; the live message stays small -----------------------


def wrong_moves(recorded: str, count: int) -> list[str]:
    """``count`` different moves the notation reads, none of them ``recorded``."""
    moves = (f"{a}-{b}" for a in STOP_NAMES for b in STOP_NAMES if a != b)
    return [m for m, _ in zip((m for m in moves if m != recorded), range(count), strict=False)]


@pytest.fixture
def organiser():
    return UserFactory(username=f"org-{uuid.uuid4().hex[:6]}")


@pytest.fixture
def director(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def test_a_thousand_wrong_moves_from_one_link_leave_one_flag_and_the_messages_small(
    director, organiser
):
    round_, game, seats = two_player_round(organiser)
    order = game.moving_order(2)
    recorded = random_game(2, seed=3, max_plies=1)[0]
    send(game, seats[order[0]], 1, recorded)
    screen = reverse("round-results", args=[round_.tournament.slug, round_.number])

    def sizes() -> tuple[int, int]:
        live = len(json.dumps(game_live(game_id=game.pk)))
        return live, len(director.get(screen).content)

    wrong = wrong_moves(recorded, 1000)
    with pytest.raises(ServiceError):
        send(game, seats[order[1]], 1, wrong[0])
    live_one, screen_one = sizes()
    for move in wrong[1:]:
        with pytest.raises(ServiceError):
            send(game, seats[order[1]], 1, move)
    live_after, screen_after = sizes()
    print(
        f"live message {live_one} -> {live_after} B, results screen {screen_one} -> {screen_after} B"
    )
    (flag,) = PlyConflict.objects.filter(game=game, cleared_at__isnull=True)
    # The newest wrong move replaced the open flag.
    assert (flag.number, flag.move, flag.by_position) == (1, wrong[-1], order[1])
    # The same flag with another move text: the same size, give or take its letters.
    assert live_after <= live_one + 64
    assert screen_after <= screen_one + 256


def test_wrong_moves_kept_after_the_game_was_decided_leave_one_flag_per_seat_and_ply(organiser):
    _round, game, seats = two_player_round(organiser)
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser))
    for move in wrong_moves("", 50):
        with pytest.raises(ServiceError):
            send(game, seats[1], 1, move, queued_at=timezone.now())
    send_other = wrong_moves("", 51)[-1]
    with pytest.raises(ServiceError):
        send(game, seats[2], 1, send_other, queued_at=timezone.now())
    flags = PlyConflict.objects.filter(game=game, cleared_at__isnull=True).order_by("by_position")
    assert [(f.by_position, f.number, f.move) for f in flags] == [
        (1, 1, wrong_moves("", 50)[-1]),
        (2, 1, send_other),
    ]


# --- every write door is bounded --------------------------------------------------------


@pytest.fixture
def rates(monkeypatch):
    """Small rates: three writes a minute per link, five per address."""

    def set_rates(link: str = "3/minute", address: str = "5/minute") -> None:
        for cls in (throttles.LinkThrottle, throttles.AddressThrottle):
            monkeypatch.setattr(
                cls, "THROTTLE_RATES", {"link_writes": link, "address_writes": address}
            )

    set_rates()
    return set_rates


def assert_throttled(answer) -> None:
    assert answer.status_code == 429, answer.content
    assert set(answer.json()["error"]) == {"code", "field", "message"}
    assert answer.json()["error"]["code"] == "throttled"
    assert int(answer["Retry-After"]) >= 1


def test_the_boards_save_is_throttled_per_link(rates):
    _round, game, seats = two_player_round()
    url = board_url(seats[1], game)
    statuses = [post(url, {"ply": 5, "move": "W-W1B", "key": f"k{i}"}) for i in range(4)]
    assert [a.status_code for a in statuses[:3]] == [409] * 3
    assert_throttled(statuses[3])
    # Another link from the same address still gets through (up to the address's rate).
    assert (
        post(board_url(seats[2], game), {"ply": 5, "move": "W-W1B", "key": "o"}).status_code == 409
    )


def test_the_boards_save_is_throttled_per_address_across_links(rates):
    rates(link="100/minute", address="5/minute")
    _round, game, seats = two_player_round()
    answers = [
        post(board_url(seats[1 + i % 2], game), {"ply": 5, "move": "W-W1B", "key": f"k{i}"})
        for i in range(6)
    ]
    assert [a.status_code for a in answers[:5]] == [409] * 5
    assert_throttled(answers[5])
    # Another address is not held back by this one.
    other = Client(REMOTE_ADDR="198.51.100.7").post(
        board_url(seats[1], game),
        json.dumps({"ply": 5, "move": "W-W1B", "key": "x"}),
        content_type="application/json",
    )
    assert other.status_code == 409


def test_the_report_form_is_throttled_per_link(rates):
    _round, game, seats = two_player_round()
    url = reverse("seat-report", args=[seats[1].report_token])
    answers = [
        Client().post(url, {"game": game.pk, "out": "9 9", "version": game.version})
        for _ in range(4)
    ]
    assert [a.status_code for a in answers[:3]] == [302] * 3
    assert_throttled(answers[3])
    # Reading the link is not a write.
    assert Client().get(url).status_code == 200


def test_the_results_screens_saves_and_flag_clearing_are_throttled_per_user(
    rates, director, organiser
):
    round_, game, _seats = two_player_round(organiser)
    args = [round_.tournament.slug, round_.number, game.pk]
    save = reverse("round-result-save", args=args)
    clear = reverse("round-result-clear-flag", args=args)
    answers = [director.post(clear) for _ in range(2)]
    answers += [director.post(save, {"out": "x", "version": game.version}) for _ in range(2)]
    assert [a.status_code for a in answers[:3]] == [302] * 3
    assert_throttled(answers[3])
