from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0019_merge_context_events_related_and_import"),
    ]

    operations = [
        migrations.AddField(
            model_name="sample",
            name="imported",
            field=models.BooleanField(
                default=False,
                help_text="Imported as history, not measured live; kept by the retention pruning.",
            ),
        ),
    ]
