"""Signing in: Django's login, throttled per address."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.utils.translation import gettext

from game.core.limits import client_address, is_limited, over_limit


class LoginView(auth_views.LoginView):
    """Django's login, with failed attempts counted per address: past the limit, wait a minute."""

    def post(self, request, *args, **kwargs):
        if is_limited("login", client_address(request.META), settings.SEVN_LOGINS_PER_MINUTE, 60):
            response = HttpResponse(gettext("Too many failed logins: wait a minute and try again."), status=429)
            response["Retry-After"] = "60"
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        over_limit("login", client_address(self.request.META), settings.SEVN_LOGINS_PER_MINUTE, 60)
        return super().form_invalid(form)
