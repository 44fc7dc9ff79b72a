"""The player search's folded text (``Player.search_text``, :func:`casino.models.search_key`),
filled in for the players already registered."""

from typing import Any

from django.db import migrations, models


def fill_search_text(apps: Any, schema_editor: Any) -> None:
    from casino.models import search_key

    Player = apps.get_model("casino", "Player")
    changed = []
    for player in Player.objects.only("name", "nickname").iterator(chunk_size=2000):
        player.search_text = search_key(player.name, player.nickname)
        changed.append(player)
        if len(changed) == 2000:
            Player.objects.bulk_update(changed, ["search_text"])
            changed.clear()
    Player.objects.bulk_update(changed, ["search_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0004_contact_store"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_text",
            field=models.CharField(blank=True, default="", editable=False, max_length=310),
        ),
        migrations.RunPython(fill_search_text, migrations.RunPython.noop),
    ]
