"""Game records: a finished game's record to download (game.fair.record), the site's public key
that checks their signatures, and the "Verify a game" page (game.fair.verify, the verdict in the
viewer's language: this site's game, unchanged / self-consistent but not signed by this site /
refused, and why)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import validate_host
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from game import registry
from game.core.identity import known_player
from game.fair import record as records
from game.fair.verify import CONSISTENT, REFUSED, SITE, Check, Verdict, loads, verify
from game.runtime.uploads import RECORD_MAX_BYTES
from game.services.records import game_id_of, game_record, site_public_key, stored_difference

GAME_PAGES = ("game_record", "game_replay")  # a link to either names a finished game's record
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{16,32}")  # a game's id alone, as its links carry it (models.new_public_id)

# Each check of game.fair.verify in the viewer's language: (when it holds, when it fails).
CHECK_SENTENCES = {
    "format": (_("The file is a SEVN game record."), _("This file is not a SEVN game record that can be checked.")),
    "seal": (
        _("The record is complete: its seal matches."),
        _("The record was changed after it was made: its seal does not match."),
    ),
    "signature": (
        _("The record is signed, and its signature matches every field."),
        _("The record's signature does not match: it was changed after it was signed."),
    ),
    "game": (_("The game and its rules version are known."), _("The game or its rules version is unknown.")),
    "seats": (
        _("The seats are in order, each taken by a person or a computer player."),
        _("The seats are not valid."),
    ),
    "commitment": (
        _("The revealed server seed matches the commitment shown before the deal."),
        _("The revealed server seed does not match the commitment shown before the deal."),
    ),
    "client_seeds": (
        _("The client seeds come from seated people, in seat order."),
        _("The client seeds are not valid: only seated people send one, in seat order."),
    ),
    "seed": (
        _("The engine's seed follows from the server seed and the client seeds."),
        _("The engine's seed does not follow from the server seed and the client seeds."),
    ),
    "deal": (_("The deal is exactly the one the seeds give."), _("The deal is not the one the seeds give.")),
    "moves": (
        _("Every move replays with exactly the recorded events."),
        _("A move does not replay as recorded."),
    ),
    "result": (
        _("The final scores are the ones the moves give."),
        _("The final scores are not the ones the moves give."),
    ),
}


# What a player reads for each field stored_difference names (its path in the record).
STORED_FIELD_NAMES = {
    "game": pgettext_lazy("which game: SEVN or Sevens", "game"),
    "fair.commitment": _("commitment"),
    "fair.server_seed": _("server seed"),
    "fair.client_seeds": _("client seeds"),
    "fair.engine_seed": _("engine seed"),
    "result": _("final scores"),
}


def _record_for(request: HttpRequest, public_id: str) -> dict | None:
    """The record of the game with this public id, as the asking person may have it."""
    game_id = game_id_of(public_id)
    return None if game_id is None else game_record(game_id, known_player(request.session, request.user))


def record_response(request: HttpRequest, public_id: str) -> HttpResponse:
    record = _record_for(request, public_id)
    if record is None:
        raise Http404(gettext("This game has no record: it is still being played, or it was never dealt fairly."))
    response = HttpResponse(records.dumps(record), content_type=f"{records.MEDIA_TYPE}; charset=utf-8")
    filename = f"{record['game']}-{record['table']}-{record['number']}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def game_record_download(request: HttpRequest, public_id: str) -> HttpResponse:
    """A finished game's record (JSON, docs/fair-deal.md), from the game-over screen and its replay."""
    return record_response(request, public_id)


@require_GET
def record_key(request: HttpRequest) -> HttpResponse:
    """The site's public key (64 hex digits, one line) at a stable address outside the languages:
    what `python -m game.verify record.json --key` takes to tell this site's records from others."""
    return HttpResponse(site_public_key() + "\n", content_type="text/plain; charset=us-ascii")


def _why(verdict: Verdict, record: dict) -> tuple[str, str]:
    """The verdict's standing (SITE, CONSISTENT or REFUSED), after comparing a self-consistent
    record with what the site stored at its table and number, and the sentence that says why."""
    if not verdict.ok:
        return REFUSED, ""  # the failed check says why
    differs = stored_difference(record)
    if differs:
        fields = ", ".join(str(STORED_FIELD_NAMES.get(field, field)) for field in differs)
        return REFUSED, ngettext(
            "This site stored a different game %(number)s at table %(table)s: "
            "its %(fields)s differs from this record's.",
            "This site stored a different game %(number)s at table %(table)s: "
            "its %(fields)s differ from this record's.",
            len(differs),
        ) % {"number": record["number"], "table": record["table"], "fields": fields}
    if verdict.standing == SITE:
        return SITE, gettext(
            "It is signed with this site's key, so no field has changed since this site wrote it, "
            "names and times included."
        )
    if verdict.signed_by is None:
        return CONSISTENT, gettext(
            "It is not signed: its deal follows from its seeds and every move replays, but anyone could write such a "
            "record. Records this site made before it signed them look like this."
        )
    return CONSISTENT, gettext(
        "It is signed with another key than this site's: its deal follows from its seeds and every move replays, "
        "but this site did not make it."
    )


def _detail(check: Check) -> str:
    """What differs, in the reader's language (the values in it are the record's own)."""
    if not check.template:
        return check.detail  # a field of the wrong shape: Python's own words
    words = gettext(check.template)
    return words % dict(check.params) if check.params else words


def _verdict_context(verdict: Verdict, record: dict) -> dict:
    lines = []
    for check in verdict.checks:
        good, bad = CHECK_SENTENCES[check.code]
        lines.append({"ok": check.ok, "text": good if check.ok else bad, "detail": _detail(check), "move": check.move})
    summary = dict(verdict.summary)
    if verdict.ok:
        kind = registry.KINDS.get(summary["game"])
        summary["label"] = kind.label if kind is not None else summary["game"]
        summary["winner_names"] = [summary["names"][seat] for seat in summary["winners"]]
    standing, why = _why(verdict, record)
    return {"verdict": verdict, "lines": lines, "summary": summary, "standing": standing, "why": why}


def _linked_record(request: HttpRequest, link: str) -> dict | None:
    """The record of the finished game a link of this site names (its record, or its replay,
    under any name the site answers to: localhost or 127.0.0.1 alike), or a game's id alone;
    None: another site's link, or no such game."""
    link = link.strip()
    if PUBLIC_ID.fullmatch(link):
        return _record_for(request, link)
    parts = urlsplit(link if "//" in link or link.startswith("/") else f"//{link}")
    if parts.netloc and parts.netloc != request.get_host() and not validate_host(parts.hostname or "", _hosts()):
        return None
    try:
        with translation.override(translation.get_language_from_path(parts.path)):  # its language's prefix
            match = resolve(parts.path)
    except Resolver404:
        return None
    if match.url_name not in GAME_PAGES:
        return None
    return _record_for(request, match.kwargs["public_id"])


def _hosts() -> list[str]:
    return [host for host in settings.ALLOWED_HOSTS if host != "*"]


@require_http_methods(["GET", "POST"])
def verify_page(request: HttpRequest) -> HttpResponse:
    """Verify a game: a record uploaded, pasted, or named (a game of this site, by its replay's or
    record's link, or its id),
    checked as `python -m game.verify` does, the verdict explained in the viewer's language."""
    context: dict = {"max_mb": RECORD_MAX_BYTES // (1024 * 1024), "site_key": site_public_key()}
    text: bytes | str | None = None
    link = request.GET.get("record", "") if request.method == "GET" else request.POST.get("link", "")
    if request.method == "POST":
        upload = request.FILES.get("record")
        if upload is not None:
            text = upload.read(RECORD_MAX_BYTES + 1)
    if text is None and link.lstrip().startswith("{"):  # a record's JSON, pasted
        text = link
    elif text is None and link:
        record = _linked_record(request, link)
        if record is None:
            context["problem"] = _("That link is not a finished game or its record on this site.")
        else:
            text = records.dumps(record)
        context["link"] = link
    if text is not None:
        if len(text) > RECORD_MAX_BYTES:
            context["problem"] = _("That file is too large to be a game record.")
        elif (record := loads(text)) is None:
            context["problem"] = _("That file is not JSON: a game record is a JSON file.")
        else:
            verdict = verify(record, site_public_key(), replays=registry.replays())
            context.update(_verdict_context(verdict, record))
    elif request.method == "POST" and "problem" not in context:
        context["problem"] = _("Choose a record file or give its link.")
    return render(request, "game/verify.html", context, status=200)
