"""How a page answers a form it refused or accepted: a toast for htmx, the table page with a message otherwise."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import get_language

from game import screen as table_render


def answer(request: HttpRequest, code: str, message: str, ok: bool = False) -> HttpResponse:
    """A sentence for whoever posted: a toast for htmx, the table page with a message otherwise."""
    if request.htmx:
        return HttpResponse(
            table_render.render_notice(message, get_language())
            if ok
            else table_render.render_error(message, get_language())
        )
    (messages.success if ok else messages.error)(request, message)
    return redirect("table", code=code.upper())
