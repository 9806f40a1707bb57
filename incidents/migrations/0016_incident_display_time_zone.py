from django.db import migrations, models

import incidents.validation.time_zones


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0015_delete_componenttimelineentry"),
    ]

    operations = [
        migrations.AddField(
            model_name="incident",
            name="display_time_zone",
            field=models.CharField(
                blank=True,
                default="",
                max_length=64,
                validators=[incidents.validation.time_zones.check_time_zone],
            ),
        ),
    ]
