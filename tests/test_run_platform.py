"""`make run` keeps serving pages when the worker or the scheduler stops: they are started
again after a growing pause, and only the web server stopping stops everything."""

import importlib.util
from pathlib import Path

import pytest

from tests.test_settings import run_manage

PATH = Path(__file__).resolve().parent.parent / "scripts" / "run_platform.py"
spec = importlib.util.spec_from_file_location("run_platform", PATH)
run_platform = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_platform)


class FakeProcess:
    """A child process: running until a test ends it with an exit code."""

    def __init__(self):
        self.code = None

    def poll(self):
        return self.code


@pytest.fixture
def started():
    return []


@pytest.fixture
def children(started):
    def start(child):
        process = FakeProcess()
        started.append((child.name, process))
        return process

    made = [
        run_platform.Child("web", ["runserver"], essential=True),
        run_platform.Child("worker", ["celery", "worker"]),
        run_platform.Child("scheduler", ["celery", "beat"]),
    ]
    for child in made:
        child.process = start(child)
    return made, start


def test_a_worker_that_dies_is_started_again_while_the_web_server_keeps_running(children, started):
    made, start = children
    web, worker, _scheduler = made
    web_process = web.process
    worker.process.code = 1  # the broker went away

    assert run_platform.tend(made, start=start, now=100.0) is None  # nothing stops
    assert worker.process is None
    assert run_platform.tend(made, start=start, now=100.5) is None
    assert worker.process is None  # still pausing
    assert run_platform.tend(made, start=start, now=101.0) is None
    assert started[-1][0] == "worker" and worker.process is started[-1][1]
    assert web.process is web_process and web_process.poll() is None


def test_pauses_grow_while_the_worker_keeps_failing_and_reset_once_it_runs(children, started):
    made, start = children
    worker = made[1]
    now, pauses = 0.0, []
    for _ in range(7):
        worker.process.code = 1
        run_platform.tend(made, start=start, now=now)
        pauses.append(worker.restart_at - now)
        now = worker.restart_at
        run_platform.tend(made, start=start, now=now)
    assert pauses == [1, 2, 4, 8, 16, 30, 30]
    run_platform.tend(made, start=start, now=now + run_platform.HEALTHY_AFTER_SECONDS)
    worker.process.code = 1
    run_platform.tend(made, start=start, now=now + run_platform.HEALTHY_AFTER_SECONDS + 1)
    assert worker.restart_at - (now + run_platform.HEALTHY_AFTER_SECONDS + 1) == 1


def test_the_scheduler_is_started_again_too(children, started):
    made, start = children
    made[2].process.code = -9
    run_platform.tend(made, start=start, now=0.0)
    run_platform.tend(made, start=start, now=1.0)
    assert [name for name, _process in started].count("scheduler") == 2


def test_the_web_server_stopping_stops_the_platform(children):
    made, start = children
    made[0].process.code = 1
    assert run_platform.tend(made, start=start, now=0.0) == "web"


def test_the_development_server_closes_its_database_connections():
    web = run_platform.platform(8000)[0]
    assert web.essential and web.env["DATABASE_CONN_MAX_AGE"] == "0"
    assert all("DATABASE_CONN_MAX_AGE" not in (child.env or {}) for child in run_platform.platform(8000)[1:])


def test_the_connection_age_comes_from_the_environment():
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])",
        DATABASE_URL="postgres://u:p@127.0.0.1:1/none",
        DATABASE_CONN_MAX_AGE="0",
    )
    assert result.stdout.strip().splitlines()[-1] == "0", result.stderr
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])",
        DATABASE_URL="postgres://u:p@127.0.0.1:1/none",
    )
    assert result.stdout.strip().splitlines()[-1] == "60", result.stderr
