"""Migrations renamed to say what they hold (each lists its earlier name in `replaces`): a
database migrated before the rename counts them applied, and `migrate` has nothing to do."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

pytestmark = pytest.mark.django_db


def renamed() -> dict[tuple[str, str], list[tuple[str, str]]]:
    loader = MigrationExecutor(connection).loader
    return {
        key: list(m.replaces)
        for key, m in loader.disk_migrations.items()
        if key[0] == "incidents" and m.replaces
    }


def test_a_database_migrated_under_the_earlier_names_has_nothing_to_migrate():
    renames = renamed()
    assert renames, "the renamed migrations are found"
    recorder = MigrationRecorder(connection)
    recorder.migration_qs.filter(app="incidents", name__in=[name for _app, name in renames]).delete()
    for earlier in renames.values():
        for app, name in earlier:
            recorder.record_applied(app, name)

    executor = MigrationExecutor(connection)

    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    assert set(renames) <= set(executor.loader.applied_migrations)
