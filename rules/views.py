"""The rulebook's pages: every registered game's, each drawn by its game's template from the
translated rows (rules.prose) and what its engine computes (its Kind's `rulebook`).

A game's first page is at /rules/<game>/ and its others at /rules/<game>/<page>/; the site's
first game's pages are also the rulebook's front: /rules/ and /rules/<page>/."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from game import registry
from game.core.kind import Kind
from game.core.rulebook import Page
from rules.content.load import ensure
from rules.prose import Prose


def games() -> list[Kind]:
    """The registered games that have a rulebook, in the registry's order."""
    return [kind for kind in registry.KINDS.values() if kind.rulebook is not None]


def page_url(kind: Kind, page: Page) -> str:
    first = kind.rulebook is not None and page == kind.rulebook.pages[0]
    if kind.name == registry.DEFAULT:
        return reverse("rules:index") if first else reverse("rules:page", args=[page.key])
    return reverse("rules:page", args=[kind.name]) if first else reverse("rules:game_page", args=[kind.name, page.key])


def complete_url() -> str:
    """The site's first game's complete rules (where the fair-deal section is): the "Rules" link."""
    kind = registry.KINDS[registry.DEFAULT]
    pages = kind.rulebook.pages if kind.rulebook is not None else ()
    chosen = next((page for page in pages if page.complete), pages[0] if pages else None)
    return page_url(kind, chosen) if chosen is not None else reverse("rules:index")


def _find(name: str | None, key: str | None) -> tuple[Kind, Page]:
    """The page an address names: a game's first page (by the game's name), the first game's page
    by its key, or a game's page by the game's name and the page's key."""
    kinds = {kind.name: kind for kind in games()}
    default = kinds.get(registry.DEFAULT)
    if name is None:
        kind, key = default, None
    elif key is None and name in kinds:
        kind = kinds[name]
    elif key is None:
        kind, key = default, name
    else:
        kind = kinds.get(name)
    if kind is None or kind.rulebook is None:
        raise Http404
    pages = kind.rulebook.pages
    found = pages[0] if key is None else next((page for page in pages if page.key == key), None)
    if found is None:
        raise Http404
    return kind, found


def nav(current: Page) -> list[dict]:
    """The rulebook's menu: every game's pages, the one shown marked."""
    return [
        {"url": page_url(kind, page), "title": page.title, "current": page is current}
        for kind in games()
        for page in (kind.rulebook.pages if kind.rulebook is not None else ())
    ]


@require_GET
def page(request: HttpRequest, name: str | None = None, key: str | None = None) -> HttpResponse:
    kind, shown = _find(name, key)
    ensure([kind])  # a game registered since the last migration gets its rows now
    context = shown.context(Prose())
    context["rulebook_nav"] = nav(shown)
    return render(request, shown.template, context)
