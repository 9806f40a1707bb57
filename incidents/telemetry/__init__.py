"""The platform's own health for Prometheus, served at /metrics."""
