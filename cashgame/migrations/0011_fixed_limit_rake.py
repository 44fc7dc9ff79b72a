"""Fixed-limit hold'em is raked like every cash game (RAKE-1: 5 % of the pot).

``0001`` seeded rake steps for NLH and PLO only, so an FLH table opened with no rake at all
(found by QA). The rules give no cap of its own for fixed limit: it takes the house's cap
for every game not capped lower, 300 CZK per hand (RAKE-2's), with no flop, no drop as the
other steps. A room that wants otherwise changes the step (admin). Show poker stays without
a step: it is a tournament game (001, SHOW-*), never raked.
"""

from django.db import migrations


def seed(apps, schema_editor):
    apps.get_model("cashgame", "RakeSchedule").objects.get_or_create(
        game="FLH",
        from_small_blind=0,
        defaults={"percent_bp": 500, "cap": 300, "no_flop_no_drop": True},
    )


def unseed(apps, schema_editor):
    apps.get_model("cashgame", "RakeSchedule").objects.filter(
        game="FLH", from_small_blind=0, percent_bp=500, cap=300
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cashgame", "0010_prize_payment_bounties"),
    ]

    operations = [migrations.RunPython(seed, unseed)]
