from django.db import migrations, models


def seed(apps, schema_editor):
    """The house defaults: BI-3, BI-4 limits; RAKE-1..4 schedule (5 %, caps 300/200/300)."""
    StakesLimits = apps.get_model("cashgame", "StakesLimits")
    RakeSchedule = apps.get_model("cashgame", "RakeSchedule")
    for game, sb, bb, low, high in [("NLH", 10, 20, 1000, 5000), ("NLH", 25, 50, 2000, 10000)]:
        StakesLimits.objects.create(
            game=game, small_blind=sb, big_blind=bb, buy_in_min=low, buy_in_max=high
        )
    for game, from_sb, cap in [("NLH", 0, 300), ("PLO", 0, 200), ("PLO", 50, 300)]:
        RakeSchedule.objects.create(game=game, from_small_blind=from_sb, percent_bp=500, cap=cap)


class Migration(migrations.Migration):
    initial = True
    dependencies: list = []

    operations = [
        migrations.CreateModel(
            name="StakesLimits",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game", models.CharField(max_length=10)),
                ("small_blind", models.PositiveBigIntegerField()),
                ("big_blind", models.PositiveBigIntegerField()),
                ("buy_in_min", models.PositiveBigIntegerField()),
                ("buy_in_max", models.PositiveBigIntegerField()),
            ],
        ),
        migrations.AddConstraint(
            model_name="stakeslimits",
            constraint=models.UniqueConstraint(
                fields=("game", "small_blind", "big_blind"), name="stakes_uq"
            ),
        ),
        migrations.CreateModel(
            name="RakeSchedule",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game", models.CharField(max_length=10)),
                ("from_small_blind", models.PositiveBigIntegerField(default=0)),
                ("percent_bp", models.PositiveIntegerField()),
                ("cap", models.PositiveBigIntegerField()),
                ("no_flop_no_drop", models.BooleanField(default=False)),
            ],
        ),
        migrations.AddConstraint(
            model_name="rakeschedule",
            constraint=models.UniqueConstraint(
                fields=("game", "from_small_blind"), name="rake_step_uq"
            ),
        ),
        migrations.RunPython(seed, migrations.RunPython.noop),
    ]
