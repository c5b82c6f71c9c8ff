"""The sockets' URLs (config/asgi.py routes websocket connections here)."""

from django.urls import path

from tournaments.results.consumers import SOCKET_ROUTE, LiveTablesConsumer

websocket_urlpatterns = [
    path(SOCKET_ROUTE, LiveTablesConsumer.as_asgi(), name="live-socket"),
]
