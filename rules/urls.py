from __future__ import annotations

from django.urls import path

from rules import views

app_name = "rules"
urlpatterns = [
    path("", views.tutorial, name="tutorial"),
    path("full/", views.full, name="full"),
    path("sevens/", views.sevens, name="sevens"),
]
