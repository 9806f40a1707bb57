"""Builds the demo status page from content.json.

The content file holds plain data: groups with their components and metrics, incidents with their
updates and postmortems, and maintenance windows. Every translatable value is an object
{language_code: text}; texts are Markdown. Times are relative ("days_ago", "minutes_after_start",
"days_from_now", "due_offset_months") and placed here around the moment the loader runs; clock
times mentioned inside texts are UTC and match the start times given in the file.

An incident may give "figures": for a "component/metric", [minutes after start, value] pairs,
what the metric measured. Its history follows them, and its texts quote them: "{component/metric}"
is the figure at the update's time and "{peak:component/metric}" the highest until then, each
written as the page writes the metric's value, so a text never says another number than the
chart and the live value show.

Idempotent: every object is found by its slug first, and history (samples, rollups, incidents)
is only generated for objects that do not have it yet, so a second run changes nothing.
"""

import datetime as dt
import functools
import json
import random
import re
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from incidents.formatting import format_measure
from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ScheduleMaintenance, WritePostmortem
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.postmortems import publish_postmortem, save_action_item, write_postmortem
from incidents.lifecycle.updates import post_update
from incidents.models import (
    ActionItem,
    Component,
    ComponentChange,
    ComponentGroup,
    ComponentStatus,
    Incident,
    Metric,
    Postmortem,
    Probe,
    ProbeKind,
    StatusPeriod,
)
from incidents.planner_statistics import refresh_statistics
from incidents.rendering import rendered_texts
from incidents.services.uptime_months import recount_uptime_months

from .alert_rules import load_alert_rules
from .measurements import HISTORY_DAYS, FigureCurve, write_metric_history
from .regions import METRIC, feed_regions, place_regional_probe
from .update_templates import load_update_templates

CONTENT_FILE = Path(__file__).with_name("content.json")


@functools.cache
def demo_content() -> dict[str, list[dict]]:
    """The demo's "groups", "incidents" and "maintenances" as read from content.json."""
    return json.loads(CONTENT_FILE.read_text(encoding="utf-8"))


def demo_specs() -> dict[tuple[str, str], dict]:
    """The demo content's metric specs by (component slug, metric slug)."""
    return {
        (component["slug"], spec["slug"]): spec
        for group in demo_content()["groups"]
        for component in group["components"]
        for spec in component.get("metrics", [])
    }


def load_demo(*, now: dt.datetime | None = None, seed: int = 7) -> dict[str, int]:
    """Creates whatever part of the demo page is missing; returns how many objects it created."""
    now = (now or timezone.now()).replace(second=0, microsecond=0)
    rng = random.Random(seed)
    created = {
        "components": 0,
        "metrics": 0,
        "incidents": 0,
        "probes": 0,
        "update_templates": 0,
        "alert_rules": 0,
    }
    with transaction.atomic():
        components = _components(created)
        windows = []
        curves: dict[tuple[str, str], list[FigureCurve]] = {}
        for spec in demo_content()["incidents"]:
            incident = _incident(spec, components, now=now, created=created)
            windows.append(_status_windows(incident, now))
            for key, curve in figure_curves(spec, incident.started_at, now=now).items():
                curves.setdefault(key, []).append(curve)
        for spec in demo_content()["maintenances"]:
            _maintenance(spec, components, now=now, created=created)
        for component in components.values():
            _rebuild_status_periods(component, now)
        recount_uptime_months(components.values())
        for metric in Metric.objects.select_related("component"):
            if not metric.rollups.exists():
                own = curves.get((metric.component.slug, metric.slug), [])
                write_metric_history(metric, _spec_for(metric), windows, now=now, rng=rng, curves=own)
        regional = place_regional_probe()
        created["probes"] = regional + _push_probes()
        created["update_templates"] = load_update_templates()
        created["alert_rules"] = load_alert_rules(components)
        if regional:  # its regions' first figures, as the feed gives them every minute
            feed_regions(spec=demo_specs()[METRIC], now=now, rng=rng)
    refresh_statistics()
    return created


def _push_probes() -> int:
    """A push probe per demo metric: what feeds its live value (incidents.demo.feed, DEMO_FEED=1,
    or a real system pushing to /probes/push/<id>/ with a token issued in the admin)."""
    specs = demo_specs()
    made = 0
    for metric in Metric.objects.select_related("component").filter(probe__isnull=True):
        if (metric.component.slug, metric.slug) in specs:
            _, was_created = Probe.objects.get_or_create(
                metric=metric,
                defaults={
                    "name": f"{metric} (push)",
                    "kind": ProbeKind.PUSH,
                    "interval": metric.expected_interval,
                },
            )
            made += was_created
    return made


def _components(created: dict[str, int]) -> dict[str, Component]:
    start = (timezone.now() - dt.timedelta(days=HISTORY_DAYS + 30)).date()
    components = {}
    for group_position, group_spec in enumerate(demo_content()["groups"], start=1):
        group, _ = ComponentGroup.objects.get_or_create(
            slug=group_spec["slug"],
            defaults={
                "name": group_spec["name"],
                "description": group_spec.get("description", {}),
                "position": group_spec.get("position", group_position),
            },
        )
        for position, spec in enumerate(group_spec["components"], start=1):
            component, was_created = Component.objects.get_or_create(
                slug=spec["slug"],
                defaults={
                    "group": group,
                    "name": spec["name"],
                    "description": spec.get("description", {}),
                    "position": group.position * 100 + position,
                    "status_mode": spec.get("status_mode", "manual"),
                    "start_date": start,
                },
            )
            created["components"] += was_created
            components[component.slug] = component
            for metric_position, metric_spec in enumerate(spec.get("metrics", []), start=1):
                _, metric_created = Metric.objects.get_or_create(
                    component=component,
                    slug=metric_spec["slug"],
                    defaults={
                        "name": metric_spec["name"],
                        "kind": metric_spec.get("kind", "latency"),
                        "unit": metric_spec.get("unit", "ms"),
                        "precision": metric_spec.get("precision", 0),
                        "aggregation": metric_spec.get("aggregation", "p95"),
                        "expected_interval": metric_spec.get("expected_interval", 60),
                        "higher_is_worse": metric_spec.get("higher_is_worse", True),
                        "degraded_threshold": metric_spec.get("degraded"),
                        "partial_outage_threshold": metric_spec.get("partial"),
                        "major_outage_threshold": metric_spec.get("major"),
                        "position": metric_position,
                    },
                )
                created["metrics"] += metric_created
    return components


def _slug(key: str, started_at: dt.datetime) -> str:
    return f"{started_at:%Y-%m-%d}-{key}"


def figure_curves(
    spec: dict, started_at: dt.datetime, *, now: dt.datetime
) -> dict[tuple[str, str], FigureCurve]:
    """The incident's figures as curves by (component slug, metric slug), held at the last figure
    until the incident's resolution (its last update) or, while it is open, now."""
    updates = spec["updates"]
    resolved = [u["minutes_after_start"] for u in updates if u["status"] == "resolved"]
    end = started_at + dt.timedelta(minutes=resolved[0]) if resolved else now + dt.timedelta(minutes=1)
    curves = {}
    for key, pairs in spec.get("figures", {}).items():
        component, metric = key.split("/")
        points = [(started_at + dt.timedelta(minutes=minutes), float(value)) for minutes, value in pairs]
        curves[(component, metric)] = FigureCurve(sorted(points), end)
    return curves


def current_figures(*, now: dt.datetime) -> dict[tuple[str, str], float]:
    """What the open demo incidents' texts say each metric measures now (the last figure held),
    by (component slug, metric slug): the live value the demo feed reports for it."""
    figures = {}
    for spec in demo_content()["incidents"]:
        if not spec.get("figures"):
            continue
        incident = Incident.objects.filter(slug__endswith=f"-{spec['key']}", resolved_at__isnull=True).first()
        if incident is None:
            continue
        for key, curve in figure_curves(spec, incident.started_at, now=now).items():
            value = curve.value_at(now)
            if value is not None:
                figures[key] = value
    return figures


FIGURE = re.compile(r"\{(peak:)?([a-z0-9-]+)/([a-z0-9-]+)\}")


def with_figures(
    texts: dict[str, str], curves: dict[tuple[str, str], FigureCurve], *, at: dt.datetime
) -> dict:
    """The texts with each "{component/metric}" (and "{peak:component/metric}") written as the
    page writes that metric's value at `at` (the highest until then) in the text's language."""
    specs = demo_specs()

    def filled(text: str, language: str) -> str:
        def figure(match: re.Match) -> str:
            key = (match.group(2), match.group(3))
            curve, metric = curves[key], specs[key]
            value = curve.peak_until(at) if match.group(1) else curve.value_at(at)
            unit, precision = metric.get("unit", "ms"), metric.get("precision", 0)
            return format_measure(value, unit, language, precision=precision)

        return FIGURE.sub(figure, text)

    return {language: filled(text, language) for language, text in texts.items()}


def _incident(spec, components, *, now, created) -> Incident:
    key = spec["key"]
    existing = Incident.objects.filter(slug__endswith=f"-{key}").first()
    if existing:
        return existing
    if spec["days_ago"] == 0:
        started_at = now - dt.timedelta(minutes=45)
    else:
        day = (now - dt.timedelta(days=spec["days_ago"])).date()
        started_at = dt.datetime.combine(
            day, dt.time(spec.get("start_hour_utc", 10), spec.get("start_minute", 0)), tzinfo=dt.UTC
        )
    language = spec["original_language"]
    affected = {components[slug]: status for slug, status in spec["components"].items()}
    curves = figure_curves(spec, started_at, now=now)

    def body(update_spec: dict) -> dict[str, str]:
        at = started_at + dt.timedelta(minutes=update_spec["minutes_after_start"])
        return with_figures(update_spec["body"], curves, at=at)

    updates = [
        {**update, "body": body(update)}
        for update in sorted(spec["updates"], key=lambda u: u["minutes_after_start"])
    ]
    first, rest = updates[0], updates[1:]
    incident = declare_incident(
        DeclareIncident(
            title=spec["title"][language],
            language=language,
            body=first["body"][language],
            impact=spec["impact"],
            component_statuses=affected,
            status=first["status"],
            started_at=started_at,
            display_time_zone=spec.get("time_zone", ""),
        ),
        actor=None,
    )
    Incident.objects.filter(pk=incident.pk).update(
        slug=_slug(key, started_at), title=spec["title"], created_at=started_at
    )
    incident.updates.update(
        body=first["body"],
        display_at=started_at + dt.timedelta(minutes=first["minutes_after_start"]),
        created_at=started_at + dt.timedelta(minutes=first["minutes_after_start"]),
    )
    for update_spec in rest:
        at = started_at + dt.timedelta(minutes=update_spec["minutes_after_start"])
        closing = update_spec["status"] == "resolved"
        update = post_update(
            incident,
            PostUpdate(
                status=update_spec["status"],
                body={language: update_spec["body"][language]},
                language=language,
                component_statuses={c: ComponentStatus.OPERATIONAL for c in affected} if closing else {},
                display_at=min(at, now),
            ),
            actor=None,
        )
        type(update).objects.filter(pk=update.pk).update(
            body=update_spec["body"], body_html=rendered_texts(update_spec["body"]), created_at=min(at, now)
        )
    incident.refresh_from_db()
    if spec.get("postmortem"):
        _postmortem(incident, spec["postmortem"], language=language, started_at=started_at)
    created["incidents"] += 1
    return incident


def _postmortem(incident: Incident, spec, *, language: str, started_at: dt.datetime) -> None:
    languages = {code for texts in spec["sections"].values() for code in texts}
    for code in sorted(languages, key=lambda c: c != language):
        write_postmortem(
            incident,
            WritePostmortem(
                language=code,
                sections={key: texts[code] for key, texts in spec["sections"].items() if code in texts},
            ),
            actor=None,
        )
    postmortem = Postmortem.objects.get(incident=incident)
    for position, item_spec in enumerate(spec.get("action_items", []), start=1):
        precision = item_spec["due_precision"]
        save_action_item(
            ActionItem(
                postmortem=postmortem,
                title=item_spec["title"],
                owner_name=item_spec.get("owner_name", ""),
                state=item_spec.get("state", "open"),
                due_date=_due_date(started_at.date(), item_spec.get("due_offset_months", 1), precision),
                due_precision=precision,
                is_public=item_spec.get("is_public", True),
                position=position,
            ),
            actor=None,
        )
    if spec.get("published", True):
        resolved = incident.resolved_at or started_at
        publish_postmortem(postmortem, actor=None, published_at=resolved + dt.timedelta(days=3))


def _due_date(start: dt.date, offset_months: int, precision: str) -> dt.date:
    year, month = divmod(start.month - 1 + offset_months, 12)
    year, month = start.year + year, month + 1
    if precision == "day":
        return dt.date(year, month, 15)
    if precision == "month":
        return dt.date(year, month, 1)
    if precision == "quarter":
        return dt.date(year, 3 * ((month - 1) // 3) + 1, 1)
    return dt.date(year, 1, 1)


def _maintenance(spec, components, *, now, created) -> None:
    key = spec["key"]
    if Incident.objects.filter(slug__endswith=f"-{key}").exists():
        return
    day = (now + dt.timedelta(days=spec["days_from_now"])).date()
    start = dt.datetime.combine(day, dt.time(spec.get("start_hour_utc", 2)), tzinfo=dt.UTC)
    end = start + dt.timedelta(minutes=spec["duration_minutes"])
    language = spec["original_language"]
    affected = [components[slug] for slug in spec["components"]]
    announced = min(start - dt.timedelta(days=5), now)
    incident = schedule_maintenance(
        ScheduleMaintenance(
            title=spec["title"][language],
            language=language,
            body=spec["body"][language],
            impact="none",
            started_at=start,
            scheduled_for=start,
            scheduled_until=end,
        ),
        actor=None,
    )
    incident.components.set(affected)
    Incident.objects.filter(pk=incident.pk).update(
        slug=_slug(key, start), title=spec["title"], created_at=announced
    )
    incident.updates.update(
        body=spec["body"], body_html=rendered_texts(spec["body"]), display_at=announced, created_at=announced
    )
    if end < now:
        for status, component_status, at in (
            ("in_progress", ComponentStatus.UNDER_MAINTENANCE, start),
            ("completed", ComponentStatus.OPERATIONAL, end),
        ):
            update = post_update(
                incident,
                PostUpdate(
                    status=status,
                    body=_maintenance_note(status),
                    language="en",
                    component_statuses=dict.fromkeys(affected, component_status),
                    display_at=at,
                ),
                actor=None,
            )
            type(update).objects.filter(pk=update.pk).update(created_at=at)
    created["incidents"] += 1


def _maintenance_note(status: str) -> dict[str, str]:
    if status == "in_progress":
        return {
            "en": "The maintenance has started.",
            "ru": "Плановые работы начались.",
            "es": "El mantenimiento ha comenzado.",
            "nb": "Vedlikeholdet har startet.",
        }
    return {
        "en": "The maintenance is complete.",
        "ru": "Плановые работы завершены.",
        "es": "El mantenimiento ha finalizado.",
        "nb": "Vedlikeholdet er fullført.",
    }


def _status_windows(incident: Incident, now: dt.datetime) -> list[tuple[int, str, dt.datetime, dt.datetime]]:
    """(component id, status, from, to) for each component an incident put into a status."""
    windows = []
    changes = ComponentChange.objects.filter(update__incident=incident).select_related("update")
    for change in changes.order_by("update__display_at"):
        if change.new_status == ComponentStatus.OPERATIONAL:
            continue
        end = incident.resolved_at or now
        windows.append((change.component_id, change.new_status, change.update.display_at, end))
    return windows


def _rebuild_status_periods(component: Component, now: dt.datetime) -> None:
    """Status periods from the timeline's display times, since the demo writes history after the fact."""
    changes = list(
        ComponentChange.objects.filter(component=component, update__isnull=False)
        .select_related("update")
        .order_by("update__display_at", "update__id")
    )
    StatusPeriod.objects.filter(component=component).delete()
    start = dt.datetime.combine(component.start_date or now.date(), dt.time(), tzinfo=dt.UTC)
    periods = [StatusPeriod(component=component, status=ComponentStatus.OPERATIONAL, started_at=start)]
    for change in changes:
        at = change.update.display_at
        if change.new_status == periods[-1].status:
            continue
        periods[-1].ended_at = at
        periods.append(StatusPeriod(component=component, status=change.new_status, started_at=at))
    StatusPeriod.objects.bulk_create(periods)
    current = periods[-1]
    Component.objects.filter(pk=component.pk).update(
        status=current.status, status_changed_at=current.started_at
    )


def _spec_for(metric: Metric) -> dict:
    spec = demo_specs().get((metric.component.slug, metric.slug))
    if spec is not None:
        return spec
    return {"baseline": metric.degraded_threshold or 100, "noise": 0.1 * (metric.degraded_threshold or 100)}
