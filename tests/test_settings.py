"""Settings come from the environment and fail loudly on bad values."""

import os
import secrets
import subprocess
import sys

import pytest


def run_manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], capture_output=True, text=True, env=environment, timeout=120
    )


def test_production_mode_without_a_secret_refuses_to_start():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


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
