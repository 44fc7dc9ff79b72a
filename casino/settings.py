"""Django settings, read from the environment (django-environ).

Embedded defaults need no server: SQLite under ``var/``, an in-process channel layer and an
in-memory Celery broker. Production sets ``DATABASE_URL`` (PostgreSQL via psycopg 3),
``REDIS_URL`` (channel layer), ``CELERY_BROKER_URL``, ``SECRET_KEY`` and ``DEBUG=false``.
All stored times are UTC (``USE_TZ``).
"""

import warnings
from pathlib import Path

import environ

from casino import logs

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production-please")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

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
    "django_filters",
    "health_check",
    "django_prometheus",
    "django_structlog",
    "channels",
    "casino",
    "casino.eventstore",
    "tables",
    "cashgame",
    "waitlist",
    "tournaments",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # first: HTTP metrics
    "django.middleware.security.SecurityMiddleware",
    # static files (Swagger UI, the consoles) straight from the app folders: nothing to
    # collect before `up`; production may still run collectstatic into STATIC_ROOT.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_structlog.middlewares.RequestMiddleware",  # request id; one line per request
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",  # last
]

ROOT_URLCONF = "casino.urls"
ASGI_APPLICATION = "casino.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'casino.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the tailing reader run beside the writer; IMMEDIATE serialises writers at
    # BEGIN so an append never fails half-way with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif env.bool("DB_POOL", default=True):
    # Under ASGI each request may run on another thread, where a persistent per-thread
    # connection is not reused: a pool (psycopg_pool, Django's built-in support) is.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=2),
        "max_size": env.int("DB_POOL_MAX", default=20),
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if test_name := env.str("TEST_DATABASE_NAME", default=""):
    # Lets two test runs on one server keep out of each other's way.
    DATABASES["default"]["TEST"] = {"NAME": test_name}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# only active while manage.py rebuild_projections runs (casino/eventstore/rebuild.py)
DATABASE_ROUTERS = ["casino.eventstore.rebuild.RebuildRouter"]

LANGUAGE_CODE = "en-us"
# The API speaks UTC everywhere; the room's own clock (business days in reports) is
# CASINO_TIME_ZONE.
TIME_ZONE = "UTC"
CASINO_TIME_ZONE = env.str("CASINO_TIME_ZONE", default="Europe/Prague")
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
WHITENOISE_USE_FINDERS = True  # STATIC_ROOT is only filled by collectstatic (production)
WHITENOISE_AUTOREFRESH = False
warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

# --- Casino ------------------------------------------------------------------------------
CASINO_CURRENCY = env.str("CASINO_CURRENCY", default="CZK")  # shown with amounts (exports)
# the gaming day starts at this local time (casino/gaming_day.py): cage balances and reports
CASINO_GAMING_DAY_STARTS = env.str("CASINO_GAMING_DAY_STARTS", default="00:00")  # e.g. 06:00
# what `manage.py up` calls to create the demo card room: () -> (dealer device, admin device)
CASINO_DEMO_ROOM = "tables.demo.ensure_demo_room"
# House-rule parameters (shared/rules/CATALOGUE.md "Parameters"), with the documents' defaults.
CASH_RETURN_WINDOW_SECONDS = env.int("CASH_RETURN_WINDOW_SECONDS", default=2 * 3600)  # SES-7
CASH_RETURN_OVERRIDES_MAX_BUYIN = env.bool("CASH_RETURN_OVERRIDES_MAX_BUYIN", default=True)
CASH_REFRESHMENT_MAX = env.int("CASH_REFRESHMENT_MAX", default=100)  # RAKE-6, CZK
CASH_CHIP_TRANSFERS_ALLOWED = env.bool("CASH_CHIP_TRANSFERS_ALLOWED", default=True)  # BI-9
MISDEAL_ACTION_THRESHOLD = env.int("MISDEAL_ACTION_THRESHOLD", default=2)  # MIS-1..3
MISDEAL_COUNTS_PASSIVE_ACTIONS = env.bool("MISDEAL_COUNTS_PASSIVE_ACTIONS", default=True)
MISDEAL_ALLOWED_AFTER_FLOP = env.bool("MISDEAL_ALLOWED_AFTER_FLOP", default=False)

DEVICE_TOKEN_CACHE_SECONDS = env.float("DEVICE_TOKEN_CACHE_SECONDS", default=2.0)

# --- REST API ------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "casino.auth.DeviceTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["casino.permissions.OperationPermission"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "casino.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino poker room API",
    "DESCRIPTION": (
        "System of record for a live poker room. Every write from a device carries an "
        "`Idempotency-Key`; errors share one shape `{code, rule, detail, ...}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI assets ship with the package: the docs work on a machine with no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several serializers have a field "kind" with different choices: name each set.
    "ENUM_NAME_OVERRIDES": {
        "ForcedBetKindEnum": "tables.serializers.FORCED_BET_KINDS",
        "OwedBlindKindEnum": "tables.serializers.OWED_BLIND_KINDS",
        "MissedBlindKindEnum": "tables.serializers.MISSED_BLIND_KINDS",
        "PrincipalKindEnum": "casino.admin_api.PRINCIPAL_KINDS",
        "TableAnteTypeEnum": "tables.domain.hand.ANTE_TYPES",
        "LevelAnteTypeEnum": "tournaments.serializers.LEVEL_ANTE_TYPES",
    },
}

# --- Realtime and timers -------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# The prefix keeps two deployments (or two test runs) on one Redis from hearing each other.
CHANNEL_LAYER_PREFIX = env.str(
    "CHANNEL_LAYER_PREFIX", default="casino" + (f"-{test_name}" if test_name else "")
)
CHANNEL_LAYERS = {
    "default": (
        {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_LAYER_PREFIX},
        }
        if REDIS_URL
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    )
}
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="memory://")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TIMEZONE = "UTC"

# --- waiting lists (issue #5) ----------------------------------------------------------------
# shared/rules/CATALOGUE.md section 4; see docs/waitlist.md.
WAITLIST_CALL_SECONDS = env.int("WAITLIST_CALL_SECONDS", default=300)  # WL-2 response time
# waitlist.no_show_action (WL-2): "down" WAITLIST_NO_SHOW_PLACES places (default 1: behind
# the next player called, the catalogue's default) or "bottom" of the list.
WAITLIST_NO_SHOW_ACTION = env.str("WAITLIST_NO_SHOW_ACTION", default="down")
WAITLIST_NO_SHOW_PLACES = env.int("WAITLIST_NO_SHOW_PLACES", default=1)
WAITLIST_MAX_MISSES = env.int("WAITLIST_MAX_MISSES", default=3)  # then off the list; 0: never
WAITLIST_INTEREST_THRESHOLD = env.int("WAITLIST_INTEREST_THRESHOLD", default=6)
WAITLIST_TURNOVER_WINDOW_SECONDS = env.int("WAITLIST_TURNOVER_WINDOW_SECONDS", default=2 * 3600)
WAITLIST_SWEEP_SECONDS = env.float("WAITLIST_SWEEP_SECONDS", default=30.0)

# --- beat: the sweeps that catch timers a lost worker missed ---------------------------------
CELERY_BEAT_SCHEDULE = {
    "waitlist-sweep-overdue-calls": {
        "task": "waitlist.sweep_overdue_calls",
        "schedule": WAITLIST_SWEEP_SECONDS,
    },
    "tournaments-sweep-clocks": {  # level ends, breaks, late registration by clock time
        "task": "tournaments.sweep_clocks",
        "schedule": env.float("TOURNAMENT_CLOCK_SWEEP_SECONDS", default=15.0),
    },
}

# --- health (casino/health.py) -------------------------------------------------------------
HEALTH_RELAY_CURSOR = env.str("HEALTH_RELAY_CURSOR", default="relay")
HEALTH_RELAY_MAX_LAG_SECONDS = env.float("HEALTH_RELAY_MAX_LAG_SECONDS", default=30.0)

# --- metrics (casino/metrics.py): /metrics answers this bearer token or a staff login -------
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# --- logs (casino/logs.py): JSON lines with request id, actor, device, stream, command id ----
LOG_FORMAT = env.str("LOG_FORMAT", default="json")  # or "console" (manage.py up)
LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING")
LOGGING = logs.logging_config(LOG_FORMAT, LOG_LEVEL)
logs.configure_structlog()
DJANGO_STRUCTLOG_TRUST_UPSTREAM_REQUEST_ID = True  # the tablet's X-Request-ID, as in events
DJANGO_STRUCTLOG_STATUS_START_LOG_LEVEL = 10  # DEBUG: one line per request, when it ends
DJANGO_STRUCTLOG_USER_ID_FIELD = None  # "actor" instead (a device and a user share pk values)
