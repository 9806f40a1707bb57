"""Metrics: from samples to figures and statuses.

`rollups` (mergeable p95 sketches), `health` (window figures, thresholds, hysteresis),
`readings` (live figures for pages and APIs), `uptime` (time per status from status periods)
and `indicator` (the page-wide status indicator).
"""
