"""Statistics for the database's query planner.

PostgreSQL gathers them itself (autovacuum). SQLite has none until ANALYZE runs, and without
them it guesses: to find one component's incidents of the last 90 days it walked every
incident through the index on kind instead of the component's links (docs/public-site.md has
the figures). Bulk loads refresh them, and on SQLite the scheduler does every hour
(settings.PLANNER_STATISTICS_SECONDS).
"""

from django.db import connection

# Rows SQLite samples per index: enough to tell a selective index from a poor one, and it
# keeps ANALYZE of a large history to tens of milliseconds.
SQLITE_ANALYSIS_LIMIT = 1000


def refresh_statistics() -> None:
    """Runs ANALYZE (sampled on SQLite)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA analysis_limit={SQLITE_ANALYSIS_LIMIT}")
        cursor.execute("ANALYZE")
