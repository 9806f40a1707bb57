import django.db.models.deletion
from django.db import migrations, models

import incidents.translation


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0019_merge_context_events_related_and_import"),
    ]

    operations = [
        migrations.CreateModel(
            name="KeyFigure",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField(default=0)),
                ("label", incidents.translation.TranslatedField()),
                ("value", models.FloatField()),
                (
                    "unit",
                    models.CharField(
                        choices=[
                            ("duration", "Duration (seconds)"),
                            ("percent", "Percent"),
                            ("count", "Count"),
                            ("bytes", "Bytes"),
                            ("requests_per_second", "Requests per second"),
                        ],
                        max_length=24,
                    ),
                ),
                (
                    "postmortem",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="key_figures",
                        to="incidents.postmortem",
                    ),
                ),
            ],
            options={
                "ordering": ["postmortem", "position", "id"],
            },
        ),
    ]
