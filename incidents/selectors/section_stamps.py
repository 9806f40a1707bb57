"""What the overview's components section depends on beyond the rows the page reads anyway, in
two hand-written queries (compiling them through the ORM cost more than running them): enough
to tell that it changed, never the rows the section draws."""

import datetime as dt
import hashlib

from django.db import connection

from incidents.models import Incident, IncidentKind, Metric, Probe, StatusPeriod


def components_section_stamp(*, since: dt.datetime, now: dt.datetime) -> tuple:
    """Metrics and probes (how many, last edited), the status periods since `since` (how many,
    the newest) and a digest of the incidents the day bars since `since` list: a metric,
    threshold or probe edited, a status period begun or closed, or a listed incident retitled,
    resolved or linked to another component moves it. Periods laid over past days move their
    components' `updated_at` instead."""
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(_counts_sql(), [adapt(since)])
        counts = tuple(cursor.fetchone())
        cursor.execute(_bar_incidents_sql(), [IncidentKind.INCIDENT.value, adapt(since), adapt(now)])
        incidents = hashlib.sha256(repr(cursor.fetchall()).encode()).hexdigest()
    return (*counts, incidents)


def _counts_sql() -> str:
    q = connection.ops.quote_name
    metric, probe, period = (q(model._meta.db_table) for model in (Metric, Probe, StatusPeriod))
    return (
        f"SELECT (SELECT COUNT(*) FROM {metric}), (SELECT MAX({q('updated_at')}) FROM {metric}),"
        f" (SELECT COUNT(*) FROM {probe}), (SELECT MAX({q('updated_at')}) FROM {probe}),"
        f" (SELECT MAX({q('id')}) FROM {period}),"
        f" (SELECT COUNT(*) FROM {period} WHERE {q('ended_at')} IS NULL OR {q('ended_at')} > %s)"
    )


def _bar_incidents_sql() -> str:
    """The published incidents touching any component since the first parameter and begun
    before the second, as selectors.uptime.incidents_by_component reads them for the bars."""
    q = connection.ops.quote_name
    links, incident = q(Incident.components.through._meta.db_table), q(Incident._meta.db_table)
    fields = ", ".join(
        f"i.{q(name)}" for name in ("id", "slug", "title", "original_language", "started_at", "resolved_at")
    )
    return (
        f"SELECT l.{q('component_id')}, {fields} FROM {links} l"
        f" JOIN {incident} i ON i.{q('id')} = l.{q('incident_id')}"
        f" WHERE i.{q('published_at')} IS NOT NULL AND i.{q('kind')} = %s"
        f" AND (i.{q('resolved_at')} IS NULL OR i.{q('resolved_at')} >= %s) AND i.{q('started_at')} < %s"
        f" ORDER BY l.{q('component_id')}, i.{q('started_at')}, i.{q('id')}"
    )
