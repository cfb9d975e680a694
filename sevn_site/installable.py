"""The installable app: its manifest and its service worker, both at the site's root (a worker
controls the pages under its own path, so /sw.js, with `Service-Worker-Allowed: /` besides).

The worker shows the pushes the outbox sends (game.services.outbox: a notice per table, its tag
the table's code, so a newer one replaces the last), sets the installed app's badge, and keeps an
offline copy of every rulebook page (the tutorial among them) in every language. It lives here,
above the rulebook, because it names the rulebook's pages; what it says is the template
installable/sw.js."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from rules import views as rulebook

THEME = "#0f3b2f"  # the table's felt (static/sevn/sevn.css --felt)
BACKGROUND = "#f6f4ee"  # the page's paper (--paper)
# what every offline page needs besides what its own HTML names (the worker reads that too):
# the page's script modules, which sevn.js imports, and the icons notices show
SHELL = ("sevn/sevn.css", "sevn/sevn.js", "sevn/favicon.svg", "sevn/app-icon-192.png")


def offline_pages() -> list[str]:
    """Every rulebook page of every game, in every language: they open with no network."""
    pages = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for kind in rulebook.games():
                pages += [rulebook.page_url(kind, page) for page in kind.rulebook.pages]
    return pages


def _assets() -> list[str]:
    script = Path(finders.find("sevn/sevn.js"))  # the page's script: its modules are beside it, in js/
    modules = sorted(path.name for path in (script.parent / "js").glob("*.js"))
    return [static(name) for name in SHELL] + [static(f"sevn/js/{name}") for name in modules]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    pages, assets = offline_pages(), _assets()
    # a new version whenever what it keeps changes (a new page, a static file's new hashed name)
    version = hashlib.sha256(json.dumps([pages, assets]).encode()).hexdigest()[:12]
    body = render_to_string(
        "installable/sw.js",
        {
            "version": version,
            "pages": json.dumps(pages),
            "assets": json.dumps(assets),
            "icon": json.dumps(static("sevn/app-icon-192.png")),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static("sevn/app-icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": static("sevn/app-icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {
            "src": static("sevn/app-icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "id": "/",
        "name": "SEVN",
        "short_name": "SEVN",
        "description": gettext("Card games to play with friends in the browser."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
