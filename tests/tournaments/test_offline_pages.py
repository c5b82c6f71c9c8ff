"""The installable app's two root files (tournaments/results/views/offline.py): the manifest
names icons that exist, at the sizes it says, and the worker is served from the root
with what it needs to take up a new version."""

from __future__ import annotations

import json
import struct

from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

ICONS = [
    "favicon.svg",
    *(f"icon{kind}-{size}.png" for kind in ("", "-maskable") for size in (192, 512)),
]


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as png:
        head = png.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_manifest_names_an_svg_and_png_icons_that_exist_at_their_declared_sizes(client):
    answer = client.get(reverse("manifest"))
    assert answer.status_code == 200
    manifest = answer.json()
    assert (manifest["display"], manifest["start_url"], manifest["scope"]) == (
        "standalone",
        "/",
        "/",
    )
    icons = manifest["icons"]
    assert {icon["type"] for icon in icons} == {"image/svg+xml", "image/png"}
    purposes = {(icon["sizes"], icon["purpose"]) for icon in icons if icon["type"] == "image/png"}
    assert purposes == {(s, p) for s in ("192x192", "512x512") for p in ("any", "maskable")}
    # Each icon by its static name (hashed or not, as the site serves static files).
    names = {static(f"agon/{n}"): n for n in ICONS}
    assert {icon["src"] for icon in icons} == set(names)
    for icon in icons:
        found = finders.find(f"agon/{names[icon['src']]}")
        assert found, icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(found)
            assert f"{width}x{height}" == icon["sizes"], icon["src"]


def test_the_worker_is_served_from_the_root_uncached_and_told_the_static_address(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache"
    assert answer.content.decode().startswith(f"const AGON_STATIC = {json.dumps(static(''))};")


def test_a_queued_form_with_a_stale_csrf_token_is_a_403_the_queue_can_tell_apart(db):
    # CSRF is checked before the view: any form address shows it, a real link or not.
    client = Client(enforce_csrf_checks=True)
    answer = client.post(
        "/report/no-such-token/",
        {"game": 1, "out": "3 1"},
        HTTP_ACCEPT="application/json",
        HTTP_X_CSRFTOKEN="stale" * 8,
    )
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "csrf"
    assert "Reload the page and send it again." in answer.json()["error"]["message"]
