"""gunicorn's worker for the live tables' socket process (docs/operations.md).

uvicorn compresses every WebSocket message by default (permessage-deflate): for the small
JSON of a saved ply sent to hundreds of spectators it cost about 40 % of the event loop
and some 20 KiB per socket (bench/live_load.py), for no gain on a local network.

Pages send nothing up the socket (tournaments/results/consumers.py drops what comes), so a
frame is held to 4 KiB instead of uvicorn's 16 MiB; a larger one closes the socket (1009)."""

from uvicorn_worker import UvicornWorker


class LiveTablesWorker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "ws_per_message_deflate": False,
        "ws_max_size": 4096,
    }
