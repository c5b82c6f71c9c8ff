"""gunicorn's worker for the live tables' socket process (docs/operations.md).

uvicorn compresses every WebSocket message by default (permessage-deflate): for the small
JSON of a saved ply sent to hundreds of spectators it cost about 40 % of the event loop
and some 20 KiB per socket (bench/live_load.py), for no gain on a local network.

Pages send nothing up the socket (tournaments/results/consumers.py drops what comes), so a
frame is held to 4 KiB instead of uvicorn's 16 MiB; a larger one closes the socket (1009).

Run it with `--reuse-port`: each worker then listens on a socket of its own and the
kernel spreads the connections evenly over them. On the master's one shared socket,
whichever worker woke first took the connection, and a thousand spectators split 777/223
(issue 44); the busier worker then fell behind on every message."""

from typing import Any

from uvicorn_worker import UvicornWorker


class LiveTablesWorker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "ws_per_message_deflate": False,
        "ws_max_size": 4096,
    }

    @classmethod
    def check_config(cls, cfg: Any, log: Any) -> None:
        if cfg.workers > 1 and not cfg.reuse_port:
            log.warning(
                "live: run with --reuse-port, or the workers share one listening socket "
                "and the sockets are spread unevenly over them (docs/operations.md)"
            )
