"""Device tokens are stored hashed (issue #12 C): SHA-256 of each existing token, then the
plain column goes. Devices keep working with the tokens they have."""

import hashlib

from django.db import migrations, models


def hash_tokens(apps, schema_editor):  # type: ignore[no-untyped-def]
    Device = apps.get_model("casino", "Device")
    for device in Device.objects.all().only("pk", "token"):
        digest = hashlib.sha256(device.token.encode("utf-8", "surrogatepass")).hexdigest()
        Device.objects.filter(pk=device.pk).update(token_hash=digest)


class Migration(migrations.Migration):
    dependencies = [("casino", "0002_staff_and_device_audit")]

    operations = [
        migrations.AddField(
            model_name="device",
            name="token_hash",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(hash_tokens, migrations.RunPython.noop),
        migrations.RemoveField(model_name="device", name="token"),
        migrations.AlterField(
            model_name="device",
            name="token_hash",
            field=models.CharField(editable=False, max_length=64, unique=True),
        ),
    ]
