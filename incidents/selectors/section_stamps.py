"""What the overview's components section depends on beyond the rows the page reads anyway, in
two hand-written queries (compiling them through the ORM cost more than running them): enough
to tell that it changed, never the rows the section draws."""

import datetime as dt
import hashlib

from django.db import connection

from incidents.models import Incident, Metric, Probe, StatusPeriod


def components_section_stamp(*, since: dt.datetime) -> tuple:
    """Metrics and probes (how many, last edited), the status periods since `since` (how many,
    the newest) and a digest of the incidents the day bars since `since` may list: a metric,
    threshold or probe edited, a status period begun or closed, or a listed incident retitled,
    resolved or linked to another component moves it. Periods laid over past days move their
    components' `updated_at` instead."""
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        # One round trip: the counts on every row, beside each listed incident (or alone).
        cursor.execute(
            f"SELECT * FROM ({_counts_sql()}) counts LEFT JOIN ({_bar_incidents_sql()}) bars ON 1 = 1"
            " ORDER BY bars.component_id, bars.started_at, bars.id",
            [adapt(since), adapt(since)],
        )
        rows = cursor.fetchall()
    counts = rows[0][:COUNTS]
    incidents = hashlib.sha256(repr([row[COUNTS:] for row in rows]).encode()).hexdigest()
    return (*counts, incidents)


COUNTS = 6  # the columns of _counts_sql


def _counts_sql() -> str:
    q = connection.ops.quote_name
    metric, probe, period = (q(model._meta.db_table) for model in (Metric, Probe, StatusPeriod))
    return (
        f"SELECT (SELECT COUNT(*) FROM {metric}) metrics, (SELECT MAX({q('updated_at')}) FROM {metric}) metric_edit,"
        f" (SELECT COUNT(*) FROM {probe}) probes, (SELECT MAX({q('updated_at')}) FROM {probe}) probe_edit,"
        f" (SELECT MAX({q('id')}) FROM {period}) last_period,"
        f" (SELECT COUNT(*) FROM {period} WHERE {q('ended_at')} IS NULL OR {q('ended_at')} > %s) periods"
    )


def _bar_incidents_sql() -> str:
    """The incidents touching any component that are unresolved or were resolved since the
    query's one parameter: those the day bars since then may list, and a few more (maintenance,
    drafts), whose changes only draw the section again. Two parts, each found through the
    resolved_at index; one condition with OR, or with the kind or start, led the planner to read
    every incident there ever was."""
    q = connection.ops.quote_name
    links, incident = q(Incident.components.through._meta.db_table), q(Incident._meta.db_table)
    fields = ", ".join(
        f"i.{q(name)}" for name in ("id", "slug", "title", "original_language", "started_at", "resolved_at")
    )
    select = (
        f"SELECT l.{q('component_id')} component_id, {fields} FROM {incident} i"
        f" JOIN {links} l ON l.{q('incident_id')} = i.{q('id')}"
    )
    return f"{select} WHERE i.{q('resolved_at')} IS NULL UNION ALL {select} WHERE i.{q('resolved_at')} >= %s"
