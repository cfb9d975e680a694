"""Django's admin finds the app's admin here: the staff's pages are game.moderation's."""

from __future__ import annotations

from django.contrib import admin

from game.moderation import (  # noqa: F401 (each registers its pages)
    accounts,
    admin_language,
    admin_login,
    alerts,
    game_results,
    leave_pauses,
    rating_flags,
    review,
    tables,
)

admin_login.install(admin.site)
admin_language.install(admin.site)
