"""gunicorn's worker for the live tables' socket process (docs/operations.md).

uvicorn compresses every WebSocket message by default (permessage-deflate): for the small
JSON of a saved ply sent to hundreds of spectators it cost about 40 % of the event loop
and some 20 KiB per socket (bench/live_load.py), for no gain on a local network."""

from uvicorn_worker import UvicornWorker


class LiveTablesWorker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "ws_per_message_deflate": False}
