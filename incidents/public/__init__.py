"""The public site: page cache, snapshot, degraded mode, presentation, charts and feeds."""
