"""The alerts' outbox in admin, to read only: what was sent to whom and when, and why a notice
was not (its outcome: moved on, at the table, off, no device, failed...). Written and sent by
game.services.alerts and game.services.outbox alone."""

from __future__ import annotations

from django.contrib import admin

from game.models import Notice
from game.moderation.review import ReadOnly


@admin.register(Notice)
class NoticeAdmin(ReadOnly):
    list_display = ("key", "user", "kind", "table_code", "due", "done", "outcome", "attempts")
    list_filter = ("kind", "outcome")
    search_fields = ("user__username", "table_code", "key")
    date_hierarchy = "due"
    list_select_related = ("user",)
