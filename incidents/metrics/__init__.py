"""Metrics: from samples to figures, statuses and uptime."""
