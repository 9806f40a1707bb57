"""The two APIs: our authenticated REST API (/api/v1/) and the Statuspage-compatible public JSON."""
