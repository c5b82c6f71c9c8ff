"""The recording board's batch door (docs/offline.md, "The batch door"; issue 44): one
request carries up to `MAX_ITEMS` queued plies (and undos) of the offline queue, of one
game or several, and answers each item as its own request to the board's save would
have been answered.

A device that recorded a game without signal used to send it one request per ply:
1,000 plies took 144 s, most of it the requests themselves (a request's own work, its
key, its answer's game state). Here each item still is that request, only carried with
others:

- it names the door it stands for (``url``: the board's save of a player's link or of
  a director) and is checked as that request (`board_actor`: a link records its own
  table's games only, a director's session her tournaments');
- it keeps its own ``key`` (Idempotency-Key), claimed for the same path and body as
  the single request (`item_hash`): a batch cut off in the middle and sent again, or
  an item sent alone after a batch (or before), is stored once and answered alike;
- ``queued_at`` is its typed-at label (``X-Agon-Queued-At``'s): the server owns the
  clock; a client's time only labels the ply;
- it is counted by the throttles as one write of its link and address
  (`ItemBudget`): batching never writes more than single requests may;
- the items of one game run in the order sent, in one transaction for the game (each
  in a savepoint: a refused item is not written, the next one runs); another game's
  refusal never stops this one's; an item that must be sent again (throttled, its key
  still being stored, the database lost a race) stops the rest of its game, which
  wait for the next try in order;
- the answer lists every item in the order sent: its status as alone (200, 202, 4xx),
  its outcome (saved, duplicate, dispute, conflict; refused with the one error shape)
  and ``retry`` when it was not decided and goes again; beside them each game's state
  once (the board's state after the last item), instead of once per ply.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core import jsonbody
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.json_errors import error_body, error_response, service_error_response
from tournaments.core.throttles import ItemBudget
from tournaments.models import Game
from tournaments.results.offline import Item as Entry
from tournaments.results.offline import (
    idempotent_items,
    outcome_response,
    parse_queued_at,
)
from tournaments.results.services.plies import PlySent
from tournaments.results.services.result_path import (
    ResultEntry,
    game_result_run,
    game_result_sync,
)
from tournaments.results.views.board import board_actor, game_state, ply_request

# The most items one request carries, and its most bytes (a ply's item is about 200
# bytes): a batch is answered within a few seconds even at a ply's worst cost, and a cut
# connection loses no more than this much work (every item is kept and sent again).
# lichess's broadcast push takes up to 128 games in one request.
MAX_ITEMS = 100
MAX_BYTES = 64 * 1024
# The board's saves a batch item may stand for (games/urls: games:record, record-token).
DOORS = {"games:record", "games:record-token"}


@dataclass
class Item:
    index: int
    key: str
    path: str
    body: Any
    queued_at: str
    game_id: int = 0
    token: str | None = None
    answer: dict[str, Any] = field(default_factory=dict)


def _answer(response: HttpResponseBase, *, replayed: bool = False) -> dict[str, Any]:
    """An item's answer as its own request's: the status, and the outcome or error."""
    parsed: Any = {}
    try:
        parsed = jsonbody.loads(response.content or b"{}")
    except ValueError:
        parsed = {}
    status = response.status_code
    answer: dict[str, Any] = {"status": status, "replayed": replayed}
    if status < 400:
        outcome = parsed.get("outcome", "saved") if isinstance(parsed, dict) else "saved"
        answer["outcome"] = outcome
        answer["detail"] = parsed.get("detail", "") if isinstance(parsed, dict) else ""
        return answer
    error = parsed.get("error") if isinstance(parsed, dict) else None
    answer["outcome"] = "refused"
    answer["error"] = error if isinstance(error, dict) else error_body("", status=status)["error"]
    # Not decided: sent again later, in order (as the queue takes a single answer).
    field_ = answer["error"].get("field")
    answer["retry"] = (
        status >= 500 or status == 429 or (status == 409 and field_ == "Idempotency-Key")
    )
    return answer


def _later(reason: str, status: int = 409) -> dict[str, Any]:
    """An item not run this time, to be sent again (the rest of a game after one that
    must be sent again; throttled)."""
    return {
        "status": status,
        "replayed": False,
        "outcome": "refused",
        "error": error_body(reason, status=status, code="later")["error"],
        "retry": True,
    }


def _items(body: Any) -> list[Item] | JsonResponse:
    """The batch's items, or the 400/413 naming the field at fault (nothing is run)."""
    items = body.get("items") if isinstance(body, dict) else None
    if not isinstance(items, list) or not items:
        return error_response(_("send {items: [...]} with at least one item"), field="items")
    if len(items) > MAX_ITEMS:
        return error_response(
            _("a batch carries at most %(max)s items, not %(count)s; send the rest in another")
            % {"max": MAX_ITEMS, "count": len(items)},
            status=413,
            field="items",
        )
    read: list[Item] = []
    for i, raw in enumerate(items):
        if not (
            isinstance(raw, dict)
            and isinstance(raw.get("key"), str)
            and isinstance(raw.get("url"), str)
            and isinstance(raw.get("body"), dict)
            and isinstance(raw.get("queued_at", ""), str)
        ):
            return error_response(
                _("each item is {key, url, body[, queued_at]}: item %(index)s is not")
                % {"index": i},
                field=f"items[{i}]",
            )
        path = urlsplit(raw["url"]).path
        read.append(Item(i, raw["key"], path, raw["body"], raw.get("queued_at", "")))
    return read


def _door(item: Item) -> bool:
    """Whether the item stands for a board's save; sets its game and link."""
    try:
        match = resolve(item.path)
    except Resolver404:
        return False
    if match.view_name not in DOORS:
        return False
    item.game_id = int(match.kwargs["pk"])
    item.token = match.kwargs.get("token")
    return True


def _run(
    item: Item, game: Game, by: Actor, written: dict[int, HttpResponse]
) -> Callable[[], HttpResponse]:
    def run() -> HttpResponse:
        if item.index in written:
            return written[item.index]
        try:
            ply = ply_request(item.body)
            if ply is None:
                raise TypeError
        except (ValueError, TypeError):
            return error_response(_("send {ply: N, move: ..., key: ...} or {undo: N} as JSON"))
        try:
            outcome = game_result_sync(
                game=game,
                entry=ResultEntry(ply=ply),
                by=by,
                queued_at=parse_queued_at(item.queued_at, field="queued_at"),
            )
        except ServiceError as exc:
            return service_error_response(exc)
        return outcome_response(outcome)

    return run


def _game_items(request: HttpRequest, game_id: int, items: list[Item], budget: ItemBudget) -> bool:
    """Run one game's items in order in one transaction; whether any reached the game
    (its actor allowed: the answer then carries the game's state)."""
    game = (
        Game.objects.select_related("table__round__tournament")
        .filter(pk=game_id, table__is_bye=False)
        .first()
    )
    actors: dict[str | None, Actor | HttpResponse] = {}
    runnable: list[tuple[Item, Actor]] = []
    stopped: dict[str, Any] | None = None
    for item in items:
        if stopped is not None:
            item.answer = stopped
            continue
        if item.token not in actors:
            actors[item.token] = _actor(request, game, item.token)
        by = actors[item.token]
        if not isinstance(by, Actor):
            item.answer = _answer(by)
        elif not {"ply", "undo"} & set(item.body):
            item.answer = _answer(
                error_response(
                    _("only plies and undos go in a batch; send this alone"),
                    code="not_batched",
                    field="body",
                )
            )
        elif not budget.take(item.token):
            stopped = _later(
                _("too many writes from this link or address; try again in %(seconds)s s")
                % {"seconds": budget.wait()},
                status=429,
            )
            item.answer = stopped
        else:
            runnable.append((item, by))
    if not runnable:
        return False
    assert game is not None
    later = _later(_("an earlier ply of this game goes again first; sent again after it"))
    with transaction.atomic():
        halted = False
        # Consecutive items of one link (or the director) claim their keys together.
        for _token, run in groupby(runnable, key=lambda pair: pair[0].token):
            of_run = list(run)
            if halted:
                for item, _by in of_run:
                    item.answer = later
                continue
            by = of_run[0][1]
            written: dict[int, HttpResponse] = {}
            answers = idempotent_items(
                [Entry(i.key, i.path, i.body, _run(i, game, by, written)) for i, _by in of_run],
                by=by,
                prepare=lambda fresh, of_run=of_run, by=by, written=written: _write_run(
                    game, [of_run[i][0] for i in fresh], by, written
                ),
            )
            for (item, _by), answer in zip(of_run, answers, strict=True):
                if answer is None:
                    item.answer, halted = later, True
                else:
                    item.answer = _answer(answer[0], replayed=answer[1])
    return True


def _write_run(game: Game, items: list[Item], by: Actor, written: dict[int, HttpResponse]) -> None:
    """The items about to run, written at once as far as they extend the game ply after
    ply (`game_result_run`); their answers are kept for their ``run``, the rest run
    alone. Only plies: an undo or a body that is not a ply ends the run."""
    plies: list[PlySent] = []
    for item in items:
        try:
            entry = ply_request(item.body)
            typed_at = parse_queued_at(item.queued_at, field="queued_at")
        except (ValueError, TypeError, ServiceError):
            break
        if entry is None or entry.undo or entry.timeout:
            break
        plies.append(PlySent(entry.number, entry.move, entry.key, typed_at))
    if plies and plies[0].number == 1:
        # A game's first ply begins its record the whole way, alone; the run follows it.
        try:
            first = _run(items[0], game, by, written)()
        except DatabaseError:
            return  # it runs again in its turn
        written[items[0].index] = first
        if first.status_code != 200:
            return
        items, plies = items[1:], plies[1:]
    if len(plies) < 2:
        return  # one ply goes its own way
    try:
        outcomes = game_result_run(game=game, plies=plies, by=by)
    except (ServiceError, DatabaseError):
        return  # each item answers alone (a lost race: `retried` rolled the run back)
    for item, outcome in zip(items, outcomes, strict=False):
        written[item.index] = outcome_response(outcome)


def _actor(request: HttpRequest, game: Game | None, token: str | None) -> Actor | HttpResponse:
    """The item's actor as its own request's (`board_actor`), or its refusal."""
    if game is None:
        return error_response(_("no such game"), status=404)
    try:
        return board_actor(request, game, token)
    except Http404:
        return error_response(_("no such game"), status=404)
    except PermissionDenied:
        return error_response(_("only the tournament's directors can record this game"), status=403)


@require_POST
def batch_view(request: HttpRequest) -> JsonResponse:
    """POST {items: [{key, url, body, queued_at}, ...]}: the queued plies, answered each."""
    length = request.headers.get("Content-Length", "")
    if (length.isdigit() and int(length) > MAX_BYTES) or len(request.body) > MAX_BYTES:
        return error_response(
            _("a batch is at most %(max)s bytes; send fewer items at once") % {"max": MAX_BYTES},
            status=413,
            field="body",
        )
    try:
        body = jsonbody.loads(request.body or b"null")
    except (UnicodeDecodeError, ValueError):
        return error_response(_("the body must be JSON"), field="items")
    items = _items(body)
    if isinstance(items, JsonResponse):
        return items
    games: dict[int, list[Item]] = {}
    for item in items:
        if _door(item):
            games.setdefault(item.game_id, []).append(item)
        else:
            item.answer = _answer(
                error_response(
                    _("a batch carries the recording board's plies only; send this alone"),
                    code="not_batched",
                    field="url",
                )
            )
    budget = ItemBudget(request)
    states: dict[str, Any] = {}
    try:
        for game_id, of_game in games.items():
            if _game_items(request, game_id, of_game, budget):
                game = Game.objects.get(pk=game_id)
                states[str(game_id)] = game_state(game)
    finally:
        budget.keep_counts()
    answers = [item.answer for item in items]
    status = 200
    if all(a.get("status") == 429 for a in answers):
        status = 429
    response = JsonResponse({"items": answers, "games": states}, status=status)
    if status == 429:
        response["Retry-After"] = str(max(1, math.ceil(budget.wait())))
    return response
