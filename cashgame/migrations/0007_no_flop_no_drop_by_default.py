"""No flop, no drop by default (issue 12): a hand won before the flop (a walk) is not raked.

The seeded rake steps of ``0001`` had the flag off only because that was the field's default,
not a house decision; they are switched on with it. A room that rakes walks turns it off per
rake step (admin) or per table (``no_flop_no_drop: false`` when opening it).
"""

from django.db import migrations, models


def no_flop_no_drop(apps, schema_editor):
    apps.get_model("cashgame", "RakeSchedule").objects.update(no_flop_no_drop=True)


class Migration(migrations.Migration):
    dependencies = [
        ("cashgame", "0006_dealer_fee"),
    ]

    operations = [
        migrations.AlterField(
            model_name="rakeschedule",
            name="no_flop_no_drop",
            field=models.BooleanField(
                default=True, help_text="A hand won before the flop (a walk) is not raked."
            ),
        ),
        migrations.RunPython(no_flop_no_drop, migrations.RunPython.noop),
    ]
