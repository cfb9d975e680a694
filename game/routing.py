from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/t/<str:code>/", consumers.TableConsumer.as_asgi()),
    path("ws/echo/<str:group>/", consumers.EchoConsumer.as_asgi()),
    path("ws/echo-lean/<str:group>/", consumers.LeanEchoConsumer.as_asgi()),
]
