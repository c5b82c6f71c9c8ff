"""Public pages served from a cache keyed on what they show (issue 44, point 4).

A public page (a round's tables, the standings) is read by every spectator's phone and
every projector, and written only when a result or the round changes. Its view names
what it shows in an ETag (`tournaments.core.poll.poll_etag` over the round's state and
the standings' version: the same versions the pollers compare), and `public_page`:

- answers every client conditionally: a 304 when its If-None-Match is the page's ETag
  (not only the poller's, as `poll_page` does for organiser pages), unless a message
  waits to be shown;
- renders a visitor who is not signed in once per ETag and keeps the body in Django's
  cache (Redis in production, shared by every process) and in a small in-process copy,
  so most plain GETs cost the queries that make the ETag and no render. The key is the
  ETag (which holds the language), the path with its query and the code's build stamp:
  a result, a rename, a setting, a round's status, a new language or a deploy names
  another key, so nothing stale is served and nothing needs deleting (the one bound:
  a visitor's round page may show another process's write up to PUBLIC_ROUND_LAG_MS
  late, `tournaments.core.poll.recent_games_state`);
- answers a client that accepts gzip (every browser) with a compressed copy made once
  per body and process (`_gzipped`), not compressed again on every request as
  GZipMiddleware would (about 5 ms of CPU for a 300 KB page, 20 times the rest);
- never shares a page between people: a signed-in user's page (their name, the
  director's links) is rendered for them and not stored; the one per-visitor piece of
  a visitor's page, the CSRF token of the language switcher, is left as a hole in the
  stored body and filled per request.

Whether someone may see the page at all is the view's to decide before it asks (a
hidden tournament is a 404 to anyone who may not see it, before any cache is read).
Every answer says ``Cache-Control: private, no-cache`` (a page carries its visitor's
CSRF token, so no shared proxy may keep it; the browser keeps it and revalidates) and
``Vary: Cookie, Accept-Language``.
"""

from __future__ import annotations

import hashlib
import re
import struct
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Collection
from functools import cache as once
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers

from tournaments.core.poll import POLLER, etag_matches

# How long Redis keeps a body; a new ETag makes a new key long before that.
TIMEOUT = 3600
# How long a request waits for another's render of the same new page before rendering
# it itself (a render of a 1,000-player round takes about 0.1 s on a quiet machine).
RENDER_WAIT = 3
# The in-process copy: the newest bodies, up to this many bytes per process.
LOCAL_BYTES = 32 * 1024 * 1024
# What stands for the visitor's CSRF token in a stored body (never a valid token: those
# are letters and digits only).
HOLE = b"<agon:csrf-token>"
_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')

# A client that accepts gzip (GZipMiddleware's own test).
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
# Smaller bodies go out as they are (GZipMiddleware's own bound).
GZIP_MIN = 200
# A gzip member's header: deflate, no name, no time (RFC 1952, 2.3).
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"

_local: OrderedDict[str, bytes | tuple[bytes, ...]] = OrderedDict()
_local_bytes = 0
_lock = threading.Lock()


@once
def build_stamp() -> str:
    """Names the code and templates this process runs (their files' sizes and times, and
    the static files' manifest): a deploy starts new keys, so a page rendered by the
    old code (with the old static files' names) is never served by the new one."""
    digest = hashlib.sha1()
    base = Path(settings.BASE_DIR)
    for top in ("config", "games", "ratings", "tournaments", "templates"):
        for path in sorted((base / top).rglob("*")):
            if path.suffix in {".py", ".html", ".so"}:
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    if settings.STATIC_ROOT:
        manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
        if manifest.is_file():
            digest.update(manifest.read_bytes())
    return digest.hexdigest()[:12]


def page_key(etag: str, path: str) -> str:
    return "page:" + hashlib.sha1(f"{build_stamp()}|{etag}|{path}".encode()).hexdigest()


def forget_local() -> None:
    """Empty this process's copy (the benchmark's cold render; tests)."""
    global _local_bytes
    with _lock:
        _local.clear()
        _local_bytes = 0


def _size(kept: bytes | tuple[bytes, ...]) -> int:
    return len(kept) if isinstance(kept, bytes) else sum(map(len, kept))


def _local_get(key: str) -> bytes | None:
    with _lock:
        body = _local.get(key)
        if body is not None:
            _local.move_to_end(key)
        return body if isinstance(body, bytes) else None


def _local_put(key: str, body: bytes | tuple[bytes, ...]) -> None:
    global _local_bytes
    if _size(body) > LOCAL_BYTES // 4:
        return
    with _lock:
        if key in _local:
            return
        _local[key] = body
        _local_bytes += _size(body)
        while _local_bytes > LOCAL_BYTES:
            _, dropped = _local.popitem(last=False)
            _local_bytes -= _size(dropped)


def _gzip_parts(key: str, body: bytes) -> tuple[bytes, ...]:
    """The body compressed once, a raw deflate stream per piece between its CSRF holes:
    each flushed to a byte boundary and not final but the last, each compressed on its
    own (no back-reference crosses a hole). Kept in this process beside the body."""
    with _lock:
        kept = _local.get(key + ":gz")
    if isinstance(kept, tuple):
        return kept
    pieces = body.split(HOLE)
    compressed = []
    for number, piece in enumerate(pieces, start=1):
        stream = zlib.compressobj(6, zlib.DEFLATED, -15)
        end = zlib.Z_FINISH if number == len(pieces) else zlib.Z_SYNC_FLUSH
        compressed.append(stream.compress(piece) + stream.flush(end))
    parts = tuple(compressed)
    _local_put(key + ":gz", parts)
    return parts


def _gzipped(key: str, body: bytes, token: bytes) -> bytes:
    """The page as one gzip member (RFC 1952) with the visitor's token in its holes: the
    pieces of `_gzip_parts` with the token between them as a stored deflate block (RFC
    1951, 3.2.4: a masked token is new on every request, so it is never compressed
    against the page, as Django's BREACH advice asks), and the whole's CRC-32 and size.
    Costs a CRC over the page, not a compression."""
    compressed = _gzip_parts(key, body)
    stored = b"\x00" + struct.pack("<HH", len(token), 0xFFFF ^ len(token)) + token
    crc = 0
    for number, piece in enumerate(body.split(HOLE)):
        if number:
            crc = zlib.crc32(token, crc)
        crc = zlib.crc32(piece, crc)
    size = (len(body) + (len(token) - len(HOLE)) * (len(compressed) - 1)) & 0xFFFFFFFF
    return b"".join((_GZIP_HEADER, stored.join(compressed), struct.pack("<II", crc, size)))


def compressed_answer(
    request: HttpRequest, key: str, body: bytes, token: bytes = b"", content_type: str = ""
) -> HttpResponse | None:
    """For a client that accepts gzip, the body kept under ``key`` compressed once
    (`_gzipped`, ``token`` in its holes), with its Content-Encoding and Vary; else None
    (the body goes out as it is). Its ETag is the caller's to set, weakened."""
    if len(body) < GZIP_MIN or not _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        return None
    response = HttpResponse(_gzipped(key, body, token), content_type=content_type or None)
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def cached_body(key: str) -> bytes | None:
    """A body stored under ``key``: this process's copy, else the shared cache's (kept
    here too for the next request)."""
    body = _local_get(key)
    if body is None:
        body = cache.get(key)
        if body is not None:
            _local_put(key, body)
    return body


def store_body(key: str, body: bytes) -> None:
    cache.set(key, body, timeout=TIMEOUT)
    _local_put(key, body)


def _messages_waiting(request: HttpRequest) -> bool:
    # len() reads the storage without marking its messages seen.
    return bool(len(get_messages(request)))


def _client_etag(etag: str, request: HttpRequest) -> str:
    """The ETag a browser keeps for a whole page: the page's and the visitor's CSRF
    secret, so that a copy whose token no longer matches the cookie (after a log-in or
    log-out elsewhere) is never revalidated as current."""
    secret = request.META.get("CSRF_COOKIE", "")
    mark = hashlib.sha1(secret.encode()).hexdigest()[:8]
    return f'{etag[:-1]}.{mark}"'


def _shared(request: HttpRequest, waiting: bool, shared_queries: Collection[str]) -> bool:
    """Whether this request's page is everyone's: a visitor not signed in, with no
    message waiting, asking with one of the page's usual query strings."""
    return (
        not waiting
        and request.META.get("QUERY_STRING", "") in shared_queries
        and not request.user.is_authenticated
    )


def _answer(
    request: HttpRequest, response: HttpResponse, etag: str, polling: bool, *, weak: bool = False
) -> HttpResponse:
    if response.status_code in (200, 304):
        # After the render: a visitor without a CSRF cookie got one with the page.
        response["ETag"] = ("W/" if weak else "") + (
            etag if polling else _client_etag(etag, request)
        )
        response["Cache-Control"] = "private, no-cache"
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def _polling(request: HttpRequest) -> bool:
    return bool(request.htmx) and request.htmx.trigger == POLLER


def ready_page(
    request: HttpRequest, etag: str, *, shared_queries: Collection[str] = ("",)
) -> HttpResponse | None:
    """A 304, or the visitor's page from the cache, when there is one without rendering;
    else None. For a view's early way, before it loads what a render needs."""
    polling = _polling(request)
    waiting = _messages_waiting(request)
    if not waiting and etag_matches(
        request.headers.get("If-None-Match"), etag if polling else _client_etag(etag, request)
    ):
        return _answer(request, HttpResponseNotModified(), etag, polling)
    if not _shared(request, waiting, shared_queries):
        return None
    key = page_key(etag, request.get_full_path())
    body = cached_body(key)
    if body is None:
        return None
    token = get_token(request).encode()
    compressed = compressed_answer(request, key, body, token)
    if compressed is not None:
        # Weakened, as GZipMiddleware weakens a compressed answer's ETag (RFC 9110, 8.8.1:
        # another representation of the same page).
        return _answer(request, compressed, etag, polling, weak=True)
    filled = body.replace(HOLE, token) if HOLE in body else body
    return _answer(request, HttpResponse(filled), etag, polling)


def public_page(
    request: HttpRequest,
    etag: str,
    render: Callable[[str], HttpResponse],
    *,
    shared_queries: Collection[str] = ("",),
) -> HttpResponse:
    """The page ``render(etag)`` draws, for anyone the view has let see it: a 304 for a
    client that has it, a visitor's copy from the cache, else a fresh render (stored for
    the next visitor). The page's own poller (agon/poll.js) keeps sending back ``etag``;
    other clients get and send back `_client_etag`. Only the query strings in
    ``shared_queries`` are stored (others render each time, so a made-up query cannot
    fill the cache)."""
    ready = ready_page(request, etag, shared_queries=shared_queries)
    if ready is not None:
        return ready
    if not _shared(request, _messages_waiting(request), shared_queries):
        return _answer(request, render(etag), etag, _polling(request))
    key = page_key(etag, request.get_full_path())
    # One render per new page across all processes: the others wait for its body (a
    # result makes every spectator's next request a miss at once).
    lock = f"{key}:rendering"
    owner = cache.add(lock, 1, timeout=RENDER_WAIT)
    if not owner and _appeared(key, lock):
        ready = ready_page(request, etag, shared_queries=shared_queries)
        if ready is not None:
            return ready
    try:
        response = render(etag)
        if response.status_code == 200 and not response.streaming:
            body = bytes(response.content)
            found = _TOKEN.search(body)
            store_body(key, body.replace(found.group(1), HOLE) if found else body)
    finally:
        if owner:
            cache.delete(lock)
    return _answer(request, response, etag, _polling(request))


def _appeared(key: str, lock: str) -> bool:
    """Wait (up to RENDER_WAIT seconds) for another process's render of ``key``, while
    its ``lock`` is held; False at once when the cache does not answer (it fails open:
    every request renders)."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        if cached_body(key) is not None:
            return True
        if not cache.has_key(lock):
            return cached_body(key) is not None
        time.sleep(0.02)
    return False
