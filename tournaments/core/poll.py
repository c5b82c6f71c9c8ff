"""Pages that keep themselves current: `agon/poll.js` has htmx poll the page it is on
every few seconds with If-None-Match; the view answers 304 while nothing it shows has
changed, else the page, whose marked regions (``data-live-region``) htmx swaps in out of
band (the module leaves alone any region the organiser is typing in).

Only the poller's own requests (htmx's, triggered by the element ``live-poll``) are
answered conditionally: a browser revalidating a page after a form's redirect must see
the page with its new message, not a 304 for unchanged data."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Max, Sum
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language

from tournaments.models import Game, Round, Table

# How often the pages poll, in milliseconds.
POLL_MS = 4000
# The id of the element agon/poll.js polls with (htmx sends it as HX-Trigger).
POLLER = "live-poll"


def poll_etag(request: HttpRequest, *parts: Any) -> str:
    """An ETag over what a page shows: its parts, the language and who is looking
    (directors see more than the public)."""
    key = [request.user.pk, get_language(), *parts]
    return quote_etag(hashlib.sha1(repr(key).encode()).hexdigest()[:24])


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match's weak comparison (RFC 9110, 13.1.2): GZipMiddleware sends a
    compressed answer's ETag weakened (W/"…"), and a poller sends back what it got."""
    if not if_none_match:
        return False
    plain = etag.removeprefix("W/")
    return any(tag in ("*", plain) or tag == f"W/{plain}" for tag in parse_etags(if_none_match))


def round_state(round_: Round) -> list[Any]:
    """Changes with every write to a game of the round and with the round's status: each
    write bumps its game's version, versions only grow and a game added gets a higher id
    than any before, so the games' count, the sum of their versions and the highest id
    change with every write, addition and removal. One query of one row, however many
    games (the pages' caches and pollers ask it on every request)."""
    state = Game.objects.filter(table__round=round_).aggregate(
        games=Count("pk"), versions=Coalesce(Sum("version"), 0), last=Max("pk")
    )
    return [round_.pk, round_.status, state["games"], state["versions"], state["last"]]


# The same three numbers as round_state's, in plain SQL for the visitors' early way
# (building the ORM's query costs more than a small query).
_GAMES_SQL = (
    "SELECT COUNT(g.id), COALESCE(SUM(g.version), 0), MAX(g.id) "
    f"FROM {Table._meta.db_table} tb JOIN {Game._meta.db_table} g ON g.table_id = tb.id "
    "WHERE tb.round_id = %s"
)
# At most this many rounds' reads kept per process (then all are dropped at once).
_RECENT_ROUNDS = 1024
_recent: dict[int, tuple[float, list[Any]]] = {}
_recent_lock = threading.Lock()


def recent_games_state(round_id: int) -> list[Any]:
    """round_state's games part (count, sum of versions, highest id) for visitors' round
    pages, read at most once per PUBLIC_ROUND_LAG_MS in this process. The sum runs over
    every game of the round (3 ms at 1,500 games, a core's worth at a few hundred
    requests a second; issue 44); a write through this process forgets it at once
    (`forget_recent_games_states`), a write through another shows within the lag. The
    round's status, the tournament's versions and whether it is published are read on
    every request all the same, so who may see the page is never reused."""
    lag = settings.PUBLIC_ROUND_LAG_MS / 1000
    now = time.monotonic()
    kept = _recent.get(round_id)
    if kept is not None and now - kept[0] < lag:
        return kept[1]
    with connection.cursor() as cursor:
        cursor.execute(_GAMES_SQL, [round_id])
        games, versions, last = cursor.fetchone()
    state = [games, int(versions), last]
    if lag > 0:
        with _recent_lock:
            if len(_recent) >= _RECENT_ROUNDS:
                _recent.clear()
            _recent[round_id] = (now, state)
    return state


def forget_recent_games_states() -> None:
    """A game of some round changed: this process reads every round's games afresh."""
    with _recent_lock:
        _recent.clear()


def poll_page(
    request: HttpRequest, etag: str, render: Callable[[str], HttpResponse]
) -> HttpResponse:
    """Render the page (which embeds `etag` for the poller), or 304 for a poll that has
    it already."""
    polling = bool(request.htmx) and request.htmx.trigger == POLLER
    if polling and etag_matches(request.headers.get("If-None-Match"), etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(etag)
    if polling:
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache, private"
    return response
