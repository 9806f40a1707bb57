"""The demo's update templates, read from update_templates.json (a text per language each)."""

import json
from pathlib import Path

from incidents.models import UpdateTemplate

TEMPLATES_FILE = Path(__file__).with_name("update_templates.json")


def load_update_templates() -> int:
    """Creates the demo templates that do not exist yet (found by language, kind and name)."""
    made = 0
    for spec in json.loads(TEMPLATES_FILE.read_text(encoding="utf-8")):
        _, created = UpdateTemplate.objects.get_or_create(
            language=spec["language"],
            kind=spec["kind"],
            name=spec["name"],
            defaults={
                "status": spec["status"],
                "title": spec["title"],
                "body": spec["body"],
                "component_statuses": spec["components"],
            },
        )
        made += created
    return made
