"""Settings come from the environment and fail loudly on bad values."""

import json
import os
import secrets
import socket
import stat
import subprocess
import sys
import time

import pytest


def run_manage(*args, **env):
    """manage.py in a fresh process, with none of the variables that choose the kind of run
    but those given."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "LOCAL_RUN")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], capture_output=True, text=True, env=environment, timeout=120
    )


def settings_of(var_dir, **env) -> dict:
    """The settings a process started with this environment (and `var_dir`) runs with."""
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'DEBUG': s.DEBUG, 'SECRET_KEY': s.SECRET_KEY, 'mail': s.MAILERS['default']['BACKEND'], "
        "'SECURE_SSL_REDIRECT': s.SECURE_SSL_REDIRECT, 'SECURE_HSTS_SECONDS': s.SECURE_HSTS_SECONDS, "
        "'SESSION_COOKIE_SECURE': s.SESSION_COOKIE_SECURE, 'CSRF_COOKIE_SECURE': s.CSRF_COOKIE_SECURE}))"
    )
    result = run_manage("shell", "--no-imports", "-c", code, STATUSPAGE_VAR_DIR=str(var_dir), **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_with_no_environment_debug_is_off_and_a_key_is_made_once_and_kept_in_var(tmp_path):
    first = settings_of(tmp_path)
    second = settings_of(tmp_path)

    assert first["DEBUG"] is False
    kept = tmp_path / "secret_key"
    assert first["SECRET_KEY"] == kept.read_text().strip() == second["SECRET_KEY"]
    assert len(first["SECRET_KEY"]) >= 50
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert settings_of(tmp_path / "elsewhere")["SECRET_KEY"] != first["SECRET_KEY"]


def test_a_local_run_with_debug_off_serves_plain_http_and_saves_mail_as_files(tmp_path):
    # `DEBUG=0 make run`: the marker make run sets keeps it a local run.
    local = settings_of(tmp_path, DEBUG="0", LOCAL_RUN="1")

    assert local["DEBUG"] is False
    assert local["SECURE_SSL_REDIRECT"] is False
    assert local["SECURE_HSTS_SECONDS"] == 0
    assert local["SESSION_COOKIE_SECURE"] is False and local["CSRF_COOKIE_SECURE"] is False
    assert local["mail"] == "statuspage.mail_files.EmailFileBackend"
    assert (tmp_path / "secret_key").exists()


def test_production_mode_without_a_secret_refuses_to_start(tmp_path):
    result = run_manage("check", DEBUG="0", STATUSPAGE_VAR_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr
    assert not (tmp_path / "secret_key").exists()


def test_production_settings_harden_the_site(tmp_path):
    production = settings_of(tmp_path, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50))

    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] > 0
    assert production["SESSION_COOKIE_SECURE"] is True and production["CSRF_COOKIE_SECURE"] is True
    assert production["mail"] == "django.core.mail.backends.smtp.EmailBackend"
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize(("name", "value"), [("DEBUG", "maybe"), ("EMAIL_BACKEND", "carrier-pigeon")])
def test_malformed_values_name_the_variable(name, value):
    result = run_manage("check", **{name: value})
    assert result.returncode != 0
    assert name in result.stderr and value in result.stderr


def test_production_settings_pass_the_deploy_checks():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="status.example.com",
    )
    assert result.returncode == 0, result.stderr


def test_a_postgresql_server_that_accepts_but_never_answers_fails_the_connection_within_its_timeout(tmp_path):
    """A node cut off from its database must not hold requests for TCP's minutes."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    port = silent.getsockname()[1]
    started = time.monotonic()
    try:
        result = run_manage(
            "shell",
            "--no-imports",
            "-c",
            "from django.db import connection; connection.ensure_connection()",
            DATABASE_URL=f"postgres://postgres@127.0.0.1:{port}/statuspage",
            DATABASE_CONNECT_TIMEOUT_SECONDS="2",
            STATUSPAGE_VAR_DIR=str(tmp_path),
        )
    finally:
        silent.close()
    assert result.returncode != 0
    assert "timeout expired" in result.stderr
    assert time.monotonic() - started < 15
