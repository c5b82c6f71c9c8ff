"""The pages' write doors (the board's save, a player's report form, the results
screen's saves and flag clearing) throttled as the API's writes are: DRF's throttles on
Django's cache, their rates in settings (REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]), the
address read as DRF reads it (NUM_PROXIES). Two counts: per link (a seat's report token,
else the signed-in user) and per address (every link and user behind it together)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from rest_framework.throttling import SimpleRateThrottle

from tournaments.core.json_errors import error_response

READS = frozenset({"GET", "HEAD", "OPTIONS"})


class LinkThrottle(SimpleRateThrottle):
    scope = "link_writes"

    def __init__(self, token: str | None = None) -> None:
        super().__init__()
        self.token = token

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if self.token:
            ident = f"seat:{self.token}"
        elif user is not None and user.is_authenticated:
            ident = f"user:{user.pk}"
        else:
            ident = f"address:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AddressThrottle(SimpleRateThrottle):
    scope = "address_writes"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ItemBudget:
    """The write counts of a batch (the board's batch door, views/batch.py): each item
    counts as one write, per its link and per address, as if it came alone, so that
    batching never writes more than single requests may. The counts are read once from
    the cache, handed out item by item (`take`) and written back once (`save`)."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self.address = self._open(AddressThrottle())
        self.links: dict[str | None, SimpleRateThrottle] = {}

    def _open(self, throttle: SimpleRateThrottle) -> SimpleRateThrottle:
        throttle.key = throttle.get_cache_key(self.request, None)
        throttle.now = throttle.timer()
        history = throttle.cache.get(throttle.key, []) if throttle.key and throttle.rate else []
        throttle.history = [t for t in history if t > throttle.now - (throttle.duration or 0)]
        return throttle

    def take(self, token: str | None) -> bool:
        """One write of the link ``token`` (None: the signed-in user); False when the
        link or the address has none left (nothing is counted then)."""
        if token not in self.links:
            self.links[token] = self._open(LinkThrottle(token))
        throttles = (self.links[token], self.address)
        if any(len(t.history) >= t.num_requests for t in throttles if t.rate is not None):
            return False
        for throttle in throttles:
            throttle.history.insert(0, throttle.now)
        return True

    def wait(self) -> int:
        """Seconds until a write is allowed again (Retry-After)."""
        waits = [t.wait() or 1 for t in (self.address, *self.links.values())]
        return max(1, math.ceil(max(waits)))

    def keep_counts(self) -> None:
        for throttle in (self.address, *self.links.values()):
            if throttle.key and throttle.rate is not None:
                throttle.cache.set(throttle.key, throttle.history, throttle.duration)


def write_throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view whose writes are counted per link and per address; beyond either rate a
    429 in the one error shape with `Retry-After`. Outside `@idempotent`: a 429 is never
    stored as a key's answer, the item is sent again later."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in READS:
            for throttle in (LinkThrottle(kwargs.get("token")), AddressThrottle()):
                if not throttle.allow_request(request, None):
                    seconds = max(1, math.ceil(throttle.wait() or 1))
                    response = error_response(
                        _("too many writes from this link or address; try again in %(seconds)s s")
                        % {"seconds": seconds},
                        status=429,
                    )
                    response["Retry-After"] = str(seconds)
                    return response
        return view(request, *args, **kwargs)

    return wrapper
