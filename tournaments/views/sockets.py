"""Live tables' socket (Django Channels): a page that shows a tournament's games joins
its group and hears each game's new state as soon as it is saved (services/
broadcast.py). Who may listen is who may see the tournament (permissions.can_view);
nothing is sent up the socket. A page whose socket fails polls instead (games/static/games/live_socket.js)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournaments.models import Tournament
from tournaments.permissions import can_view
from tournaments.services.broadcast import MESSAGE, tournament_group

# The socket's route (tournaments/routing.py); pages are told its path by socket_path().
SOCKET_ROUTE = "ws/t/<slug:slug>/live/"


def socket_path(slug: str) -> str:
    return "/" + SOCKET_ROUTE.replace("<slug:slug>", slug)


@database_sync_to_async
def _viewable(slug: str, user: Any) -> int | None:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not can_view(user, tournament):
        return None
    return tournament.pk


class LiveTablesConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group: str | None = None

    async def connect(self) -> None:
        slug = self.scope["url_route"]["kwargs"]["slug"]
        tournament_id = await _viewable(slug, self.scope.get("user"))
        if tournament_id is None:
            await self.close()  # before accepting: the handshake is refused (403)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Pages send nothing; anything sent is ignored."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        # A saved game's news goes straight out: Channels' dispatch first closes the
        # thread's old database connections in a worker thread, a hop per message and
        # socket that saturated the event loop with hundreds of spectators
        # (bench/live_load.py); this handler touches no database.
        if message.get("type") == MESSAGE:
            await self.send(text_data=message["text"])
            return
        await super().dispatch(message)
