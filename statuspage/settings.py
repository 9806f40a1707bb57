"""Settings from the environment: defaults run everything on one machine; bad values fail at start-up."""

import os
import socket
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from incidents.security.inline_scripts import THEME_BOOT_HASH
from statuspage.local_secret import local_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("STATUSPAGE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


BOOLEANS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "")
    if raw and raw.lower() not in BOOLEANS:
        raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")
    return BOOLEANS[raw.lower()] if raw else default


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        return float(raw) if raw else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# Core

# Off unless asked for, so `make run` serves production's own 404 and 500 pages.
DEBUG = env_bool("DEBUG", False)
# Plain http, mails as files, static files where they lie, a key made once in var/. Production's
# `DEBUG=0` turns it off; `make run` sets it, so `DEBUG=0 make run` is still a local run.
LOCAL_RUN = env_bool("LOCAL_RUN", os.environ.get("DEBUG", "") == "" or DEBUG)

SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY and LOCAL_RUN:
    SECRET_KEY = local_secret_key(path=VAR_DIR / "secret_key")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY to a long random value in production (DEBUG=0).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Absolute base for links that leave the site (emails, feeds, Statuspage JSON, badges).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
STATUS_PAGE_NAME = env_str("STATUS_PAGE_NAME", "Acme Status")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",
    "rest_framework",
    "django_filters",
    "incidents",
    "drf_spectacular",
    "drf_spectacular_sidecar",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware, so that degraded-mode answers carry the policy too.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # For when nothing in front compresses (the shipped nginx does); above the degraded mode, so
    # snapshot pages are compressed too. It weakens ETags, which If-None-Match compares weakly.
    "django.middleware.gzip.GZipMiddleware",
    # Inside GZip, so the API's JSON errors are what gets compressed.
    "incidents.views.errors.ApiErrorMiddleware",
    "incidents.public.degraded.DegradedModeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "incidents.request_context.RequestContextMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "statuspage.urls"
WSGI_APPLICATION = "statuspage.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Form widgets render through TEMPLATES, so templates/forms/ can hold our own widget templates.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "editor:login"
LOGIN_REDIRECT_URL = "editor:overview"

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
# A local run finds each file when asked for (no collectstatic, and each test client's fresh
# middleware would otherwise index every file); production indexes the collected ones once.
WHITENOISE_USE_FINDERS = LOCAL_RUN
WHITENOISE_AUTOREFRESH = LOCAL_RUN
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if LOCAL_RUN
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}


# Database and cache

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'statuspage.sqlite3'}")
# scripts/run_platform.py sets 0 for the development server, whose threads would each keep one.
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", 60)
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=DATABASE_CONN_MAX_AGE, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web server read while the worker writes; the timeout rides out short locks.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
else:
    # A database that stops answering (a node cut off from it) fails a request within seconds
    # rather than holding it for TCP's minutes: the connection attempt, data never acknowledged
    # (tcp_user_timeout) and an idle wait on a dead peer (keepalives) each time out.
    _network_timeout = env_int("DATABASE_NETWORK_TIMEOUT_SECONDS", 10)
    DATABASES["default"]["OPTIONS"] = {
        "connect_timeout": env_int("DATABASE_CONNECT_TIMEOUT_SECONDS", 5),
        "tcp_user_timeout": _network_timeout * 1000,
        "keepalives": 1,
        "keepalives_idle": max(1, _network_timeout // 2),
        "keepalives_interval": max(1, _network_timeout // 6),
        "keepalives_count": 3,
        **DATABASES["default"].get("OPTIONS", {}),
    }

# A region's probe worker (PROBE_REGION other than the home region) holds no database
# credentials: any database access fails there, rather than falling back to a local file.
PROBE_HOME_REGION = env_str("PROBE_HOME_REGION", "local")
PROBE_REGION = env_str("PROBE_REGION", "")
PROBE_REGION_KEY = env_str("PROBE_REGION_KEY", "")
BROKER_ONLY = bool(PROBE_REGION) and PROBE_REGION != PROBE_HOME_REGION
if BROKER_ONLY:
    DATABASES = {"default": {"ENGINE": "django.db.backends.dummy"}}
# SQLite's planner has statistics only once ANALYZE runs; PostgreSQL keeps its own. 0: off.
PLANNER_STATISTICS_SECONDS = env_int("PLANNER_STATISTICS_SECONDS", 3600)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
# Redis answers in well under a millisecond: slower has failed, so a hung server holds no page.
REDIS_TIMEOUT_SECONDS = env_int("REDIS_TIMEOUT_SECONDS", 1)
# Without Redis a file cache, shared by the web server and the workers so invalidation reaches both.
CACHES = {
    "default": {
        "BACKEND": "statuspage.redis_cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "statuspage",
        "TIMEOUT": 300,
        "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT_SECONDS, "socket_timeout": REDIS_TIMEOUT_SECONDS},
    }
    if REDIS_URL
    else {
        "BACKEND": "statuspage.file_cache.FileCache",
        "LOCATION": str(VAR_DIR / "cache"),
        "TIMEOUT": 300,
    }
}


# i18n and time

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ru", _("Russian")),
    ("es", _("Spanish")),
    ("nb", _("Norwegian Bokmål")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
# The IANA zone pages show times in, and in which due dates fall due.
STATUS_TIME_ZONE = env_str("STATUS_TIME_ZONE", "Europe/Oslo")


# Mail

# A local run saves mails as .eml files in var/mail, so a fresh install sends nothing by accident.
EMAIL_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "statuspage.mail_files.EmailFileBackend",
}
_email_backend = env_str("EMAIL_BACKEND", "file" if LOCAL_RUN else "smtp")
if _email_backend not in EMAIL_BACKENDS:
    raise ImproperlyConfigured(
        f"EMAIL_BACKEND must be one of {', '.join(EMAIL_BACKENDS)}, not {_email_backend!r}"
    )
_mailer_options = {}
if _email_backend == "smtp":
    _mailer_options = {
        "host": env_str("EMAIL_HOST", "localhost"),
        "port": env_int("EMAIL_PORT", 25),
        "username": env_str("EMAIL_HOST_USER", ""),
        "password": env_str("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", False),
        "timeout": env_int("EMAIL_TIMEOUT", 10),
    }
elif _email_backend == "file":
    _mailer_options = {"file_path": str(VAR_DIR / "mail")}
MAILERS = {"default": {"BACKEND": EMAIL_BACKENDS[_email_backend], "OPTIONS": _mailer_options}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Acme Status <status@acme.example>")
EMAIL_REPLY_TO = env_str("EMAIL_REPLY_TO", "support@acme.example")
SERVER_EMAIL = DEFAULT_FROM_EMAIL


# Celery

# No result backend: state lives in database rows. The host keeps kombu from warning on start.
CELERY_BROKER_URL = REDIS_URL or "filesystem://localhost/"
if not REDIS_URL:
    # kombu's file-system transport, riding out a queue folder that goes missing for a while.
    CELERY_BROKER_TRANSPORT = "statuspage.filesystem_broker:Transport"
    _queue_dir = str(VAR_DIR / "celery-queue")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _queue_dir,
        "data_folder_out": _queue_dir,
        "control_folder": str(VAR_DIR / "celery-control"),
    }
    for _folder in ("celery-queue", "celery-control"):
        (VAR_DIR / _folder).mkdir(exist_ok=True)
else:
    # Publishing from a web request gives up on a broker that hangs; the read timeout stays
    # above the 1 s a worker's BRPOP blocks for.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 3600,
        "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
        "socket_timeout": max(REDIS_TIMEOUT_SECONDS, 5),
    }
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes the database connection before and after every task unless told
# to reuse it: each probe message then paid a new connection (more than its claim costs). It is
# reused for this many tasks, closed earlier by CONN_MAX_AGE and health checks as between web
# requests (statuspage/celery.py).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Queues by task name, so a flood of measurements never delays notifications, nor the reverse.
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "incidents.probes.*": {"queue": "probes"},
    "incidents.notify.*": {"queue": "notify"},
}

# The probe dispatcher and watchdog run this often (seconds), enqueueing runs due within twice that.
PROBE_DISPATCH_EVERY = env_int("PROBE_DISPATCH_EVERY", 2)
MAINTENANCE_SWEEP_SECONDS = env_int("MAINTENANCE_SWEEP_SECONDS", 60)
OVERDUE_REMINDER_SWEEP_SECONDS = env_int("OVERDUE_REMINDER_SWEEP_SECONDS", 3600)
NOTIFY_SWEEP_SECONDS = env_int("NOTIFY_SWEEP_SECONDS", 60)
# Counters kept as rows (without Redis) whose window has ended are deleted this often.
COUNTER_PRUNE_SECONDS = env_int("COUNTER_PRUNE_SECONDS", 3600)
# The snapshot is never older than this, even without publishes.
STATUS_SNAPSHOT_INTERVAL_SECONDS = env_int("STATUS_SNAPSHOT_INTERVAL_SECONDS", 300)
# Each node looks this often whether the site changed since its snapshot: publishes within it join one.
STATUS_SNAPSHOT_DEBOUNCE_SECONDS = env_int("STATUS_SNAPSHOT_DEBOUNCE_SECONDS", 5)

# Several nodes: every node runs a scheduler candidate; the one holding the lease sends the
# periodic jobs (incidents/scheduling/, docs/deploy.md). The lease lasts SCHEDULER_LEASE_SECONDS
# and its holder renews it every SCHEDULER_RENEW_SECONDS; a standby checks as often.
NODE_NAME = env_str("NODE_NAME", "") or socket.gethostname()
SCHEDULER_LEASE_SECONDS = env_float("SCHEDULER_LEASE_SECONDS", 15)
SCHEDULER_RENEW_SECONDS = env_float("SCHEDULER_RENEW_SECONDS", 5)
if not 0 < SCHEDULER_RENEW_SECONDS < SCHEDULER_LEASE_SECONDS:
    raise ImproperlyConfigured("SCHEDULER_RENEW_SECONDS must be above 0 and below SCHEDULER_LEASE_SECONDS")
CELERY_BEAT_SCHEDULER = "incidents.scheduling.scheduler:LeasedScheduler"
# Claims of job slots are kept this long (far longer than any lease), then pruned.
SCHEDULED_RUNS_KEPT_HOURS = env_int("SCHEDULED_RUNS_KEPT_HOURS", 24)
# Synthetic samples for the demo metrics; `make run` turns it on.
DEMO_FEED = env_bool("DEMO_FEED", False)
DEMO_FEED_EVERY = env_int("DEMO_FEED_EVERY", 60)

# Periodic jobs: name, task, seconds, and whether a message still waiting when the next is due expires.
_beat = [
    ("probes-dispatch", "incidents.probes.dispatch", PROBE_DISPATCH_EVERY, False),
    ("probes-watchdog", "incidents.probes.watchdog", PROBE_DISPATCH_EVERY, False),
    ("metrics-prune", "incidents.metrics.prune", 3600, False),
    ("editor-advance-maintenance", "incidents.maintenance.advance", MAINTENANCE_SWEEP_SECONDS, False),
    ("editor-overdue-reminders", "incidents.notify.overdue_reminders", OVERDUE_REMINDER_SWEEP_SECONDS, False),
    ("notify-sweep", "incidents.notify.sweep", NOTIFY_SWEEP_SECONDS, True),
    ("prune-expired-counters", "incidents.database.prune_counters", COUNTER_PRUNE_SECONDS, True),
    ("scheduler-prune", "incidents.scheduling.prune", 3600, True),
    ("snapshot-export", "incidents.snapshot.export", STATUS_SNAPSHOT_INTERVAL_SECONDS, True),
    ("snapshot-follow", "incidents.snapshot.follow", STATUS_SNAPSHOT_DEBOUNCE_SECONDS, True),
]
# Each node's own jobs (its static snapshot): sent by every node's scheduler to `node.<NODE_NAME>`.
SCHEDULER_NODE_JOBS = ("snapshot-export", "snapshot-follow")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and PLANNER_STATISTICS_SECONDS > 0:
    _beat.append(
        ("database-statistics", "incidents.database.refresh_statistics", PLANNER_STATISTICS_SECONDS, True)
    )
if DEMO_FEED:
    _beat.append(("demo-feed", "incidents.demo.feed", DEMO_FEED_EVERY, True))
CELERY_BEAT_SCHEDULE = {
    name: {"task": task, "schedule": float(seconds), **({"options": {"expires": seconds}} if expires else {})}
    for name, task, seconds, expires in _beat
}


# Public site

# Seconds a rendered public page is kept per language (0: off); any visible change drops it at once.
PUBLIC_PAGE_CACHE_SECONDS = env_int("PUBLIC_PAGE_CACHE_SECONDS", 60)
# New samples drop the cache at most this often.
PUBLIC_METRICS_REFRESH_SECONDS = env_int("PUBLIC_METRICS_REFRESH_SECONDS", 10)
# Pages asked for with a query: how long, and how many per page and language, are kept.
PUBLIC_FILTERED_PAGE_SECONDS = env_int("PUBLIC_FILTERED_PAGE_SECONDS", 300)
PUBLIC_FILTERED_PAGE_VARIANTS = env_int("PUBLIC_FILTERED_PAGE_VARIANTS", 200)
# Overview components drawn in full (a page of hundreds would weigh megabytes); the rest in brief.
PUBLIC_OVERVIEW_DETAILED_COMPONENTS = env_int("PUBLIC_OVERVIEW_DETAILED_COMPONENTS", 100)
PUBLIC_HISTORY_PAGE_SIZE = env_int("PUBLIC_HISTORY_PAGE_SIZE", 25)
PUBLIC_FEED_ENTRIES = env_int("PUBLIC_FEED_ENTRIES", 50)
# Cache-Control of public pages and /api/v2/ documents (stale answers: RFC 5861).
PUBLIC_MAX_AGE = env_int("PUBLIC_MAX_AGE", 15)
PUBLIC_STALE_WHILE_REVALIDATE = env_int("PUBLIC_STALE_WHILE_REVALIDATE", 60)
PUBLIC_STALE_IF_ERROR = env_int("PUBLIC_STALE_IF_ERROR", 86400)


# API

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "incidents.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["incidents.api.permissions.StaffRole"],
    "DEFAULT_PAGINATION_CLASS": "incidents.api.pagination.Pagination",
    "EXCEPTION_HANDLER": "incidents.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "incidents.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Status page API",
    "DESCRIPTION": "Incidents, components, metrics and postmortems. Authenticate with `Authorization: Bearer <token>`.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema and its docs are public, like Statuspage's /api page; the data is not.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "incidents.api.schema_errors.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ComponentStatusEnum": "incidents.models.components.ComponentStatus",
        "IncidentStatusEnum": "incidents.models.incidents.IncidentStatus",
        "IncidentKindEnum": "incidents.models.incidents.IncidentKind",
        "MetricKindEnum": "incidents.models.metrics.MetricKind",
        "KeyFigureUnitEnum": "incidents.models.postmortems.KeyFigureUnit",
        "AlertStateEnum": "incidents.models.intake.AlertState",
        "AlertRuleStatusEnum": "incidents.models.intake.ALERT_STATUSES",
    },
}
# Larger /api/v1/ bodies are refused with 413 before they are read; imports may be larger.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 1024 * 1024)
IMPORT_MAX_BODY_BYTES = env_int("IMPORT_MAX_BODY_BYTES", 32 * 1024 * 1024)
API_PAGE_SIZE = env_int("API_PAGE_SIZE", 50)
# The Statuspage page id (12 characters, base36); derived from SITE_URL when empty.
STATUSPAGE_PAGE_ID = env_str("STATUSPAGE_PAGE_ID", "")
if STATUSPAGE_PAGE_ID and (len(STATUSPAGE_PAGE_ID) != 12 or not STATUSPAGE_PAGE_ID.isalnum()):
    raise ImproperlyConfigured("STATUSPAGE_PAGE_ID must be 12 base36 characters (0-9, a-z).")
# /api/v2/ documents: seconds kept cached, and max-age; edits invalidate them at once.
STATUSPAGE_API_CACHE_SECONDS = env_int("STATUSPAGE_API_CACHE_SECONDS", 30)
STATUSPAGE_API_MAX_AGE = env_int("STATUSPAGE_API_MAX_AGE", 30)
# A firing alert not sent again for this long shows as silent: Alertmanager and Grafana repeat
# one every 4 hours by default (repeat_interval), so the source may have stopped.
INTAKE_SILENT_AFTER_SECONDS = env_int("INTAKE_SILENT_AFTER_SECONDS", 6 * 3600)
# Prometheus and Grafana labels are short identifiers, and every rule's matchers run over them.
INTAKE_MAX_LABELS = env_int("INTAKE_MAX_LABELS", 64)
INTAKE_LABEL_NAME_MAX_LENGTH = env_int("INTAKE_LABEL_NAME_MAX_LENGTH", 128)
INTAKE_LABEL_VALUE_MAX_LENGTH = env_int("INTAKE_LABEL_VALUE_MAX_LENGTH", 1024)
INTAKE_MATCHER_MAX_LENGTH = env_int("INTAKE_MATCHER_MAX_LENGTH", 300)


# Probes

# Concurrency in one probes worker process: in all, and towards one host:port. Room for the runs
# in flight of a worker carrying ten thousand targets (docs/probes.md, "Benchmark"), with sockets
# below the usual limit of open files.
PROBE_CONCURRENCY = env_int("PROBE_CONCURRENCY", 512)
PROBE_CONCURRENCY_PER_HOST = env_int("PROBE_CONCURRENCY_PER_HOST", 64)
PROBE_MIN_INTERVAL = env_int("PROBE_MIN_INTERVAL", 10)
PROBE_MAX_INTERVAL = env_int("PROBE_MAX_INTERVAL", 86400)
PROBE_MAX_TIMEOUT = env_int("PROBE_MAX_TIMEOUT", 60)
# Circuit breaker per target: failures in a row to open it, and the cool-down (seconds).
PROBE_BREAKER_FAILURES = env_int("PROBE_BREAKER_FAILURES", 3)
PROBE_BREAKER_COOLDOWN = env_int("PROBE_BREAKER_COOLDOWN", 300)
# Hysteresis: good evaluations in a row before a metric's status recovers.
PROBE_RECOVERY_EVALUATIONS = env_int("PROBE_RECOVERY_EVALUATIONS", 3)
# Retention of raw samples and runs; rollups are kept.
SAMPLE_RETENTION_DAYS = env_int("SAMPLE_RETENTION_DAYS", 30)
# Regions (docs/probes.md, "Regions"): the home region's workers reach the database and consume
# the `probes` queue; a worker started with PROBE_REGION and its PROBE_REGION_KEY reaches only
# the broker. A quorum of 0 means a majority of the reporting regions, at least 2 where 2 or more
# are configured; recovery needs the quorum for this many ticks in a row.
# Region keys derive from this (SECRET_KEY when empty); `manage.py probe_region key <name>` prints one.
PROBE_REGION_SECRET = env_str("PROBE_REGION_SECRET", "")
PROBE_QUORUM = env_int("PROBE_QUORUM", 0)
PROBE_QUORUM_RECOVERY_TICKS = env_int("PROBE_QUORUM_RECOVERY_TICKS", 3)
PROBE_REGION_MISSED_TICKS = env_int("PROBE_REGION_MISSED_TICKS", 2)
PROBE_RUN_RETENTION_DAYS = env_int("PROBE_RUN_RETENTION_DAYS", 7)
PROBE_MAX_RESPONSE_BYTES = env_int("PROBE_MAX_RESPONSE_BYTES", 1_048_576)
PUSH_MAX_BODY_BYTES = env_int("PUSH_MAX_BODY_BYTES", 65536)
PUSH_MAX_BATCH = env_int("PUSH_MAX_BATCH", 100)


# Notifications

SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS = env_int("SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS", 3 * 24 * 3600)
# Subscribe requests allowed per hour from one client, for one target, and for one domain.
SUBSCRIBE_RATE_PER_CLIENT = env_int("SUBSCRIBE_RATE_PER_CLIENT", 20)
SUBSCRIBE_RATE_PER_ADDRESS = env_int("SUBSCRIBE_RATE_PER_ADDRESS", 3)
SUBSCRIBE_RATE_PER_DOMAIN = env_int("SUBSCRIBE_RATE_PER_DOMAIN", 100)
# Room for a subscription to 1,000 components with 50-character slugs, pretty-printed.
SUBSCRIBE_MAX_BODY_BYTES = env_int("SUBSCRIBE_MAX_BODY_BYTES", 131072)
# One SMTP connection per batch.
NOTIFY_BATCH_SIZE = env_int("NOTIFY_BATCH_SIZE", 200)
NOTIFY_LEASE_SECONDS = env_int("NOTIFY_LEASE_SECONDS", 120)
# Webhooks go one by one, each up to the timeout, so their batches are smaller.
NOTIFY_WEBHOOK_BATCH_SIZE = env_int("NOTIFY_WEBHOOK_BATCH_SIZE", 20)
NOTIFY_MAX_ATTEMPTS = env_int("NOTIFY_MAX_ATTEMPTS", 8)
NOTIFY_RETRY_BASE_SECONDS = env_int("NOTIFY_RETRY_BASE_SECONDS", 30)
NOTIFY_RETRY_MAX_SECONDS = env_int("NOTIFY_RETRY_MAX_SECONDS", 3600)
NOTIFY_WEBHOOK_TIMEOUT_SECONDS = env_int("NOTIFY_WEBHOOK_TIMEOUT_SECONDS", 10)
# Circuit breaker per webhook and chat receiver; while open, deliveries wait, spending no attempts.
NOTIFY_BREAKER_FAILURES = env_int("NOTIFY_BREAKER_FAILURES", 3)
NOTIFY_BREAKER_COOLDOWN_SECONDS = env_int("NOTIFY_BREAKER_COOLDOWN_SECONDS", 120)
# An Apprise URL such as twilio://SID:Token@+15551234567/{number}; empty: no SMS subscriptions.
SMS_APPRISE_URL = env_str("SMS_APPRISE_URL", "")
if SMS_APPRISE_URL and "{number}" not in SMS_APPRISE_URL:
    raise ImproperlyConfigured("SMS_APPRISE_URL must contain {number}.")
# Whether the public page offers SMS; codes per hour to one number, for one client, and in all.
PUBLIC_SMS_SUBSCRIPTIONS = env_bool("PUBLIC_SMS_SUBSCRIPTIONS", False)
SMS_CODES_PER_NUMBER = env_int("SMS_CODES_PER_NUMBER", 2)
SMS_CODES_PER_CLIENT = env_int("SMS_CODES_PER_CLIENT", 3)
SMS_CODES_PER_HOUR = env_int("SMS_CODES_PER_HOUR", 30)
# Parts of 153 or 67 characters a longer SMS's title is shortened to fit.
SMS_MAX_SEGMENTS = env_int("SMS_MAX_SEGMENTS", 2)
# A dispatch task hands the rest to a fresh task after this long, so one task never runs forever.
NOTIFY_DISPATCH_SECONDS = env_int("NOTIFY_DISPATCH_SECONDS", 240)
# Set it to the notify workers' concurrency to use them all.
NOTIFY_DISPATCH_PARALLEL = env_int("NOTIFY_DISPATCH_PARALLEL", 1)
# Local hour (STATUS_TIME_ZONE) from which overdue reminders go out.
OVERDUE_REMINDER_HOUR = env_int("OVERDUE_REMINDER_HOUR", 8)
if not 0 <= OVERDUE_REMINDER_HOUR <= 23:
    raise ImproperlyConfigured("OVERDUE_REMINDER_HOUR must be an hour from 0 to 23.")


# Security

# Failed logins per user name and address in a window (the EDITOR_ names are the older ones).
LOGIN_MAX_FAILURES = env_int("LOGIN_MAX_FAILURES", env_int("EDITOR_LOGIN_MAX_FAILURES", 5))
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", env_int("EDITOR_LOGIN_LOCKOUT_SECONDS", 900))
# The header our own proxies put the client address in, and how many; empty: REMOTE_ADDR.
TRUSTED_PROXY_HEADER = env_str("TRUSTED_PROXY_HEADER", "")
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1)
if TRUSTED_PROXY_COUNT < 1:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 1 or more.")

# The one inline script (the theme set before first paint) is allowed by its hash.
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'", THEME_BOOT_HASH],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
X_FRAME_OPTIONS = "DENY"
# On in every run but a local one, so `check --deploy` passes.
if not LOCAL_RUN:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

# Whether probes and webhooks may call private and loopback addresses.
OUTBOUND_ALLOW_PRIVATE_TARGETS = env_bool("OUTBOUND_ALLOW_PRIVATE_TARGETS", False)

# How far ahead a past event's time may lie (clocks differ a little), and anything be planned.
INSTANT_CLOCK_SKEW_SECONDS = env_int("INSTANT_CLOCK_SKEW_SECONDS", 300)
PLANNED_HORIZON_DAYS = env_int("PLANNED_HORIZON_DAYS", 3653)
# How long before an incident's start a context note (the deploy before it) may be shown.
CONTEXT_NOTE_LEAD_DAYS = env_int("CONTEXT_NOTE_LEAD_DAYS", 30)

# Components a page holds, and one import may create, at most.
PAGE_MAX_COMPONENTS = env_int("PAGE_MAX_COMPONENTS", 1000)
IMPORT_MAX_NEW_COMPONENTS = env_int("IMPORT_MAX_NEW_COMPONENTS", 500)

# Deeper JSON bodies are refused with 400 before parsing.
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 32)

DEFAULT_EXCEPTION_REPORTER_FILTER = "incidents.security.error_reports.SecretMaskingFilter"
DEFAULT_EXCEPTION_REPORTER = "incidents.security.error_reports.SecretMaskingReporter"


# Resilience

# Builds of the public site's static snapshot, and a `current` symlink swapped atomically.
STATUS_SNAPSHOT_DIR = Path(env_str("STATUS_SNAPSHOT_DIR", str(VAR_DIR / "snapshot")))
STATUS_SNAPSHOT_KEEP = env_int("STATUS_SNAPSHOT_KEEP", 2)
# While the database is unreachable, each process retries it at most this often.
DEGRADED_RECHECK_SECONDS = env_int("DEGRADED_RECHECK_SECONDS", 1)


# Backups (manage.py backup and restore, docs/operations.md)

# Where a backup goes when no --output is given.
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(VAR_DIR / "backups")))
# pg_dump and pg_restore are stopped after this long, rather than hang a scheduled backup.
BACKUP_TIMEOUT_SECONDS = env_int("BACKUP_TIMEOUT_SECONDS", 3600)


# Platform metrics

# Empty: /metrics is open, as most exporters are.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# Every process writes its counters here (multiprocess mode); empty it when the platform starts.
# prometheus_client reads PROMETHEUS_MULTIPROC_DIR when first imported, so it is set here (an
# inherited value would make two installations share one folder).
METRICS_PROCESS_DIR = Path(env_str("METRICS_PROCESS_DIR", str(VAR_DIR / "prometheus")))
METRICS_PROCESS_DIR.mkdir(parents=True, exist_ok=True)
os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(METRICS_PROCESS_DIR)
