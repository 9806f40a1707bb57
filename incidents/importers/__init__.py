"""Importers: history brought in from elsewhere, one package per source."""
