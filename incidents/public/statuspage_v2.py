"""Selector results in the exact shapes of Statuspage's public API v2, so its clients read us unchanged.

That format stays here; our extra, live metrics, sits under `x_metrics`, which those clients ignore."""

import datetime as dt
import hashlib
from dataclasses import dataclass
from functools import cached_property, partial

from django.conf import settings
from django.utils import timezone

from incidents import selectors
from incidents.metrics.indicator import page_indicator
from incidents.metrics.readings import metric_reading
from incidents.metrics.rollups import exact_quantile
from incidents.models import Component, ComponentGroup, Incident, Metric
from incidents.translation import pick

BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def page_id() -> str:
    """A stable 12-character base36 page id: STATUS_PAGE_ID, or one derived from SITE_URL."""
    if settings.STATUSPAGE_PAGE_ID:
        return settings.STATUSPAGE_PAGE_ID
    number = int.from_bytes(hashlib.sha256(settings.SITE_URL.encode()).digest()[:8])
    return "".join(BASE36[number // 36**place % 36] for place in range(12))


def timestamp(value: dt.datetime | None) -> str | None:
    """Statuspage's time format: UTC, milliseconds, a Z (2025-03-04T10:17:42.118Z)."""
    if value is None:
        return None
    value = value.astimezone(dt.UTC)
    return f"{value:%Y-%m-%dT%H:%M:%S}.{value.microsecond // 1000:03d}Z"


@dataclass
class Page:
    """One rendering of the page: its language and the position of each component in page order."""

    language: str
    page_id: str
    tree: list[selectors.GroupView]
    positions: dict[tuple[str, int], int]

    @classmethod
    def load(cls, language: str) -> "Page":
        tree = selectors.grouped_components()
        positions: dict[tuple[str, int], int] = {}
        for view in tree:
            if view.group is not None:
                positions[("group", view.group.pk)] = len(positions) + 1
            for component in view.components:
                positions[("component", component.pk)] = len(positions) + 1
        return cls(language=language, page_id=page_id(), tree=tree, positions=positions)

    @cached_property
    def windows(self) -> dict[int, list[float]]:
        """Each metric's recent values, read only by the documents that show metrics."""
        return selectors.metric_window_values(
            [metric for component in self.components() for metric in component.metrics.all()]
        )

    def text(self, texts: dict, original: str | None = None) -> str:
        return pick(texts, language=self.language, original=original).text

    def components(self) -> list[Component]:
        return [component for view in self.tree for component in view.components]

    @cached_property
    def components_by_id(self) -> dict[int, Component]:
        return {component.pk: component for component in self.components()}

    def page(self) -> dict:
        updated_at = selectors.page_updated_at() or timezone.now()
        return {
            "id": self.page_id,
            "name": settings.STATUS_PAGE_NAME,
            "url": settings.SITE_URL,
            "time_zone": settings.STATUS_TIME_ZONE,
            "updated_at": timestamp(updated_at),
        }

    def status(self) -> dict:
        indicator = page_indicator(component.status for component in self.components())
        return {"indicator": indicator.value, "description": indicator.description}

    def component_list(self) -> list[dict]:
        """Every component in page order, each group just before its members."""
        rows = []
        for view in self.tree:
            if view.group is not None:
                rows.append(self.group(view))
            rows.extend(self.component(component) for component in view.components)
        return rows

    def group(self, view: selectors.GroupView) -> dict:
        group: ComponentGroup = view.group
        return {
            "id": group.public_id,
            "name": self.text(group.name) or group.slug,
            "status": view.status.value,
            "created_at": timestamp(group.created_at),
            "updated_at": timestamp(max([group.updated_at, *(c.updated_at for c in view.components)])),
            "position": self.positions.get(("group", group.pk), 0),
            "description": self.text(group.description) or None,
            "showcase": False,
            "start_date": None,
            "group_id": None,
            "page_id": self.page_id,
            "group": True,
            "only_show_if_degraded": False,
            "components": [component.public_id for component in view.components],
        }

    def component(self, component: Component, *, with_metrics: bool = True) -> dict:
        row = {
            "id": component.public_id,
            "name": self.text(component.name) or component.slug,
            "status": component.status,
            "created_at": timestamp(component.created_at),
            "updated_at": timestamp(component.updated_at),
            "position": self.positions.get(("component", component.pk), 0),
            "description": self.text(component.description) or None,
            "showcase": component.showcase,
            "start_date": component.start_date.isoformat() if component.start_date else None,
            "group_id": component.group.public_id if component.group_id else None,
            "page_id": self.page_id,
            "group": False,
            "only_show_if_degraded": component.only_show_if_degraded,
        }
        if with_metrics:
            row["x_metrics"] = [self.metric(metric) for metric in component.metrics.all()]
        return row

    def metric(self, metric: Metric) -> dict:
        """Our extra: a metric's live value, p95 over its window, age and status (probe and health loaded)."""
        now = timezone.now()
        window = self.windows.get(metric.pk, [])
        reading = metric_reading(metric, now=now)
        return {
            "id": metric.slug,
            "name": self.text(metric.name) or metric.slug,
            "unit": metric.unit,
            "aggregation": metric.aggregation,
            "value": metric.latest_value,
            "measured_at": timestamp(metric.latest_at),
            "age_seconds": int((now - metric.latest_at).total_seconds()) if metric.latest_at else None,
            "p95": exact_quantile(window, 0.95),
            "window": metric.window,
            # As the page says it (incidents.metrics.readings): the evaluated status, None when there is
            # no data (no sample for 3 intervals); `value` is then the last one measured, not current.
            "status": reading.status.value if reading.status is not None else None,
            "no_data": reading.no_data,
        }

    def full_name(self, component: Component) -> str:
        """ "Group - Component", as Statuspage names affected components."""
        name = self.text(component.name) or component.slug
        if component.group_id:
            return f"{self.text(component.group.name) or component.group.slug} - {name}"
        return name

    def incident(self, incident: Incident, timelines: selectors.Timelines) -> dict:
        row = {
            "id": incident.public_id,
            "name": self.text(incident.title, incident.original_language) or incident.slug,
            "status": incident_status(incident),
            "impact": "maintenance" if incident.is_maintenance else incident.impact,
            "created_at": timestamp(incident.created_at),
            "updated_at": timestamp(incident.updated_at),
            "started_at": timestamp(incident.started_at),
            "monitoring_at": timestamp(incident.monitoring_at),
            "resolved_at": timestamp(incident.resolved_at),
            "backfilled": incident.backfilled,
            "shortlink": f"{settings.SITE_URL}/incidents/{incident.slug}/",
            "page_id": self.page_id,
        }
        if incident.is_maintenance:
            row["scheduled_for"] = timestamp(incident.scheduled_for)
            row["scheduled_until"] = timestamp(incident.scheduled_until)
        # Statuspage's updates always carry a status: context events (ours, without one) stay out.
        row["incident_updates"] = [self.update(update, incident) for update in timelines.updates[incident.pk]]
        row["components"] = [
            self.component(self.components_by_id[pk], with_metrics=False)
            for pk in timelines.components[incident.pk]
        ]
        return row

    def update(self, update: selectors.UpdateRow, incident: Incident) -> dict:
        return {
            "id": update.public_id,
            "status": update.status,
            "body": self.text(update.body, update.original_language),
            "incident_id": incident.public_id,
            "created_at": timestamp(update.created_at),
            "updated_at": timestamp(update.updated_at),
            "display_at": timestamp(update.display_at),
            "affected_components": [self.affected(*change) for change in update.changes] or None,
            "deliver_notifications": update.deliver_notifications,
            "custom_tweet": None,
            "tweet_id": None,
        }

    def affected(self, component_id: int, old_status: str, new_status: str) -> dict:
        component = self.components_by_id[component_id]
        return {
            "code": component.public_id,
            "name": self.full_name(component),
            "old_status": old_status,
            "new_status": new_status,
        }

    def events(self, incidents: list[Incident]) -> list[dict]:
        """Incidents or maintenance with their whole timelines, read in one go."""
        timelines = selectors.timelines(incidents)
        return [self.incident(incident, timelines) for incident in incidents]


def incident_status(incident: Incident) -> str:
    """Statuspage reports a resolved incident whose postmortem is out as `postmortem`."""
    postmortem = getattr(incident, "postmortem", None)  # the reverse one-to-one may be missing
    if incident.status == "resolved" and postmortem is not None and postmortem.is_published:
        return "postmortem"
    return incident.status


def summary(page: Page) -> dict:
    unresolved = selectors.unresolved_incidents()
    windows = selectors.recent_maintenances(
        limit=None, statuses=selectors.MAINTENANCE_UPCOMING + selectors.MAINTENANCE_ACTIVE
    )
    events = page.events(unresolved + windows)
    return {
        "page": page.page(),
        "status": page.status(),
        "components": page.component_list(),
        "incidents": events[: len(unresolved)],
        "scheduled_maintenances": events[len(unresolved) :],
    }


def status(page: Page) -> dict:
    return {"page": page.page(), "status": page.status()}


def components(page: Page) -> dict:
    return {"page": page.page(), "components": page.component_list()}


def incidents(page: Page) -> dict:
    return {"page": page.page(), "incidents": page.events(selectors.recent_incidents())}


def unresolved(page: Page) -> dict:
    return {"page": page.page(), "incidents": page.events(selectors.unresolved_incidents())}


def maintenances(page: Page, statuses=None) -> dict:
    return {
        "page": page.page(),
        "scheduled_maintenances": page.events(selectors.recent_maintenances(statuses=statuses)),
    }


DOCUMENTS = {
    "summary": summary,
    "status": status,
    "components": components,
    "incidents": incidents,
    "incidents/unresolved": unresolved,
    "scheduled-maintenances": maintenances,
    "scheduled-maintenances/upcoming": partial(maintenances, statuses=selectors.MAINTENANCE_UPCOMING),
    "scheduled-maintenances/active": partial(maintenances, statuses=selectors.MAINTENANCE_ACTIVE),
}
