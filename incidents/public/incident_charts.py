"""The affected metrics of an incident, charted over its window at a resolution that fits its length."""

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext as _

from incidents import selectors
from incidents.models import Component, Incident, Metric, Resolution
from incidents.public.charts import LineChart
from incidents.public.presentation import metric_line_chart, metric_value, shown, threshold_lines
from incidents.validation.instants import EARLIEST

# Minute rollups for incidents up to this long; hour rollups up to LONGEST_HOURLY; days beyond.
LONGEST_BY_MINUTE = dt.timedelta(hours=6)
LONGEST_HOURLY = dt.timedelta(days=30)


def incident_window(incident: Incident) -> tuple[dt.datetime, dt.datetime, Resolution] | None:
    """The charted window and its resolution, or None when the incident's times are out of bounds."""
    now = timezone.now()
    end = incident.resolved_at or now
    if not EARLIEST <= incident.started_at <= end <= now + dt.timedelta(days=1):
        return None
    margin = max((end - incident.started_at) / 4, dt.timedelta(minutes=15))
    start, end = incident.started_at - margin, end + margin
    length = end - start
    if length <= LONGEST_BY_MINUTE:
        return start, end, Resolution.MINUTE
    return start, end, Resolution.HOUR if length <= LONGEST_HOURLY else Resolution.DAY


def incident_charts(incident: Incident, components: list[Component], language: str) -> list[LineChart]:
    """One chart per affected metric with data in the incident's window."""
    if not components or incident.started_at is None:
        return []
    metrics = list(
        Metric.objects.filter(component__in=components).order_by("component__position", "position", "slug")
    )
    window = incident_window(incident)
    if window is None:
        return []
    start, end, resolution = window
    series = selectors.metric_series(metrics, resolution=resolution, since=start, until=end)
    zone = incident.time_zone
    drawn = []
    for metric in metrics:
        points = series.get(metric.pk, [])
        present = [v for _at, v in points if v is not None]
        if not present:
            continue
        name = shown(metric.name, metric, language=language).text
        thresholds = threshold_lines(metric, language)
        summary = _(
            "%(metric)s during the incident: from %(low)s to a peak of %(high)s, latest %(latest)s"
        ) % {
            "metric": name,
            "low": metric_value(metric, min(present), language),
            "high": metric_value(metric, max(present), language),
            "latest": metric_value(metric, present[-1], language),
        }
        chart = metric_line_chart(
            metric,
            points,
            ident=f"chart-{metric.pk}",
            title=name,
            name=_("Chart of %(metric)s during the incident") % {"metric": name},
            summary=summary,
            start=start,
            end=end,
            thresholds=thresholds,
            language=language,
            zone=zone,
            daily_points=resolution == Resolution.DAY,
        )
        drawn.append(chart)
    return drawn
