"""Configuration as code: groups, components, metrics, probes, regions, update templates and alert
rules as one YAML document, exported, validated, compared with the database and applied
(docs/configuration.md). The commands and the API endpoints are two doors to the same services."""
