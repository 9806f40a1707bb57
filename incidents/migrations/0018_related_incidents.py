from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0017_merge_time_zone_and_record_mode"),
    ]

    operations = [
        migrations.AddField(
            model_name="incident",
            name="related",
            field=models.ManyToManyField(blank=True, to="incidents.incident"),
        ),
    ]
