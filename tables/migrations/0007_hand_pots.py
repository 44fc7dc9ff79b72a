"""Fill ``HandView.pot`` for the hands settled before the projection wrote it (it listed 0):
the sum of the pots of each hand's ``tables.HandSettled``, or of its Show poker
``show.PotAwarded`` events, read from the event log. ``rebuild_projections`` gives the same."""

from django.db import migrations


def fill_pots(apps, schema_editor):  # type: ignore[no-untyped-def]
    event = apps.get_model("eventstore", "StoredEvent")
    hand = apps.get_model("tables", "HandView")
    pots: dict[str, int] = {}
    settled = event.objects.filter(type="tables.HandSettled").values_list("stream", "data")
    for stream, data in settled.iterator(chunk_size=2000):
        pots[stream.removeprefix("hand-")] = sum(int(p["amount"]) for p in data["pots"])
    shown = event.objects.filter(type="show.PotAwarded").values_list("stream", "data")
    for stream, data in shown.iterator(chunk_size=2000):
        hand_id = stream.removeprefix("show-hand-")
        pots[hand_id] = pots.get(hand_id, 0) + int(data["amount"])
    for hand_id, pot in pots.items():
        hand.objects.filter(hand_id=hand_id, pot=0).update(pot=pot)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_one_seat_per_player"),
        ("eventstore", "0008_command_recorded_at_index"),
    ]

    operations = [migrations.RunPython(fill_pots, migrations.RunPython.noop)]
