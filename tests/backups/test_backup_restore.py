"""manage.py backup and restore: a restore brings back every row as it was backed up, on SQLite
and on PostgreSQL; it refuses to replace data unasked, a missing file and another engine's
backup; readers see the restored data at once; a backup is never left half-written."""

import re
import shutil
import sqlite3
import stat
import uuid
from contextlib import closing

import psycopg
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.utils import load_backend
from psycopg import sql

from incidents.models import Component, Incident

pytestmark = pytest.mark.django_db(transaction=True)

SUFFIX = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
# The first bytes of the other engine's backup, for a file that restore must turn away.
OTHER_ENGINE = {"sqlite": b"PGDMP\x01\x0f\x00" + bytes(64), "postgresql": b"SQLite format 3\x00" + bytes(84)}
OTHER_ENGINE_NAME = {"sqlite": "PostgreSQL", "postgresql": "SQLite"}


def every_row(using: str = DEFAULT_DB_ALIAS) -> dict[str, list[dict]]:
    """Every row of every table of the platform's models and of users, groups and permissions
    (many-to-many tables included), field by field, in primary-key order."""
    database = connections[using]
    models = [
        *apps.get_app_config("incidents").get_models(include_auto_created=True),
        *apps.get_app_config("auth").get_models(include_auto_created=True),
    ]
    rows = {}
    with database.cursor() as cursor:
        for model in models:
            columns = [field.column for field in model._meta.concrete_fields]
            quoted = ", ".join(database.ops.quote_name(column) for column in columns)
            table = database.ops.quote_name(model._meta.db_table)
            cursor.execute(
                f"SELECT {quoted} FROM {table} ORDER BY {database.ops.quote_name(model._meta.pk.column)}"
            )
            rows[model._meta.label] = [
                dict(zip(columns, values, strict=True)) for values in cursor.fetchall()
            ]
    return rows


def assert_same_rows(found: dict[str, list[dict]], expected: dict[str, list[dict]]) -> None:
    assert found.keys() == expected.keys()
    for table, rows in expected.items():
        assert len(found[table]) == len(rows), table
        for index, row in enumerate(rows):
            assert found[table][index] == row, f"{table}, row {index}"


def change_everything(using: str = DEFAULT_DB_ALIAS) -> None:
    """What a bad day does to a status page: incidents gone, components renamed, a stranger added."""
    Incident._base_manager.using(using).all().delete()
    Component._base_manager.using(using).update(name={"en": "Renamed"})
    get_user_model().objects.db_manager(using).create_user("stranger", password="x")


def backup_file(tmp_path, name: str = "before") -> str:
    return str(tmp_path / f"{name}{SUFFIX[connection.vendor]}")


@pytest.fixture
def demo(admin, responder):
    """The demo page, with people and their roles."""
    call_command("load_demo", verbosity=0)
    rows = every_row()
    # Comparing nothing would prove nothing: the demo fills the tables a page shows.
    assert len(rows["incidents.Incident"]) > 3 and len(rows["incidents.Sample"]) > 1000
    assert rows["auth.User"] and rows["auth.User_groups"] and rows["incidents.Postmortem"]
    return rows


@pytest.fixture
def separate_database():
    """A PostgreSQL database of its own on the test server, as a connection alias, dropped after
    the test (whatever the restore left in it)."""
    params = connections[DEFAULT_DB_ALIAS].settings_dict
    name = f"statuspage_backup_{uuid.uuid4().hex[:12]}"
    server = {
        "host": params["HOST"],
        "port": params["PORT"],
        "user": params["USER"],
        "password": params["PASSWORD"],
    }
    server = {key: value for key, value in server.items() if value}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    # Made here rather than in DATABASES: Django's test case lets a test use a connection it made.
    connections[name] = load_backend(params["ENGINE"]).DatabaseWrapper({**params, "NAME": name}, alias=name)
    yield name
    connections[name].close()
    del connections[name]
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the configured database is not SQLite")
def test_a_sqlite_restore_brings_back_every_row_as_it_was_backed_up(demo, tmp_path):
    path = backup_file(tmp_path)
    call_command("backup", output=path, verbosity=0)
    change_everything()
    assert every_row() != demo

    call_command("restore", path, yes=True, verbosity=0)

    assert_same_rows(every_row(), demo)


@pytest.mark.postgres
def test_a_postgresql_restore_brings_back_every_row_into_a_new_database_and_over_changed_data(
    demo, tmp_path, separate_database
):
    path = backup_file(tmp_path)
    call_command("backup", output=path, verbosity=0)

    # A new server: an empty database, and no --yes needed.
    call_command("restore", path, database=separate_database, verbosity=0)
    assert_same_rows(every_row(separate_database), demo)

    change_everything(separate_database)
    assert every_row(separate_database) != demo
    call_command("restore", path, yes=True, database=separate_database, verbosity=0)

    assert_same_rows(every_row(separate_database), demo)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="edits a SQLite backup file")
def test_a_restore_of_an_older_backup_asks_for_migrate(component, tmp_path, capsys):
    current = backup_file(tmp_path)
    call_command("backup", output=current, verbosity=0)
    older = shutil.copy(current, tmp_path / "older.sqlite3")
    with closing(sqlite3.connect(older)) as database:
        database.execute("DELETE FROM django_migrations WHERE id = (SELECT max(id) FROM django_migrations)")
        database.commit()

    try:
        call_command("restore", str(older), yes=True)
        said = capsys.readouterr().out
    finally:
        # Flushing after the test leaves django_migrations as it is: the next tests need it whole.
        call_command("restore", current, yes=True, verbosity=0)

    assert said.endswith("the backup lacks 1 migration of this version: run manage.py migrate\n")


def test_a_restore_over_data_is_refused_without_yes_and_changes_nothing(component, tmp_path):
    path = backup_file(tmp_path)
    call_command("backup", output=path, verbosity=0)
    Component.objects.update(name={"en": "Renamed"})
    before = every_row()

    with pytest.raises(CommandError, match="holds data .* --yes"):
        call_command("restore", path, verbosity=0)

    assert every_row() == before


def test_a_missing_backup_file_is_named_in_the_error(tmp_path):
    with pytest.raises(CommandError, match=re.escape(f"no backup file at {tmp_path / 'gone.pgdump'}")):
        call_command("restore", str(tmp_path / "gone.pgdump"), yes=True, verbosity=0)


def test_a_backup_of_the_other_engine_is_refused_and_changes_nothing(component, tmp_path):
    path = tmp_path / "other-engine.backup"
    path.write_bytes(OTHER_ENGINE[connection.vendor])
    before = every_row()

    with pytest.raises(CommandError, match=f"is a {OTHER_ENGINE_NAME[connection.vendor]} backup"):
        call_command("restore", str(path), yes=True, verbosity=0)

    assert every_row() == before


def test_a_file_that_is_no_backup_is_refused(component, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n")

    with pytest.raises(CommandError, match="is not a backup made by manage.py backup"):
        call_command("restore", str(path), yes=True, verbosity=0)


def test_readers_see_the_restored_page_not_the_one_cached_before_the_restore(
    component, tmp_path, client, settings
):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    path = backup_file(tmp_path)
    call_command("backup", output=path, verbosity=0)
    # Written around the services, as a restore is: nothing tells the page cache.
    Component.objects.update(name={"en": "Renamed"})
    assert "Renamed" in client.get("/").content.decode()

    call_command("restore", path, yes=True, verbosity=0)

    page = client.get("/").content.decode()
    assert "Webhook delivery" in page
    assert "Renamed" not in page


def test_a_backup_without_output_goes_to_a_timestamped_file_only_its_owner_reads(
    component, settings, tmp_path, capsys
):
    settings.BACKUP_DIR = tmp_path / "backups"

    call_command("backup")

    (made,) = settings.BACKUP_DIR.iterdir()
    assert made.name.startswith("statuspage-") and made.suffix == SUFFIX[connection.vendor]
    assert stat.S_IMODE(made.stat().st_mode) == 0o600
    assert capsys.readouterr().out == f"backup: {made} ({made.stat().st_size:,} bytes)\n"


def test_a_backup_never_overwrites_a_file(component, tmp_path):
    path = tmp_path / "kept.backup"
    path.write_text("an older backup")

    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", output=str(path), verbosity=0)

    assert path.read_text() == "an older backup"


def test_a_backup_into_a_missing_folder_says_so(component, tmp_path):
    with pytest.raises(CommandError, match=re.escape(f"{tmp_path / 'missing'} is not a folder")):
        call_command("backup", output=str(tmp_path / "missing" / "made.backup"), verbosity=0)


@pytest.mark.postgres
def test_without_pg_dump_the_backup_says_what_to_install_and_leaves_no_file(component, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))

    with pytest.raises(CommandError, match="pg_dump not found in PATH: install PostgreSQL's client tools"):
        call_command("backup", output=str(tmp_path / "made.pgdump"), verbosity=0)

    assert [p.name for p in tmp_path.iterdir()] == []


@pytest.mark.postgres
def test_a_pg_dump_older_than_the_server_is_refused_with_both_versions(component, tmp_path, monkeypatch):
    tools = tmp_path / "tools"
    tools.mkdir()
    old = tools / "pg_dump"
    old.write_text("#!/bin/sh\necho 'pg_dump (PostgreSQL) 9.6.24'\n")
    old.chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    server = connection.get_database_version()[0]

    with pytest.raises(CommandError, match=f"pg_dump 9 cannot dump a PostgreSQL {server} server"):
        call_command("backup", output=str(tmp_path / "made.pgdump"), verbosity=0)

    assert [p.name for p in tmp_path.iterdir()] == ["tools"]
