"""The test database, shared with Celery processes a test starts as a deployment would."""

from pathlib import Path

from django.conf import settings
from django.db import connection


def share_test_database_with_processes() -> None:
    """SQLite's default in-memory test database locks whole tables between threads and cannot be
    opened by another process, so on SQLite such tests use a file (in WAL mode, with a busy
    timeout) instead. Called at import of a conftest, before any test database is made."""
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        Path(settings.VAR_DIR).mkdir(parents=True, exist_ok=True)
        settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = str(
            Path(settings.VAR_DIR) / "test-probes.sqlite3"
        )


def database_url() -> str:
    """The test database's address, for DATABASE_URL of a process the test starts."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
