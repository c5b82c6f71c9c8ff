"""The client's address for login throttling, read the way the API's throttles read it
(DRF's NUM_PROXIES): X-Forwarded-For is believed only for the NUM_PROXIES proxies that
the deployment says are in front of it, so a client cannot rotate it to escape."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    proxies = int(settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return str(request.META.get("REMOTE_ADDR", ""))
