"""What moderation stored as words (in the moderator's language, or English) becomes a code and
its values (game.core.staff_words), drawn in each reader's language: the moderators' log's
details and warning reasons, reports' resolutions, and why a table closed without its host.
Text that is no known sentence (a moderator's own note or reason) stays as it was typed."""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.db import migrations
from django.utils import translation

WARNINGS = ("insults", "spam", "cheating", "nickname", "rules")
DURATIONS = ("15m", "1h", "24h", "7d", "30d", "permanent")


def _in_every_language(msgid: str) -> set[str]:
    said = {msgid}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            said.add(translation.gettext(msgid))
    return said


def _store(*entries: dict) -> str:
    return json.dumps(entries[0] if len(entries) == 1 else list(entries), ensure_ascii=False)


def _detail(action: str, detail: str, kinds: dict[str, set[str]]) -> dict | None:
    """A log line's old details as an entry, or None when they are no known words."""
    if action == "warn" and detail in WARNINGS:
        return {"code": "warned", "warning": detail}
    if action == "mute" and (found := re.fullmatch(r"(\S+), (\S+)", detail)) and found[1] in DURATIONS:
        return {"code": "muted", "duration": found[1], "where": "" if found[2] == "everywhere" else found[2]}
    if action == "ban" and (found := re.fullmatch(r"(\S+), (\d+) seat\(s\)", detail)) and found[1] in DURATIONS:
        return {"code": "banned_seats", "duration": found[1], "seats": int(found[2])}
    if action == "lift":
        for kind, labels in kinds.items():
            if detail in labels:
                return {"code": "lifted", "kind": kind}
    if action == "rename" and " → " in detail:
        old, new = detail.split(" → ", 1)
        return {"code": "renamed", "old": old, "new": new}
    if action == "handle" and detail:
        return {"code": "no_action"} if detail == "no action" else {"code": "note", "text": detail}
    return None


def _step(part: str, reported: str) -> dict:
    """One step of a report's old resolution ("muted 1h everywhere", "table closed", a note)."""
    if (found := re.fullmatch(r"warned \((\w+)\)", part)) and found[1] in WARNINGS:
        return {"code": "warned", "warning": found[1]}
    if (found := re.fullmatch(r"muted (\S+) (\S+)", part)) and found[1] in DURATIONS:
        return {"code": "muted", "duration": found[1], "where": "" if found[2] == "everywhere" else found[2]}
    if (found := re.fullmatch(r"banned (\S+)", part)) and found[1] in DURATIONS:
        return {"code": "banned", "duration": found[1]}
    if found := re.fullmatch(r"renamed to (.+)", part):
        return {"code": "renamed", "old": reported, "new": found[1]}
    known = {"table closed": "closed", "removed from the table": "removed", "no action": "no_action"}
    if part in known:
        return {"code": known[part]}
    return {"code": "note", "text": part}


def forward(apps, schema_editor):
    Table, ModAction, Report = (apps.get_model("game", name) for name in ("Table", "ModAction", "Report"))
    host_gone = _in_every_language("The host can no longer play here.")
    Table.objects.filter(closed_reason__in=host_gone).update(closed_reason=_store({"code": "host_gone"}))
    kinds = {"mute": _in_every_language("Muted in chat"), "ban": _in_every_language("Banned from tables")}
    for row in ModAction.objects.all().iterator():
        if row.detail.startswith(("{", "[")):
            continue  # stored as a code already
        entry = _detail(row.action, row.detail, kinds)
        if entry is None:
            continue
        row.detail = _store(entry)
        if row.action == "warn":
            row.reason = _store({"code": "warning", "warning": entry["warning"]})
        row.save(update_fields=["detail", "reason"])
    for report in Report.objects.exclude(resolution="").iterator():
        if report.resolution.startswith(("{", "[")):
            continue
        steps = [_step(part, report.reported_name) for part in report.resolution.split("; ") if part]
        while len(steps) > 1 and len(_store(*steps)) > 300:
            steps.pop(0)
        report.resolution = _store(*steps)[:300]
        report.save(update_fields=["resolution"])


def backward(apps, schema_editor):
    """Back to words, in English (the site's default language)."""
    from game.core.staff_words import say

    Table, ModAction, Report = (apps.get_model("game", name) for name in ("Table", "ModAction", "Report"))
    with translation.override("en"):
        for model, fields in ((Table, ("closed_reason",)), (ModAction, ("detail", "reason")), (Report, ("resolution",))):
            for row in model.objects.all().iterator():
                for field in fields:
                    setattr(row, field, say(getattr(row, field))[: model._meta.get_field(field).max_length])
                row.save(update_fields=list(fields))


class Migration(migrations.Migration):
    dependencies = [("game", "0007_report_count")]

    operations = [migrations.RunPython(forward, backward)]
