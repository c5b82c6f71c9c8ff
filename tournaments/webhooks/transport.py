"""The one outgoing request of a delivery (services.py): a POST to the endpoint's URL,
bounded in every way a receiver could hold the worker up or fill its memory.

- only http and https; never a redirect followed (http.client follows none: a 3xx is
  an answer, and not a success);
- the address checked before connecting, and the connection made to the address that
  was checked (so a name that resolves to a public address when checked and to a private
  one a moment later cannot slip through): loopback, private, link-local and other
  non-public addresses are refused unless settings.WEBHOOK_ALLOW_PRIVATE;
- a timeout on connecting and on every read, and a deadline for the whole answer;
- at most ANSWER_BYTES of the answer's body read."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

ANSWER_BYTES = 64 * 1024
EXCERPT_CHARS = 500


class AddressRefused(Exception):
    """The URL is not one a delivery may go to; the message says why."""


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no answer (the error says why)
    ms: int
    excerpt: str
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def url_refusal(url: str) -> str | None:
    """Why this URL cannot be an endpoint, or None: its form only (no lookup)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return _("only http and https addresses")
    if not parts.hostname:
        return _("the address needs a host")
    if parts.username or parts.password:
        return _("the address may not hold a name or password")
    try:
        parts.port  # noqa: B018 - raises for a port out of range
    except ValueError:
        return _("the port is not a number from 1 to 65535")
    try:
        literal = ipaddress.ip_address(parts.hostname)
    except ValueError:
        if parts.hostname.rstrip(".").lower() == "localhost" and not allow_private():
            return _("loopback and private addresses are not allowed")
        return None
    if not _public(literal) and not allow_private():
        return _("loopback and private addresses are not allowed")
    return None


def allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False))


def _public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int) -> str:
    """The address to connect to: the first the name resolves to, every one of them
    checked (a name with one private address among public ones is refused)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise AddressRefused(_("the host name does not resolve")) from exc
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise AddressRefused(_("the host name does not resolve"))
    if not allow_private():
        for text in addresses:
            if not _public(ipaddress.ip_address(text.split("%")[0])):
                raise AddressRefused(_("loopback and private addresses are not allowed"))
    return addresses[0]


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to the checked address, with the certificate checked for the host name."""

    def __init__(self, address: str, host: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, address: str, host: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def post(*, url: str, headers: dict[str, str], body: bytes) -> Answer:
    """Send once; never raises for the receiver's failings (they are the answer)."""
    timeout = float(settings.WEBHOOK_TIMEOUT_SECONDS)
    started = time.monotonic()

    def answer(status: int | None, excerpt: str = "", error: str = "") -> Answer:
        ms = int((time.monotonic() - started) * 1000)
        return Answer(status=status, ms=ms, excerpt=excerpt[:EXCERPT_CHARS], error=error[:200])

    refusal = url_refusal(url)
    if refusal:
        return answer(None, error=refusal)
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        address = resolve(host, port)
    except AddressRefused as exc:
        return answer(None, error=str(exc))
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(address, host, port, timeout)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    try:
        connection.request(
            "POST",
            target,
            body=body,
            headers={
                **headers,
                "Content-Type": "application/json",
                "User-Agent": "Agon-Webhooks/1",
            },
        )
        response = connection.getresponse()
        chunks: list[bytes] = []
        size = 0
        # The whole answer within twice the timeout, however slowly it trickles in.
        while size < ANSWER_BYTES and time.monotonic() - started < 2 * timeout:
            chunk = response.read1(min(8192, ANSWER_BYTES - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        text = b"".join(chunks)[: EXCERPT_CHARS * 4].decode("utf-8", "replace")
        return answer(response.status, excerpt=text)
    except (OSError, http.client.HTTPException) as exc:
        return answer(
            None, error=f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        )
    finally:
        connection.close()
