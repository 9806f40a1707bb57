from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0017_merge_time_zone_and_record_mode"),
    ]

    operations = [
        migrations.AlterField(
            model_name="incidentupdate",
            name="status",
            field=models.CharField(
                blank=True,
                choices=[
                    ("investigating", "Investigating"),
                    ("identified", "Identified"),
                    ("monitoring", "Monitoring"),
                    ("resolved", "Resolved"),
                    ("scheduled", "Scheduled"),
                    ("in_progress", "In progress"),
                    ("verifying", "Verifying"),
                    ("completed", "Completed"),
                ],
                default="",
                max_length=16,
            ),
        ),
    ]
