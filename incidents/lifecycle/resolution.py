"""The one resolve rule: where each of an incident's components goes when it is resolved (or its
maintenance completed), and what holds a component where it is.

A component goes back to operational unless something still holds it: another open incident or
an active maintenance window (it keeps the status that event gave it), or, for a component whose
status is derived from metrics, a probe or a firing alert that measures it outside its thresholds
now (it takes the status measured). Each hold says why in any page language, so the resolve
screen, the resolving update and the status board give the same reason.
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from incidents import formatting
from incidents.metrics import quorum
from incidents.models import (
    AlertState,
    Component,
    ComponentChange,
    ComponentStatus,
    Incident,
    IncidentStatus,
    IntakeAlert,
    MetricHealth,
    StatusMode,
)
from incidents.translation import pick


@dataclass(frozen=True)
class EventHold:
    """Another open incident, or a maintenance window, that still names the component."""

    event: Incident
    status: ComponentStatus

    def describe(self, language: str) -> str:
        title = pick(self.event.title, language=language, original=self.event.original_language).text
        if self.event.is_maintenance:
            return _("maintenance “%(title)s”") % {"title": title}
        return _("incident “%(title)s”") % {"title": title}


@dataclass(frozen=True)
class MetricHold:
    """A metric whose fresh window figure lies past one of its thresholds."""

    health: MetricHealth

    @property
    def status(self) -> ComponentStatus:
        return ComponentStatus(self.health.status)

    def describe(self, language: str) -> str:
        metric = self.health.metric
        name = pick(metric.name, language=language, original=metric.original_language).text or metric.slug
        figure = self.health.figure
        limit = dict(metric.thresholds()).get(self.status)
        if figure is None or limit is None:
            return self._by_quorum(_("%(metric)s: checks failing") % {"metric": name})
        past = figure != limit
        if metric.higher_is_worse:
            sign = ">" if past else "≥"
        else:
            sign = "<" if past else "≤"
        held = _("%(metric)s (%(aggregation)s) %(value)s %(sign)s %(limit)s") % {
            "metric": name,
            "aggregation": metric.get_aggregation_display(),
            "value": formatting.format_measure(figure, metric.unit, language, precision=metric.precision),
            "sign": sign,
            "limit": formatting.format_measure(limit, metric.unit, language, precision=metric.precision),
        }
        return self._by_quorum(held)

    def _by_quorum(self, held: str) -> str:
        return quorum.described(
            held, reporting=self.health.regions_reporting, agreeing=self.health.regions_agreeing
        )


@dataclass(frozen=True)
class AlertHold:
    """A firing alert routed to the component."""

    alert: IntakeAlert

    @property
    def status(self) -> ComponentStatus:
        return ComponentStatus(self.alert.status)

    def describe(self, language: str) -> str:
        return _("alert “%(name)s”") % {"name": self.alert.name or self.alert.fingerprint}


Hold = EventHold | MetricHold | AlertHold


@dataclass(frozen=True)
class Resting:
    """Where one component goes when the incident closes, and what holds it there."""

    component: Component
    status: ComponentStatus
    holds: tuple[Hold, ...] = ()

    def reasons(self, language: str) -> str:
        """ "held by: incident “…”; webhook delay (95th percentile) 84 s > 60 s", in `language`."""
        if not self.holds:
            return ""
        with translation.override(language):
            listed = "; ".join(hold.describe(language) for hold in self.holds)
            return _("held by: %(reasons)s") % {"reasons": listed}

    def reasons_by_language(self) -> dict[str, str]:
        """The reasons in every page language, as the resolving update keeps them."""
        return {code: self.reasons(code) for code, _name in settings.LANGUAGES}


def _holding_events(
    incident: Incident | None, components: list[Component], *, now: dt.datetime
) -> list[Incident]:
    """Published incidents and maintenance other than `incident` that hold these components now:
    running ones, and maintenance whose planned window covers now (a record holds nothing)."""
    running = ~Q(status__in=[IncidentStatus.RESOLVED, IncidentStatus.COMPLETED, IncidentStatus.SCHEDULED])
    planned_now = Q(status=IncidentStatus.SCHEDULED, scheduled_for__lte=now, scheduled_until__gte=now)
    events = (
        Incident.objects.published()
        .filter(running | planned_now, backfilled=False, components__in=components)
        .distinct()
        .prefetch_related("components")
        .order_by("started_at", "pk")
    )
    if incident is not None:
        events = events.exclude(pk=incident.pk)
    return list(events)


def _given_statuses(events: list[Incident], components: list[Component]) -> dict[tuple[int, int], str]:
    """The status each event last gave each component, by (event id, component id), in one query."""
    changes = (
        ComponentChange.objects.filter(update__incident__in=events, component__in=components)
        .order_by("update__display_at", "update_id")
        .values_list("update__incident_id", "component_id", "new_status")
    )
    return {(event_id, component_id): status for event_id, component_id, status in changes}


def _measured_holds(components: list[Component], *, now: dt.datetime) -> dict[int | None, list[Hold]]:
    automatic = [c.pk for c in components if c.status_mode == StatusMode.AUTOMATIC]
    holds: dict[int | None, list[Hold]] = {}
    fresh = Q(stale_after__isnull=True) | Q(stale_after__gte=now)
    rows = (
        MetricHealth.objects.select_related("metric")
        .filter(fresh, metric__component_id__in=automatic)
        .exclude(status=ComponentStatus.OPERATIONAL)
        .order_by("metric__position", "metric_id")
    )
    for row in rows:
        holds.setdefault(row.metric.component_id, []).append(MetricHold(row))
    alerts = (
        IntakeAlert.objects.filter(component_id__in=automatic, state=AlertState.FIRING)
        .exclude(status="")
        .exclude(status=ComponentStatus.OPERATIONAL)
        .order_by("starts_at", "pk")
    )
    for alert in alerts:
        holds.setdefault(alert.component_id, []).append(AlertHold(alert))
    return holds


def holds_on(
    components: list[Component], *, now: dt.datetime | None = None, besides: Incident | None = None
) -> list[Resting]:
    """Where each component would rest if nothing but its holds (other than `besides`) counted."""
    now = now or timezone.now()
    events = _holding_events(besides, components, now=now)
    given = _given_statuses(events, components) if events else {}
    measured = _measured_holds(components, now=now)
    resting = []
    for component in components:
        # An event keeps the component where it last put it, else where the component is.
        holds: list[Hold] = [
            EventHold(event, ComponentStatus(given.get((event.pk, component.pk), component.status)))
            for event in events
            if component in event.components.all()
        ]
        holds += measured.get(component.pk, [])
        status = ComponentStatus.worst(hold.status for hold in holds)
        resting.append(Resting(component=component, status=status, holds=tuple(holds)))
    return resting


def resolution(incident: Incident, *, now: dt.datetime | None = None) -> list[Resting]:
    """Where each of the incident's components goes if it closes now.

    A record of the past sets no current status: its components rest at operational on its
    own days, with nothing to hold them."""
    components = list(incident.components.order_by("position", "pk"))
    if incident.backfilled:
        return [Resting(component=c, status=ComponentStatus.OPERATIONAL) for c in components]
    return holds_on(components, now=now, besides=incident)
