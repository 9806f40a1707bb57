"""Settings for the status page, read from the environment.

Every value has a default that runs the whole platform on one machine with no services
(SQLite, an embedded Celery transport, a local cache). Bad values fail loudly at start-up.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("STATUSPAGE_VAR_DIR", BASE_DIR / "var"))


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET = "insecure-development-key-change-me-0123456789abcdef"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY or (not DEBUG and SECRET_KEY == _DEV_SECRET):
    raise ImproperlyConfigured("Set SECRET_KEY to a long random value when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Absolute base for links that leave the site: emails, feeds, Statuspage JSON.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
STATUS_PAGE_NAME = env_str("STATUS_PAGE_NAME", "Acme Status")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "incidents",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
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

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'statuspage.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web server read while the worker writes; the timeout rides out short locks.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "statuspage",
            "TIMEOUT": 300,
        }
    }
else:
    # Shared by the web server and the workers on one machine, so invalidation reaches both.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "TIMEOUT": 300,
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

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
# The zone times are shown in on the page, and in which due dates fall due (IANA name).
STATUS_TIME_ZONE = env_str("STATUS_TIME_ZONE", "Europe/Oslo")

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

EMAIL_URL_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
}
EMAIL_BACKEND = env_str("EMAIL_BACKEND", EMAIL_URL_BACKENDS["file"])
EMAIL_BACKEND = EMAIL_URL_BACKENDS.get(EMAIL_BACKEND, EMAIL_BACKEND)
EMAIL_FILE_PATH = str(VAR_DIR / "mail")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Acme Status <status@acme.example>")
EMAIL_REPLY_TO = env_str("EMAIL_REPLY_TO", "support@acme.example")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Celery: Redis when REDIS_URL is set, otherwise a transport on the local file system that
# needs no server. There is no result backend: state lives in database rows.
CELERY_BROKER_URL = REDIS_URL or "filesystem://"
if not REDIS_URL:
    _queue_dir = str(VAR_DIR / "celery-queue")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _queue_dir,
        "data_folder_out": _queue_dir,
        "control_folder": str(VAR_DIR / "celery-control"),
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "incidents.probes.*": {"queue": "probes"},
    "incidents.notify.*": {"queue": "notify"},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BEAT_SCHEDULE: dict = {}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Production hardening: on whenever DEBUG is off, so `check --deploy` passes.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# Probes and outgoing webhooks may call private and loopback addresses only when this is on.
OUTBOUND_ALLOW_PRIVATE_TARGETS = env_bool("OUTBOUND_ALLOW_PRIVATE_TARGETS", False)

# --- issue 4: probes ---
# Concurrency inside one probes worker process: in all, and towards any one host:port.
PROBE_CONCURRENCY = env_int("PROBE_CONCURRENCY", 256)
PROBE_CONCURRENCY_PER_HOST = env_int("PROBE_CONCURRENCY_PER_HOST", 64)
# The dispatcher runs this often (seconds) and enqueues runs due within twice that; the
# watchdog sweeps for abandoned runs at the same pace.
PROBE_DISPATCH_EVERY = env_int("PROBE_DISPATCH_EVERY", 2)
# Bounds checked when a probe is saved.
PROBE_MIN_INTERVAL = env_int("PROBE_MIN_INTERVAL", 10)
PROBE_MAX_INTERVAL = env_int("PROBE_MAX_INTERVAL", 86400)
PROBE_MAX_TIMEOUT = env_int("PROBE_MAX_TIMEOUT", 60)
# Circuit breaker per target: opens after this many consecutive failures or timeouts, and lets
# one run through again after the cool-down (seconds).
PROBE_BREAKER_FAILURES = env_int("PROBE_BREAKER_FAILURES", 3)
PROBE_BREAKER_COOLDOWN = env_int("PROBE_BREAKER_COOLDOWN", 300)
# Hysteresis: good evaluations in a row before a metric's status recovers.
PROBE_RECOVERY_EVALUATIONS = env_int("PROBE_RECOVERY_EVALUATIONS", 3)
# Retention of raw samples and probe runs (rollups are kept).
SAMPLE_RETENTION_DAYS = env_int("SAMPLE_RETENTION_DAYS", 30)
PROBE_RUN_RETENTION_DAYS = env_int("PROBE_RUN_RETENTION_DAYS", 7)
PROBE_MAX_RESPONSE_BYTES = env_int("PROBE_MAX_RESPONSE_BYTES", 1_048_576)
# Push endpoint and webhook receiver: largest body and batch accepted.
PUSH_MAX_BODY_BYTES = env_int("PUSH_MAX_BODY_BYTES", 65536)
PUSH_MAX_BATCH = env_int("PUSH_MAX_BATCH", 100)
CELERY_BEAT_SCHEDULE.update(
    {
        "probes-dispatch": {"task": "incidents.probes.dispatch", "schedule": float(PROBE_DISPATCH_EVERY)},
        "probes-watchdog": {"task": "incidents.probes.watchdog", "schedule": float(PROBE_DISPATCH_EVERY)},
        "metrics-prune": {"task": "incidents.metrics.prune", "schedule": 3600.0},
    }
)
