"""Who is on the site: a signed-in person with any page open (its socket, game.live.people),
whether or not they sit at a table. Each open page is a row, made as its socket opens, gone as
it closes; every process renews its own pages' rows each heartbeat (presence.HEARTBEAT) and
takes away rows nobody renewed in presence.STALE_AFTER (a process that died), so a person counts
as online while a row of theirs was seen within it. Friends read it (selectors.friends_of),
unless the person hides where they play."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from game.models import SitePresence
from game.services.presence import STALE_AFTER
from game.services.store import put_row


def page_opened(*, channel: str, user_id: int) -> None:
    put_row(SitePresence, channel=channel, user=user_id, seen=timezone.now())


def page_closed(*, channel: str) -> None:
    SitePresence.objects.filter(channel=channel).delete()


def heartbeat(*, pages: dict[str, int], now=None) -> None:
    """This process's open pages (channel: user id) are alive: renewed, made again if a sweep
    took them (a process too busy to beat in time); rows nobody renewed lately go."""
    now = now or timezone.now()
    if pages and SitePresence.objects.filter(channel__in=pages).update(seen=now) < len(pages):
        # not for an account deleted meanwhile (its page's socket is still open)
        known = set(get_user_model().objects.filter(pk__in=set(pages.values())).values_list("pk", flat=True))
        SitePresence.objects.bulk_create(
            [
                SitePresence(channel=channel, user_id=user_id, seen=now)
                for channel, user_id in pages.items()
                if user_id in known
            ],
            ignore_conflicts=True,
        )
    SitePresence.objects.filter(seen__lt=now - STALE_AFTER).delete()


def on_site(user_ids, now=None) -> set[int]:
    """Those of `user_ids` with a page of the site open."""
    now = now or timezone.now()
    return set(
        SitePresence.objects.filter(user_id__in=set(user_ids), seen__gte=now - STALE_AFTER).values_list(
            "user_id", flat=True
        )
    )
