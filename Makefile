# The menu: make run | test | lint | format | messages | demo | bench-… (see README.md).
PYTHON_BIN := $(shell scripts/find-python)
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The packages `make lint` holds to annotations ([tool.mypy] in pyproject.toml); one not there yet
# is skipped.
TYPED := $(wildcard incidents/lifecycle incidents/selectors incidents/channels incidents/backups incidents/scheduling)

.PHONY: run test lint format messages compilemessages migrate demo check-deploy clean

# Runtime and development requirements both: a production install takes requirements.txt alone.
# uv installs them, far faster than pip from a warm cache (docs/bench/tests.md); it comes from
# PyPI through the interpreter's own pip, pinned here. No bytecode is compiled here: compiling
# every installed module costs 15 s of CPU, and the suite and lint import under a third of them,
# writing theirs on first import (docs/bench/tests.md).
UV_VERSION := 0.13.8
UV := var/tools/uv-$(UV_VERSION)/bin/uv
$(VENV)/installed: requirements.txt requirements-dev.txt scripts/find-python
	@test -n "$(PYTHON_BIN)" || { echo "Python 3.12 or newer is needed (Django 6.1); install python3.12 or python3.13." >&2; exit 1; }
	test -x $(UV) || $(PYTHON_BIN) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --upgrade --target var/tools/uv-$(UV_VERSION) uv==$(UV_VERSION)
	test -x $(PY) || $(UV) venv --quiet --python $(PYTHON_BIN) $(VENV)
	$(UV) pip install --quiet --python $(PY) -r requirements-dev.txt
	touch $@

venv: $(VENV)/installed

compilemessages: venv
	$(PY) manage.py compile_catalogs

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

# Links in mails, feeds and badges follow PORT (make run PORT=8001) unless SITE_URL is set.
# A local run (statuspage/settings.py): plain http, mails as files, a key kept in var/, even
# with DEBUG=0; the steps it depends on run as one too.
run: export LOCAL_RUN = 1
run: venv compilemessages migrate
	$(PY) manage.py load_demo
	$(PY) scripts/run_platform.py --port $(PORT)

# The suite on one worker per core and one more (pytest-xdist): a good part of it waits on
# browsers, servers and processes it started, and the extra worker fills those waits
# (docs/bench/tests.md). TEST_WORKERS=0 runs it in one process. Work stealing keeps every worker
# busy to the end: each starts with a contiguous share of the tests, and one that runs dry takes
# the last pending ones of another.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# Every worker, and every process a system test starts, imports the same modules: compiled (and
# the tests' asserts rewritten) once into __pycache__, not again in each, whatever the shell says.
test test-fast test-browser lint: export PYTHONDONTWRITEBYTECODE =
test: venv compilemessages
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=15 $(PYTEST_ARGS)

# The edit loop: the suite without the tests that start real processes or a browser.
.PHONY: test-fast
test-fast: venv compilemessages
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal -m "not system and not browser" $(PYTEST_ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy $(TYPED)

format: venv
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

messages: venv
	$(PY) manage.py makemessages --no-location --no-obsolete --ignore=.venv --ignore=var --ignore=tests -l en -l ru -l es -l nb
	$(PY) manage.py compile_catalogs

check-deploy: venv
	DEBUG=0 LOCAL_RUN=0 SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
	ALLOWED_HOSTS=status.example.com $(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) var

# The editor's browser test (needs scripts/ci-install-browser).
test-browser: venv
	$(PY) -m pytest -m browser $(PYTEST_ARGS)
# Full-page screenshots of the public site and the editor (1280 and 390 px, light and dark) into
# var/screenshots/, from a fresh demo database; needs Chromium and chromedriver.
.PHONY: screenshots
screenshots: venv compilemessages
	$(PY) scripts/screenshots.py
# Benchmarks and drills (each script's docstring says what it measures). Each one's output goes
# to docs/bench/<name>.md, headed by the command, the date and the machine.
BENCH = $(PY) scripts/bench_record.py
# One update to 20,000 subscribers (email, webhook and Slack) through outbox, Celery worker and
# local SMTP and HTTP receivers; compares the email share with a plain smtplib loop. Use
# DATABASE_URL (PostgreSQL) and REDIS_URL for a meaningful figure.
bench-notify: venv
	$(BENCH) bench-notify -- $(PY) scripts/bench_notify.py
# Seconds from declaring an incident to its first mail, with the platform started as `make run`
# starts it (embedded defaults: SQLite, the file-system broker) and a local SMTP sink.
.PHONY: bench-first-mail
bench-first-mail: venv
	$(BENCH) bench-first-mail -- $(PY) scripts/bench_first_mail.py
# Every public page on a small and a large history, and re-renders while samples arrive.
bench-site: venv
	$(BENCH) bench-site -- $(PY) scripts/bench_site.py
# The Statuspage-compatible JSON: cold build, cached read, 304.
bench-api: venv
	$(BENCH) bench-api -- $(PY) scripts/bench_api.py
# The JSON depth scan itself (no body limit in front) on hostile shapes at 64 KiB and 1 MiB.
.PHONY: bench-scan
bench-scan: venv
	$(BENCH) bench-scan -- $(PY) scripts/bench_scan.py
# 2,000 Statuspage incidents with 10,000 updates through manage.py import_statuspage, twice, into a
# fresh PostgreSQL database on DATABASE_URL's server; the second run must create nothing.
bench-import: venv
	$(BENCH) bench-import -- $(PY) scripts/bench_import.py
.PHONY: bench-probes
# TARGETS local HTTP targets probed every 30 s for 90 s through beat, Redis and a probes worker,
# from REGIONS regions (each a broker-only worker; every target from every region). Needs
# REDIS_URL; uses DATABASE_URL's server with a database of its own (SQLite otherwise).
TARGETS ?= 1000
REGIONS ?= 1
PROBES_RECORD = $(if $(filter 1000-1,$(TARGETS)-$(REGIONS)),bench-probes,bench-probes REGIONS=$(REGIONS) TARGETS=$(TARGETS))
bench-probes: venv
	$(BENCH) "$(PROBES_RECORD)" -- $(PY) scripts/bench_probes.py --targets $(TARGETS) --regions $(REGIONS)
# The app direct and through the shipped nginx configuration, against nginx serving the same
# bytes statically.
bench-load: venv compilemessages
	$(BENCH) bench-load -- $(PY) scripts/bench_load.py
# The shipped nginx and the app under 200 readers while updates and samples arrive: how fast,
# and how soon each change reaches readers.
.PHONY: bench-surge
bench-surge: venv compilemessages
	$(BENCH) bench-surge -- $(PY) scripts/bench_surge.py
# Fault drills against private PostgreSQL and Redis instances (DRILLS=3,5 picks some); run by
# hand, not in .ci/run; the output goes to docs/bench/drill.md.
drill: venv compilemessages
	$(BENCH) drill -- $(PY) scripts/drill.py
# Probe regions in network namespaces of their own (needs root and `ip netns`; skips otherwise):
# one region cut off, two regions' targets failing, recovery, all decided by quorum. Output in
# docs/bench/drill-regions.md; DRILL_REGIONS_INTERVAL (s, default 10) sets the probes' interval.
.PHONY: drill-regions
drill-regions: venv
	$(BENCH) drill-regions -- $(PY) scripts/drill_regions.py
# Two nodes in network namespaces of their own (needs root and `ip netns`; skips otherwise), each
# running what docs/deploy.md gives a node, behind the shipped nginx: one node killed, then one cut
# off from the database and broker, mid fan-out of 20,000 mails and 1,000 probes. Output in
# docs/bench/drill-cluster.md.
.PHONY: drill-cluster
drill-cluster: venv compilemessages
	$(BENCH) drill-cluster -- $(PY) scripts/drill_cluster.py
