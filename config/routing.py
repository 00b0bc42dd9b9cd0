"""Websocket routes."""

from channels.generic.websocket import WebsocketConsumer
from django.urls import path, re_path

from tables.consumers import LobbyConsumer, TableConsumer


class NoSuchSocket(WebsocketConsumer):
    """Any other websocket address (``/ws/tables/-1/``, ``/ws/nothing/``): the handshake is
    refused (Daphne answers 403) instead of Channels' "No route found" error and a traceback in
    the log for each attempt (found by probing)."""

    def connect(self) -> None:
        self.close()


websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
