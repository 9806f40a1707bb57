"""Alerts from Alertmanager and Grafana: reading their payloads and matching rules to them."""
