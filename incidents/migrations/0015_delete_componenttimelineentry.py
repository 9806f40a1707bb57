from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0014_delete_overviewframe"),
    ]

    operations = [
        migrations.DeleteModel(name="ComponentTimelineEntry"),
    ]
