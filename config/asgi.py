"""The ASGI application: the pages and the API (Django), and the live tables' sockets
(Channels, tournaments/routing.py). Served by `runserver` (daphne) on the embedded
default and by gunicorn's uvicorn workers in production (README, docs/operations.md)."""

import os

from django.core.asgi import get_asgi_application

from .startup import or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django first: it sets up the apps that the routing's consumers import.
django_application = or_exit(get_asgi_application)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tournaments.routing import websocket_urlpatterns  # noqa: E402


def websocket_application() -> AllowedHostsOriginValidator:
    """The sockets: a page of this site only (its Origin among ALLOWED_HOSTS), with the
    page's session, so a director's socket may follow a tournament not yet published."""
    return AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))


application = ProtocolTypeRouter({"http": django_application, "websocket": websocket_application()})
