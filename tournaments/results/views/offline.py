"""The pages that work without signal (issue 25): the service worker and the web app
manifest, both at the site's root. The worker's scope is the folder it is served from,
so it cannot be a static file under /static/; its text is the static file agon/sw.js,
behind the static files' address it needs to know."""

from __future__ import annotations

import json
from functools import cache

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.views.decorators.http import require_safe


@cache
def _worker_source() -> str:
    found = finders.find("agon/sw.js")
    if found:
        with open(found, encoding="utf-8") as source:
            return source.read()
    with staticfiles_storage.open("agon/sw.js") as source:  # collected, without the finders
        return source.read().decode("utf-8")


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: the worker, told where the static files are. Never cached as a file: the
    browser compares it byte for byte to take up a new version."""
    # The storage's base address, not static(""): the manifest storage of production has
    # no entry for "" (a 500). Every collected file, hashed or not, is under it.
    prefix = json.dumps(staticfiles_storage.base_url)
    response = HttpResponse(
        f"const AGON_STATIC = {prefix};\n{_worker_source()}", content_type="text/javascript"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """/manifest.webmanifest: Agon as an installable app, the site's icon its icon."""
    body = {
        "name": "Agon",
        "short_name": "Agon",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfbfa",
        "theme_color": "#ffffff",
        # PNGs beside the SVG: launchers that draw no SVG icon (older Android, iOS)
        # take these; the maskable ones keep the star inside the safe zone. They are
        # drawn from favicon.svg and icon-maskable.svg (docs/offline.md).
        "icons": [
            {
                "src": static("agon/favicon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            },
            *(
                {
                    "src": static(f"agon/icon{kind}-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": purpose,
                }
                for kind, purpose in (("", "any"), ("-maskable", "maskable"))
                for size in (192, 512)
            ),
        ],
    }
    response = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    response["Cache-Control"] = "max-age=3600"
    return response
