"""Standard Webhooks signatures (https://www.standardwebhooks.com, the specification's
"Signature scheme"): HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" under the
endpoint's secret, sent base64-encoded as "v1,<signature>".

Written here with hmac and hashlib on purpose: the `standardwebhooks` package on PyPI
does the same in a few lines but brings an HTTP client and date libraries along; these
functions are all a sender (and the tests' receiver) needs. A pure core: no Django."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping

SECRET_PREFIX = "whsec_"
# A receiver refuses a message whose timestamp is further than this from its own clock
# (the specification's replay protection).
TOLERANCE_SECONDS = 5 * 60


def secret_new() -> str:
    """A new endpoint's secret: 32 random bytes (the specification asks 24 to 64)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def secret_key(secret: str) -> bytes:
    """The key bytes of a `whsec_…` secret (the prefix is not part of the key)."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def signature(*, secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def headers(*, secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The three headers of a signed message."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(
            secret=secret, message_id=message_id, timestamp=timestamp, body=body
        ),
    }


def verify(*, secret: str, headers: Mapping[str, str], body: bytes, now: int) -> bool:
    """What a receiver does (docs/league.md, "Webhooks"): the timestamp within the
    tolerance of its own clock, and one of the space-separated "v1," signatures equal to
    its own, compared in constant time."""
    lower = {k.lower(): v for k, v in headers.items()}
    message_id = lower.get("webhook-id", "")
    stamp = lower.get("webhook-timestamp", "")
    if not message_id or not stamp.isdigit():
        return False
    if abs(now - int(stamp)) > TOLERANCE_SECONDS:
        return False
    expected = signature(secret=secret, message_id=message_id, timestamp=int(stamp), body=body)
    return any(
        hmac.compare_digest(expected.encode(), sent.encode())
        for sent in lower.get("webhook-signature", "").split()
    )
