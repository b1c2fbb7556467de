"""Settings for the Memory Console, read from the environment.

DATABASE_URL (an SQLite file by default), REDIS_URL (absent: Celery tasks run in process),
SECRET_KEY (required unless DEBUG), DEBUG, ALLOWED_HOSTS, JIRA_*, API_WRITES_PER_MINUTE and
API_READS_PER_MINUTE (each token's budget; 600 and 6,000 by default).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from exc


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def local_debug_key(base_dir: Path) -> str:
    """A key for local DEBUG runs only: stable per checkout, so sessions survive a reload."""
    import hashlib

    return "insecure-debug-" + hashlib.sha256(str(base_dir).encode()).hexdigest()


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        # Only a local DEBUG run may fall back; production must name its own key.
        SECRET_KEY = local_debug_key(BASE_DIR)
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable (or DEBUG=1 for a local run)."
        )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "guardian",
    "axes",
    "django_celery_beat",
    "stores",
    "runs",
    "jira_link",
    "schedule",
    "reviews",
    "memory_console",
]

MIDDLEWARE = [
    "memory_console.request_ids.RequestIdMiddleware",
    "memory_console.api_not_found.ApiNotFoundMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "memory_console.csp.ConsoleContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "memory_console.urls"
WSGI_APPLICATION = "memory_console.wsgi.application"
ASGI_APPLICATION = "memory_console.asgi.application"  # uvicorn: a waiting change-feed request holds no thread

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A database that does not answer fails the request within seconds (503 with retry-after),
    # instead of holding it; a connect_timeout given in DATABASE_URL wins.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5))
# What a 503 during a database outage tells clients to wait before retrying (the SDK honours it).
DATABASE_RETRY_AFTER_SECONDS = env_int("DATABASE_RETRY_AFTER_SECONDS", 2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
ANONYMOUS_USER_NAME = None  # guardian: no anonymous user row

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# WhiteNoise serves collected files in production; before collectstatic there is nothing to serve.
warnings.filterwarnings("ignore", message="No directory at: ")
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGIN_URL = "/console/login/"
LOGIN_REDIRECT_URL = "/console/"
LOGOUT_REDIRECT_URL = "/console/login/"

# HTTPS-only switches come from the environment so tests can run over plain HTTP.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
# With HSTS on, its two companions follow unless the environment turns them off, so the four
# documented switches are enough for `check --deploy` to report nothing.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SECURE_HSTS_SECONDS > 0)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Failed-login throttling (django-axes).
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_RESET_ON_SUCCESS = True
# A locked-out sign-in anywhere (the admin too) gets a page that says why and for how long.
AXES_LOCKOUT_CALLABLE = "stores.console.views.locked_out_response"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]

# django-simple-history: a revert would write old text without the console's checks.
SIMPLE_HISTORY_REVERT_DISABLED = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["stores.api.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["stores.api.permissions.HasPrincipal"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["stores.api.parsers.LenientJSONParser"],
    "EXCEPTION_HANDLER": "stores.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    # Per token a minute, counted in the cache (Redis with REDIS_URL, so shared by every instance);
    # a call over the budget answers 429 rate_limit_error with `retry-after`.
    "DEFAULT_THROTTLE_CLASSES": [
        "stores.api.throttles.TokenWriteThrottle",
        "stores.api.throttles.TokenReadThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "token_writes": f"{env_int('API_WRITES_PER_MINUTE', 600)}/min",
        "token_reads": f"{env_int('API_READS_PER_MINUTE', 6000)}/min",
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Memory Console agent API",
    "DESCRIPTION": "Memory stores, memories and versions, compatible with Anthropic's memory-store API.",
    "VERSION": "1",
    # The schema is generated from the API's serializers (stores/api, runs/api); its build runs in
    # tests/stores/test_api_schema.py, so `check --deploy` need not build it again.
    "ENABLE_DJANGO_DEPLOY_CHECK": False,
    # Bodies in place in each operation; enums stay inline (a `type` enum per object, as the reference).
    "POSTPROCESSING_HOOKS": ["stores.api.schema.inline_bodies"],
}

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: without REDIS_URL the tasks run in process.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 30 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 25 * 60)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE

# The console's own limits and rules.
MEMORY_STORE_MAX_MEMORIES = env_int("MEMORY_STORE_MAX_MEMORIES", 2000)
RUN_RECORD_RETENTION_DAYS = env_int("RUN_RECORD_RETENTION_DAYS", 90)
# A run record is the full transcript of a run: its route takes bodies past Django's 2.5 MB default.
RUN_RECORD_MAX_BYTES = env_int("RUN_RECORD_MAX_BYTES", 20 * 1024 * 1024)
LESSON_PROMPT_TIMEOUT_HOURS = env_int("LESSON_PROMPT_TIMEOUT_HOURS", 24)
RECENTLY_DELETED_DAYS = 30

# Automated reviews of a store (reviews/). Two notes are near-duplicates at this Jaccard similarity
# of their three-word shingles; a note is flagged as close to a standing decision (or a paragraph
# of the governance template) when this share of the shorter text's shingles is in the other.
REVIEW_DUPLICATE_THRESHOLD = float(os.environ.get("REVIEW_DUPLICATE_THRESHOLD", "0.6"))
REVIEW_DECISION_THRESHOLD = float(os.environ.get("REVIEW_DECISION_THRESHOLD", "0.5"))
# The model pass: off unless REVIEW_MODEL names a model; through the anthropic SDK's Messages API.
REVIEW_MODEL = os.environ.get("REVIEW_MODEL", "")
ANTHROPIC_API_KEY = os.environ.get("ANTHROPIC_API_KEY", "")
ANTHROPIC_BASE_URL = os.environ.get("ANTHROPIC_BASE_URL", "")
REVIEW_MODEL_MAX_TOKENS = env_int("REVIEW_MODEL_MAX_TOKENS", 8192)
REVIEW_MODEL_MAX_CHARS = env_int("REVIEW_MODEL_MAX_CHARS", 150_000)  # notes shown to the model, at most
REVIEW_MODEL_TIMEOUT_SECONDS = float(os.environ.get("REVIEW_MODEL_TIMEOUT_SECONDS", "120"))
# A project store's review gives the model this many recent run records, each cut to its last characters.
REVIEW_RUN_RECORDS = env_int("REVIEW_RUN_RECORDS", 5)
REVIEW_RUN_RECORD_CHARS = env_int("REVIEW_RUN_RECORD_CHARS", 4000)

# The console's pages carry a Content-Security-Policy (memory_console/csp.py): no script, no other origin.
CONSOLE_CSP_PATH_PREFIXES = ("/console/",)

# Jira Cloud.
JIRA_URL = os.environ.get("JIRA_URL", "")
JIRA_USER = os.environ.get("JIRA_USER", "")
JIRA_API_TOKEN = os.environ.get("JIRA_API_TOKEN", "")
JIRA_WEBHOOK_SECRET = os.environ.get("JIRA_WEBHOOK_SECRET", "")
JIRA_TIMEOUT_SECONDS = float(os.environ.get("JIRA_TIMEOUT_SECONDS", "3"))
JIRA_CACHE_SECONDS = float(os.environ.get("JIRA_CACHE_SECONDS", "5"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
