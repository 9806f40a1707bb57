"""The demo's alert rules, read from alert_rules.json: what Alertmanager and Grafana alerts
posted to /api/v1/intake/ do to the demo's components (docs/intake.md)."""

import json
from pathlib import Path

from incidents.intake.rules import save_alert_rule
from incidents.models import AlertRule, Component

RULES_FILE = Path(__file__).with_name("alert_rules.json")


def load_alert_rules(components: dict[str, Component]) -> int:
    """Creates the demo rules that do not exist yet (found by name), in the file's order,
    through the service the editor uses (validated, audited)."""
    made = 0
    for position, spec in enumerate(json.loads(RULES_FILE.read_text(encoding="utf-8")), start=1):
        if AlertRule.objects.filter(name=spec["name"]).exists():
            continue
        rule = AlertRule(
            name=spec["name"],
            source=spec["source"],
            matchers=spec["matchers"],
            component=components[spec["component"]],
            status=spec["status"],
            open_incident=spec["open_incident"],
            position=position,
        )
        save_alert_rule(rule, actor=None)
        made += 1
    return made
