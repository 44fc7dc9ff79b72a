"""A prize payment row says the entry's prize and the bounties paid with it; ``amount`` is
the cash handed over (rows recorded before keep their amount as the prize)."""

from django.db import migrations, models
from django.db.models import F


def prize_was_the_amount(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("cashgame", "PrizePayment").objects.update(prize=F("amount"))


class Migration(migrations.Migration):
    dependencies = [
        ("cashgame", "0009_ticket_kinds"),
    ]

    operations = [
        migrations.AddField(
            model_name="prizepayment",
            name="prize",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="prizepayment",
            name="bounties",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(prize_was_the_amount, migrations.RunPython.noop),
    ]
