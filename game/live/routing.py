from __future__ import annotations

from django.urls import path

from game.live import consumers

websocket_urlpatterns = [
    path("ws/t/<str:code>/", consumers.TableConsumer.as_asgi()),
]
