"""WebSocket routes of the tables app (collected by :mod:`casino.routing`)."""

from django.urls import path

from tables.consumers import FloorConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    path("ws/floor/", FloorConsumer.as_asgi()),
]
