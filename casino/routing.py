"""WebSocket routes: each installed app registers its own in ``<app>/routing.py``
(``websocket_urlpatterns``); the core imports no app (docs/architecture.md). A path no app
routes gets ``UnknownFeedConsumer``: an ``error`` ``not_found`` and close code 4404."""

from importlib import import_module
from importlib.util import find_spec
from typing import Any

from django.apps import apps
from django.urls import re_path

from casino.realtime.consumers import UnknownFeedConsumer


def _collect() -> list[Any]:
    patterns: list[Any] = []
    for config in apps.get_app_configs():
        module = f"{config.name}.routing"
        if config.name != "casino" and find_spec(module) is not None:
            patterns += getattr(import_module(module), "websocket_urlpatterns", [])
    return [*patterns, re_path(r"", UnknownFeedConsumer.as_asgi())]  # last: unknown paths


websocket_urlpatterns = _collect()
