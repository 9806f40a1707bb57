"""The platform's own health for Prometheus: what its processes count, and what the database
and the snapshot folder hold at the moment of a scrape (served at /metrics)."""
