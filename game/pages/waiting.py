"""What waits for a signed-in person, on every page (a context processor): how many friend
requests and invitations wait for an answer (the header's badges) and, once each, a notice of
those that arrived while the person was elsewhere (services.waiting). Read only when a page's
header draws them: a fragment htmx swaps in asks nothing."""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest
from django.urls import reverse

from game.services import waiting as waiting_service


class Waiting:
    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self.user_id = request.user.pk

    @cached_property
    def counts(self) -> dict[str, int]:
        return waiting_service.waiting_counts(self.user_id)

    @property
    def friend_requests(self) -> int:
        return self.counts["friend_requests"]

    @property
    def invitations(self) -> int:
        return self.counts["invitations"]

    @property
    def total(self) -> int:
        """Both, on a phone's menu button (the links with their own counts are inside the menu)."""
        return self.counts["total"]

    @cached_property
    def notices(self) -> list[dict]:
        """Taken (and so marked shown) only by the page that draws them; the friends page and
        the inbox list their own kind already."""
        path = self.request.path
        return waiting_service.take_notices(
            self.user_id,
            skip_friend_requests=path == reverse("friends"),
            skip_invitations=path == reverse("invitations"),
        )


def waiting(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"waiting": Waiting(request)}
