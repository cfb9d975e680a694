from __future__ import annotations

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from game import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("t/<str:code>/", views.table_invite, name="table_invite"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("tables/new/", views.table_create, name="table_create"),
    path("tables/find/", views.table_find, name="table_find"),
    path("t/<str:code>/", views.table, name="table"),
    path("t/<str:code>/join/", views.table_join, name="table_join"),
    path("t/<str:code>/leave/", views.table_leave, name="table_leave"),
    path("t/<str:code>/remove/", views.table_remove, name="table_remove"),
    path("t/<str:code>/bot/", views.table_bot, name="table_bot"),
    path("t/<str:code>/start/", views.table_start, name="table_start"),
    path("t/<str:code>/rematch/", views.table_rematch, name="table_rematch"),
    path("t/<str:code>/chat/", views.table_chat, name="table_chat"),
    path("t/<str:code>/chat/name/", views.table_chat_name, name="table_chat_name"),
    path("t/<str:code>/chat/spectators/", views.table_spectator_chat, name="table_spectator_chat"),
    path("t/<str:code>/report/", views.table_report, name="table_report"),
    path("rules/", include("rules.urls")),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    prefix_default_language=True,
)
