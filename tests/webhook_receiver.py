"""A real webhook receiver for the tests: an HTTP server on a loopback port, in a
thread, that checks each message's Standard Webhooks signature with the secret it is
given (as a club's receiver would, independently of the sender's code: its own HMAC) and
answers with the statuses it is scripted to (the last one repeated)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def signature_valid(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """The specification's check, written from it: HMAC-SHA256 over "id.timestamp.body"
    with the base64 key after `whsec_`, any of the space-separated `v1,` signatures, the
    timestamp within 5 minutes."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    stamp = headers.get("webhook-timestamp", "")
    if not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
        return False
    signed = f"{headers.get('webhook-id', '')}.{stamp}.".encode() + body
    mine = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(mine, s) for s in headers.get("webhook-signature", "").split())


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    valid: bool
    at: float

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    secret: str = ""
    statuses: list[int] = field(default_factory=lambda: [200])
    answer: bytes = b'{"ok": true}'
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/hook?club=1"

    def status_now(self) -> int:
        n = len(self.received)
        return self.statuses[min(n - 1, len(self.statuses) - 1)]


def start_receiver(**kwargs: Any) -> Receiver:
    receiver = Receiver(**kwargs)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            valid = bool(receiver.secret) and signature_valid(receiver.secret, headers, body)
            receiver.received.append(Received(headers, body, valid, time.time()))
            # A receiver refuses a message it cannot verify (401), as the docs advise.
            status = receiver.status_now() if valid else 401
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(receiver.answer)))
            self.end_headers()
            self.wfile.write(receiver.answer)

        def log_message(self, *args: Any) -> None:
            pass

    receiver.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=receiver.server.serve_forever, daemon=True).start()
    return receiver


def stop_receiver(receiver: Receiver) -> None:
    if receiver.server is not None:
        receiver.server.shutdown()
        receiver.server.server_close()
