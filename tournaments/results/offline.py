"""The server's half of the venue without signal (docs/offline.md): what a page's
offline queue sends with each item, read here once for every endpoint that takes one.

- ``Idempotency-Key``: `idempotent` wraps a view (a plain view, or an API view's
  handler) so that the first request with a key runs and a compact answer is stored
  with a hash of the request, and any later one with the same request gets that answer
  again with ``Idempotency-Replayed: true``, writing nothing; with another body it is a
  422 (services/idempotency.py).
- ``X-Agon-Queued-At``: the moment the item was typed; `queued_at` reads it, and the
  services keep what no longer fits for the organiser instead of refusing it
  (services/result_path.py, `game_result_sync`); a queued result names the ``version``
  it was typed against (services/results.py, `_write`).
- `outcome_response`: the JSON a queue reads for what became of its item.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.idempotency import (
    FIELD,
    MAX_BODY,
    Claim,
    KeyMismatch,
    Stored,
    check_key,
    idempotency_claim,
    idempotency_claim_many,
    idempotency_release,
    idempotency_store,
    idempotency_store_many,
)
from tournaments.core.json_errors import error_response, service_error_response
from tournaments.models import Seat
from tournaments.results.services.result_path import Outcome

QUEUED_AT = "X-Agon-Queued-At"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
# What a replay repeats besides the body: the content type, a redirect's target, htmx's.
_KEPT_HEADERS = ("content-type", "location")
_HEADER_MAX = 200
# What a form's body carries that is not the request's: its CSRF token goes stale with
# any sign-in on the device, and the queue sends the item again without it.
_NOT_THE_REQUEST = {"csrfmiddlewaretoken"}


def queued_at(request: HttpRequest | Request) -> datetime | None:
    """When a queued item was typed (``X-Agon-Queued-At``, ISO 8601); None for a request
    sent as it was made. A time that cannot be read is the request's fault (400)."""
    return parse_queued_at(request.headers.get(QUEUED_AT, ""), field=QUEUED_AT)


def parse_queued_at(raw: str, *, field: str) -> datetime | None:
    """A typed-at label as ``X-Agon-Queued-At`` or a batch item's ``queued_at`` carries
    it (None: empty); ServiceError naming ``field`` when it cannot be read."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        raise ServiceError(
            _("%(header)s must be an ISO 8601 time") % {"header": field}, field=field
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def wants_json(request: HttpRequest) -> bool:
    """A form endpoint asked for JSON (a page's queue): answered with the outcome or the
    one error shape instead of the page's HTML."""
    return "application/json" in request.headers.get("Accept", "")


def outcome_body(outcome: Outcome) -> dict[str, str]:
    return {"outcome": outcome.kind, "detail": outcome.detail}


def outcome_response(outcome: Outcome) -> JsonResponse:
    """202 for an item kept for the organiser (a dispute, a ply conflict), else 200."""
    return JsonResponse(outcome_body(outcome), status=202 if outcome.kept else 200)


def _actor(request: HttpRequest | Request, kwargs: dict[str, Any]) -> Actor | None:
    """Whose key it is: the seat of the link's token, else the signed-in user (only the
    scope of the key: the view checks what they may do)."""
    token = kwargs.get("token")
    if token:
        seat = Seat.objects.filter(report_token=token).select_related("table").first()
        return Actor.player(seat) if seat is not None else None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Actor.director(user)
    return None


def request_hash(request: HttpRequest) -> str:
    """SHA-256 of what the request asks: its method, path and body, read for meaning (a
    form's fields in any order and without its CSRF token, JSON with its keys sorted),
    so that a queue's retry of a page's request is the same request."""
    try:
        raw = request.body
    except RawPostDataException:  # read as a stream already: its parsed fields
        raw = "&".join(f"{k}={v}" for k, vs in request.POST.lists() for v in vs).encode()
    content_type = getattr(request, "content_type", "") or ""
    body: bytes = raw
    if content_type == "application/x-www-form-urlencoded":
        fields = parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True)
        body = json.dumps(sorted(f for f in fields if f[0] not in _NOT_THE_REQUEST)).encode()
    elif "json" in content_type:
        with contextlib.suppress(ValueError, RecursionError):  # not JSON after all: its bytes
            body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(f"{request.method}\n{request.path}\n".encode())
    digest.update(body)
    return digest.hexdigest()


def item_hash(path: str, body: Any) -> str:
    """`request_hash` of a JSON POST of ``body`` to ``path``: an item of the board's
    batch door (views/batch.py) is the very request it stands for, so a key sent alone
    once and in a batch later (or the other way round) is one request, answered alike."""
    digest = hashlib.sha256(f"POST\n{path}\n".encode())
    digest.update(json.dumps(body, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()


def _kept_body(body: bytes) -> bool:
    """An answer a replay repeats as it was: nothing (a redirect), a queue's outcome, or
    the one error shape, in a few hundred bytes. Anything else (the game, the board's
    state, a page or a row) is not kept."""
    if not body:
        return True
    if len(body) > MAX_BODY:
        return False
    parsed: Any = None
    with contextlib.suppress(ValueError, RecursionError):
        parsed = json.loads(body)
    return isinstance(parsed, dict) and (
        "error" in parsed or (bool(parsed) and set(parsed) <= {"outcome", "detail"})
    )


def _compact(response: HttpResponseBase) -> Stored:
    """What a replay of ``response`` repeats, in a few hundred bytes: the answer itself
    when it is an outcome, an error or a redirect; else the outcome in its place (an API
    replay reads the game again: `idempotent`'s ``reread``)."""
    headers = {
        name: value
        for name, value in response.items()
        if (name.lower() in _KEPT_HEADERS or name.lower().startswith("hx-"))
        and len(value) <= _HEADER_MAX
    }
    body = response.content
    if _kept_body(body):
        return Stored(response.status_code, headers, body)
    if response.status_code < 400:
        shown: dict[str, Any] = {
            "outcome": "saved",
            "detail": _("answered already; read the game again for what it holds now"),
        }
    else:
        parsed: Any = None
        with contextlib.suppress(ValueError, RecursionError):  # a page or a row
            parsed = json.loads(body)
        error = parsed.get("error") if isinstance(parsed, dict) else None
        if not isinstance(error, dict):
            error = {}  # its message is not kept
        field = error.get("field")
        shown = {
            "error": {
                "code": str(error.get("code") or "invalid")[:40],
                "field": field[:60] if isinstance(field, str) else None,
                "message": str(error.get("message") or _("refused when first sent")),
            }
        }
    encoded = json.dumps(shown, ensure_ascii=False).encode()
    while len(encoded) > MAX_BODY:  # a long message, shortened to fit
        text = shown["error"]["message"]
        shown["error"]["message"] = text[: len(text) - (len(encoded) - MAX_BODY) // 4 - 1]
        encoded = json.dumps(shown, ensure_ascii=False).encode()
    # The htmx headers spoke of the body that is not kept.
    kept = {n: v for n, v in headers.items() if n.lower() == "location"}
    kept["Content-Type"] = "application/json"
    return Stored(response.status_code, kept, encoded, compacted=True)


def _replay(stored: Stored) -> HttpResponse:
    response = HttpResponse(stored.body, status=stored.status)
    for name, value in stored.headers.items():
        response[name] = value
    return response


def idempotent(
    view: Callable[..., Any] | None = None, *, reread: Callable[..., Any] | None = None
) -> Any:
    """Run ``view`` (a view function, or an API view's handler method) at most once per
    ``Idempotency-Key``. Without the header, or for a read, the view runs as always.
    ``reread`` (an API handler's signature): the answer of a replay whose first answer,
    a 200, was too big to keep (the game): the game as it now is."""
    if view is None:
        return functools.partial(idempotent, reread=reread)

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> HttpResponseBase:
        api = isinstance(args[0], APIView)
        request = args[1] if api else args[0]
        key = request.headers.get(FIELD, "")
        if request.method not in WRITES or not key:
            return view(*args, **kwargs)
        try:
            check_key(key)
        except ServiceError as exc:
            return service_error_response(exc)
        by = _actor(request, kwargs)
        if by is None:
            return view(*args, **kwargs)  # nobody to scope the key to: the view refuses
        asked = request_hash(request._request if api else request)
        with transaction.atomic():
            try:
                stored = idempotency_claim(key=key, path=request.path, request_hash=asked, by=by)
            except KeyMismatch as exc:
                return error_response(exc.message, status=422, code="invalid", field=exc.field)
            except ServiceError as exc:
                return service_error_response(exc)
            if stored is not None:
                answer: HttpResponseBase = _replay(stored)
                if stored.compacted and stored.status == 200 and reread is not None and api:
                    answer = _run(reread, api, args, kwargs)
                answer["Idempotency-Replayed"] = "true"
                return answer
            response = _run(view, api, args, kwargs)
            if response.status_code >= 500 or getattr(response, "streaming", False):
                transaction.set_rollback(True)  # the key is free for the retry
                return response
            try:
                with transaction.atomic():
                    idempotency_store(key=key, answer=_compact(response), by=by)
            except DatabaseError:
                # The view left the transaction unusable (a failed statement outside a
                # savepoint): nothing of it is kept, the sender may retry.
                transaction.set_rollback(True)
        return response

    return wrapper


def _run(
    view: Callable[..., Any], api: bool, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> HttpResponseBase:
    """The view's final answer, rendered: an API handler's refusals become their JSON
    answers here (as the framework would make them after the handler)."""
    if not api:
        response = view(*args, **kwargs)
    else:
        api_view, request = args[0], args[1]
        try:
            response = view(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the framework's own handler decides
            response = api_view.handle_exception(exc)
        response = api_view.finalize_response(request, response, *args[2:], **kwargs)
    render = getattr(response, "render", None)
    if callable(render) and not getattr(response, "is_rendered", True):
        response = render()
    return response


@dataclass(frozen=True)
class Item:
    """One item of a batch (views/batch.py): its key, the path and body of the request it
    stands for, and what writes it and answers."""

    key: str
    path: str
    body: Any
    run: Callable[[], HttpResponseBase]


def undecided(response: HttpResponseBase) -> bool:
    """An answer that decides nothing: the item is sent again (as the queue takes a
    single answer: a 5xx, a 429, the 409 of its key still being stored)."""
    status = response.status_code
    if status >= 500 or status == 429:
        return True
    if status != 409:
        return False
    with contextlib.suppress(ValueError, RecursionError, AttributeError):
        return json.loads(response.content)["error"]["field"] == FIELD
    return False


def idempotent_items(
    items: Sequence[Item],
    *,
    by: Actor,
    prepare: Callable[[list[int]], None] | None = None,
) -> list[tuple[HttpResponseBase, bool] | None]:
    """Items of one actor, in order, inside the caller's transaction, each as
    `idempotent` runs one request: its own key claimed for its path and body (all of
    them in one go, `idempotency_claim_many`), a key answered before replayed, a
    refusal kept as its answer, every answer stored in one statement at the end. Each
    answer with whether it was replayed; from the first item whose answer decides
    nothing (`undecided`: a 5xx, its key still being stored) on, None: not run, its key
    free again, sent again in order. ``prepare``: told once, before any item runs, which
    items will run (their keys new to the server and to the batch), so that it may
    write them together; each item's ``run`` then answers."""
    answers: list[tuple[HttpResponseBase, bool] | None] = [None] * len(items)
    hashes = [item_hash(item.path, item.body) for item in items]
    wellformed = []
    for i, item in enumerate(items):
        try:
            check_key(item.key)
            wellformed.append(i)
        except ServiceError as exc:
            answers[i] = (service_error_response(exc), False)
    claims = idempotency_claim_many(
        [Claim(items[i].key, items[i].path, hashes[i]) for i in wellformed], by=by
    )
    claimed = dict(zip(wellformed, claims, strict=True))
    if prepare is not None:
        keys: set[str] = set()
        fresh = []
        for i, result in claimed.items():
            if items[i].key not in keys and result is None:
                fresh.append(i)
            keys.add(items[i].key)
        prepare(fresh)
    to_store: dict[str, Stored] = {}
    first: dict[str, int] = {}  # a key twice in one batch: the second is the first's replay
    stop: int | None = None
    for i, item in enumerate(items):
        if i not in claimed:
            continue
        result = claimed[i]
        if item.key in first:
            earlier = first[item.key]
            stored = to_store.get(item.key)
            if hashes[earlier] != hashes[i]:
                answers[i] = (
                    error_response(
                        _(
                            "this idempotency key was sent with another request body; send a new key"
                        ),
                        status=422,
                        code="invalid",
                        field=FIELD,
                    ),
                    False,
                )
            elif stored is not None:
                answers[i] = (_replay(stored), True)
            else:
                answers[i] = answers[earlier]
            continue
        first[item.key] = i
        if isinstance(result, KeyMismatch):
            answers[i] = (
                error_response(result.message, status=422, code="invalid", field=result.field),
                False,
            )
        elif isinstance(result, ServiceError):
            answers[i] = (service_error_response(result), False)
        elif isinstance(result, Stored):
            answers[i] = (_replay(result), True)
        else:
            try:
                response = item.run()
            except DatabaseError:
                # A race lost on every try, the database gone: the item's savepoint is
                # rolled back (services are `retried`); it is sent again.
                response = error_response(_("try again"), status=503)
            answers[i] = (response, False)
            if response.status_code < 500:
                to_store[item.key] = _compact(response)
        if undecided(answers[i][0]):  # type: ignore[index]
            stop = i
            break
    if stop is not None:
        # Claimed and not answered: free for the items' next try.
        unrun = [
            items[j].key
            for j in range(stop, len(items))
            if j in claimed and claimed[j] is None and items[j].key not in to_store
        ]
        for j in range(stop + 1, len(items)):
            answers[j] = None
        idempotency_release(unrun, by=by)
    if to_store:
        idempotency_store_many(to_store, by=by)
    return answers
