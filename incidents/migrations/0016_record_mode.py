from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0015_delete_componenttimelineentry"),
    ]

    operations = [
        migrations.AddField(
            model_name="incident",
            name="backfilled",
            field=models.BooleanField(default=False),
        ),
    ]
