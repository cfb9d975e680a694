from __future__ import annotations

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path, reverse
from django.views.generic import RedirectView

from game.accounts import passkeys
from game.pages import home, records, stale, suspended
from sevn_site import installable


class SettingsSection(RedirectView):
    """allauth's own overview pages (two-factor, the passkeys' list) are sections of the one
    settings page (game.pages.accounts): what leads there after a change lands on its section."""

    section = ""

    def get_redirect_url(self, *args, **kwargs) -> str:
        return reverse("account_settings") + f"#{self.section}"


urlpatterns = [
    path("admin/", admin.site.urls),
    path("t/<str:code>/", home.table_invite, name="table_invite"),
    # the site's public key for game records' signatures: a stable address, in no language
    path("record-key.txt", records.record_key, name="record_key"),
    # the installable app: its worker at the root controls every page; both in no language
    path("sw.js", installable.service_worker, name="service_worker"),
    path("manifest.webmanifest", installable.manifest, name="app_manifest"),
    # the browser's current CSRF token, for a page whose copy was refused (static/sevn/js/csrf.js)
    path("csrf-token/", stale.csrf_token, name="csrf_token"),
]

urlpatterns += i18n_patterns(
    path("", include("game.urls")),
    path("rules/", include("rules.urls")),
    path("accounts/inactive/", suspended.account_suspended, name="account_suspended"),  # before allauth's
    # allauth.usersessions is here to end a banned account's sessions; its own page listing them
    # (raw addresses and browser strings, in its words) is not offered until it reads like the site
    path("accounts/sessions/", suspended.no_such_page),
    path("accounts/2fa/", SettingsSection.as_view(section="two-factor")),
    path("accounts/2fa/webauthn/", SettingsSection.as_view(section="passkeys")),
    path("accounts/2fa/webauthn/add/", passkeys.add_passkey),  # without recovery codes made unseen
    path("accounts/", include("allauth.urls")),
    prefix_default_language=True,
)
