"""A cash session counts the partial cash-outs the floor approved (SES-6), so that its
result (chips out + partial cash-outs - chips in) is the player's. Sessions recorded before
take theirs from the ledger: the player's partial cash-outs at that table while seated."""

from django.db import migrations, models
from django.db.models import Sum


def backfill(apps, schema_editor):
    CashSession = apps.get_model("cashgame", "CashSession")
    ChipMovement = apps.get_model("cashgame", "ChipMovement")
    partials = ChipMovement.objects.filter(kind="partial_cash_out")
    for session in CashSession.objects.filter(
        player_id__in=partials.values("player_id")
    ).iterator():
        during = partials.filter(
            player_id=session.player_id, table_id=session.table_id, at__gte=session.seated_at
        )
        if session.left_at is not None:
            during = during.filter(at__lte=session.left_at)
        total = during.aggregate(total=Sum("amount"))["total"] or 0
        if total:
            CashSession.objects.filter(pk=session.pk).update(partial_cash_outs=total)


class Migration(migrations.Migration):
    dependencies = [
        ("cashgame", "0011_fixed_limit_rake"),
    ]

    operations = [
        migrations.AddField(
            model_name="cashsession",
            name="partial_cash_outs",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
