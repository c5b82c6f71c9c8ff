"""The offline queue sends what waits through the board's batch door (issue 44, point 2;
docs/offline.md, "The batch door"): plies recorded without signal go in a few requests
when the signal returns, not one request each, and each is stored once."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.browser.test_board import tap_move
from tests.browser.test_offline import (  # noqa: F401 (fixtures)
    kept_by_the_worker,
    no_signal,
    simple_game,
    status_line,
)
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, IdempotencyKey, Ply
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.browser

PLIES = 24


@pytest.fixture
def answered(
    no_signal: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> list[tuple[str, str]]:
    """(method, path) of every request the live server answered (not those dropped
    while the signal was cut)."""
    from django.core.servers import basehttp

    seen: list[tuple[str, str]] = []
    parse = basehttp.WSGIRequestHandler.parse_request  # no_signal's, which drops

    def parse_request(handler: Any) -> bool:
        ok = bool(parse(handler))
        if ok:
            seen.append((handler.command, handler.path.split("?", 1)[0]))
        return ok

    monkeypatch.setattr(basehttp.WSGIRequestHandler, "parse_request", parse_request)
    return seen


def test_plies_recorded_offline_go_in_one_batch_request_and_are_stored_once(
    browser,
    wait,
    live_server,
    no_signal,  # noqa: F811
    answered,
    transactional_db,
):
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).order_by("number").first()
    token = game.table.seats.get(position=1).report_token
    board = f"/games/{game.pk}/record/{token}/"
    plies = simple_game(PLIES, seed=44)

    browser.get(live_server.url + board)
    wait(lambda b: "to move" in b.find_element(By.ID, "pg-status").text)
    kept_by_the_worker(browser, wait, live_server.url + board)

    no_signal.cut()
    for text in plies:
        tap_move(browser, wait, text)
    wait(lambda b: status_line(b) == f"Offline — {PLIES} plies waiting to be sent")
    no_signal.settle()
    assert not Ply.objects.filter(game=game).exists()
    answered.clear()

    no_signal.restore()
    # The server's state, not the page's: every ply stored, each once, in order.
    wait(lambda b: Ply.objects.filter(game=game).count() == PLIES, 30)
    wait(lambda b: not b.find_element(By.ID, "offline-status").is_displayed(), 30)
    game.refresh_from_db()
    assert list(game.moves) == plies
    assert list(
        Ply.objects.filter(game=game).order_by("number").values_list("number", flat=True)
    ) == list(range(1, PLIES + 1))
    keys = list(Ply.objects.filter(game=game).values_list("key", flat=True))
    assert IdempotencyKey.objects.filter(key__in=keys).count() == PLIES
    posts = [path for method, path in answered if method == "POST"]
    assert posts.count("/games/batch/") == 1, posts
    assert board not in posts, posts  # no ply went alone
    # Nothing waits on the device, and the page shows the stored record.
    browser.refresh()
    wait(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#pg-moves li")) == PLIES)
    assert status_line(browser) == ""
