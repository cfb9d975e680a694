from __future__ import annotations

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from game.pages import home, records, suspended

urlpatterns = [
    path("admin/", admin.site.urls),
    path("t/<str:code>/", home.table_invite, name="table_invite"),
    # the site's public key for game records' signatures: a stable address, in no language
    path("record-key.txt", records.record_key, name="record_key"),
]

urlpatterns += i18n_patterns(
    path("", include("game.urls")),
    path("rules/", include("rules.urls")),
    path("accounts/inactive/", suspended.account_suspended, name="account_suspended"),  # before allauth's
    # allauth.usersessions is here to end a banned account's sessions; its own page listing them
    # (raw addresses and browser strings, in its words) is not offered until it reads like the site
    path("accounts/sessions/", suspended.no_such_page),
    path("accounts/", include("allauth.urls")),
    prefix_default_language=True,
)
