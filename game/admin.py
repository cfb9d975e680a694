"""Django's admin finds the app's admin here: the staff's pages are game.moderation's."""

from __future__ import annotations

from django.contrib import admin

from game.moderation import accounts, admin_login, rating_flags, review, tables  # noqa: F401 (each registers its pages)

admin_login.install(admin.site)
