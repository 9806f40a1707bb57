from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0017_merge_time_zone_and_record_mode"),
    ]

    operations = [
        migrations.AddField(
            model_name="incident",
            name="statuspage_id",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="incidentupdate",
            name="statuspage_id",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddConstraint(
            model_name="incident",
            constraint=models.UniqueConstraint(
                condition=models.Q(("statuspage_id", ""), _negated=True),
                fields=("statuspage_id",),
                name="one_incident_per_statuspage_id",
            ),
        ),
        migrations.AddConstraint(
            model_name="incidentupdate",
            constraint=models.UniqueConstraint(
                condition=models.Q(("statuspage_id", ""), _negated=True),
                fields=("statuspage_id",),
                name="one_update_per_statuspage_id",
            ),
        ),
    ]
