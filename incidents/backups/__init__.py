"""Backups of the platform's database and their restore (`manage.py backup`, `manage.py restore`):
pg_dump's custom format on PostgreSQL, SQLite's online backup on SQLite."""
