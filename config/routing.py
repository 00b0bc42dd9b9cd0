"""Websocket routes."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
