"""The language switcher: this page in every language (a context processor)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils.translation import get_language


def language_links(request: HttpRequest) -> dict:
    """Context processor: this page in every language, for the switcher."""
    current = get_language()
    return {
        "language_links": [
            {"code": code, "name": name, "url": translate_url(request.path, code), "current": code == current}
            for code, name in settings.LANGUAGES
        ]
    }
