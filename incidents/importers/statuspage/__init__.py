"""Statuspage exports entered as records of the past: from a file or a URL (`manage.py
import_statuspage`), uploaded through the API (/api/v1/imports/statuspage/) or in the editor."""
