from __future__ import annotations

from django.urls import path

from game.live import consumers, people

websocket_urlpatterns = [
    path("ws/t/<str:code>/", consumers.TableConsumer.as_asgi()),
    path("ws/me/", people.PersonConsumer.as_asgi()),
]
