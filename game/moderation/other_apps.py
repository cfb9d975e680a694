"""What of other apps' admin pages the staff do not get: allauth's list of user sessions.

allauth registers an admin page for its sessions (allauth.usersessions, installed so that a ban
ends every session of the account: services.accounts). Its model has no translatable name, so
the page and the index showed "User sessions" in English in every language, and it lists the
addresses and browsers people sign in from, which moderating tables does not need. Staff end an
account's sessions by suspending or banning it, so the page is taken off the admin.
"""

from __future__ import annotations

from django.contrib.admin import AdminSite


def install(site: AdminSite) -> None:
    """Take allauth's user sessions off `site` (once; the model stays, for the ban's logging out)."""
    from allauth.usersessions.models import UserSession

    if site.is_registered(UserSession):
        site.unregister(UserSession)
