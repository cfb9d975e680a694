from __future__ import annotations

from django.urls import path

from rules import views

app_name = "rules"
urlpatterns = [
    path("", views.page, name="index"),
    path("<slug:name>/", views.page, name="page"),
    path("<slug:name>/<slug:key>/", views.page, name="game_page"),
]
