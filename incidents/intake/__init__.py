"""Alert intake: alerts from Alertmanager and Grafana (/api/v1/intake/…) matched to the rules that
set component statuses and open draft incidents, and the editor's intake pages."""
