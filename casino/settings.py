"""Django settings, read from the environment (django-environ).

Embedded defaults need no server: SQLite under ``var/``, an in-process channel layer and an
in-memory Celery broker. Production sets ``DATABASE_URL`` (PostgreSQL via psycopg 3),
``REDIS_URL`` (channel layer), ``CELERY_BROKER_URL``, ``SECRET_KEY`` and ``DEBUG=false``.
All stored times are UTC (``USE_TZ``).
"""

import contextlib
import re
import warnings
from pathlib import Path

import environ
from drf_spectacular.types import OpenApiTypes

from casino import logs

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# DEBUG is off unless asked for (``DEBUG=true``); ``manage.py up`` turns it on for itself.
DEBUG = env.bool("DEBUG", default=False)
BUILTIN_SECRET_KEY = "dev-only-insecure-key-change-me-in-production-please"
SECRET_KEY = env.str("SECRET_KEY", default=BUILTIN_SECRET_KEY)
# Without DEBUG, serving (ASGI, the relay, a Celery worker) and ``check --deploy`` refuse the
# built-in key: casino.security.require_secret_key.
# HMAC key of aggregate snapshots (casino.eventstore.snapshots); by default derived from
# SECRET_KEY, so rotating either only costs one fold from the log per stream.
SNAPSHOT_KEY = env.str("SNAPSHOT_KEY", default="") or f"snapshot:{SECRET_KEY}"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

# --- transport security (issue #12 C) -----------------------------------------------------
# Production-safe unless DEBUG: HTTPS only, secure cookies, HSTS. `up` (DEBUG on) serves plain
# http on localhost. Behind a TLS proxy set SECURE_PROXY_SSL_HEADER_ENABLED=true.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
# A console login lasts a shift (12 h) unless set otherwise; Django's two weeks is long for a
# shared cashier or floor desk. Its live sockets close when it ends.
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=12 * 3600)
# how often an open socket re-checks its console session or its device token (the backstop
# for a revocation message that never reached this process)
SESSION_SOCKET_CHECK_SECONDS = env.float("SESSION_SOCKET_CHECK_SECONDS", default=15.0)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = env.list("SECURE_REDIRECT_EXEMPT", default=[])
if env.bool("SECURE_PROXY_SSL_HEADER_ENABLED", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
X_FRAME_OPTIONS = "DENY"

# --- request bodies (issue #12 A) -----------------------------------------------------------
# casino.api.parsers.BoundedJSONParser answers 413 above this many bytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

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
    "axes",  # login throttling (issue #12 C): casino.api.staff.LoginView
    "casino",
    "casino.eventstore",
    "tables",
    "cashgame",
    "waitlist",
    "tournaments",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # first: HTTP metrics
    "casino.api.fallback.request_guard",  # unknown Host, chunked body: JSON 4xx, no debug page
    "django.middleware.security.SecurityMiddleware",
    # static files (Swagger UI, the consoles) straight from the app folders: nothing to
    # collect before `up`; production may still run collectstatic into STATIC_ROOT.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # consoles (issue #13): the language from the session/cookie (set_language) or the browser
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_structlog.middlewares.RequestMiddleware",  # request id; one line per request
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
    # last: turns a locked-out login into the JSON 429 of casino.api.throttle
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # first: refuses a locked-out username or address before the password is checked
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Staff passwords set through the API (create_staff, update_staff) are checked by these.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": env.int("PASSWORD_MIN_LENGTH", default=10)},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- login throttling (django-axes) ---------------------------------------------------------
# After AXES_FAILURE_LIMIT failed logins for one username, or from one address, further
# logins of that username / from that address answer 429 ``too_many_login_failures`` for
# AXES_COOLOFF_MINUTES; a successful login of the user resets his count.
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_MINUTES", default=15.0) / 60  # hours
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "casino.api.throttle.locked_out"
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

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
                "django.template.context_processors.i18n",
                "casino.consoles.console_context",
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
else:
    # Server-side binding sends values apart from the SQL, so psycopg need not quote them
    # into it, and a statement run DB_PREPARE_THRESHOLD times on a connection is prepared:
    # PostgreSQL stops parsing and planning the dealer's INSERTs (issue #11; measured in
    # docs/realtime.md, "Hot path"). Django's default is client-side binding, unprepared.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "server_side_binding": env.bool("DB_SERVER_SIDE_BINDING", default=True),
            "prepare_threshold": env.int("DB_PREPARE_THRESHOLD", default=5),
        }
    )
    if env.bool("DB_POOL", default=True):
        # Under ASGI each request may run on another thread, where a persistent per-thread
        # connection is not reused: a pool (psycopg_pool, Django's built-in support) is.
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": env.int("DB_POOL_MIN", default=2),
            "max_size": env.int("DB_POOL_MAX", default=20),
        }
        DATABASES["default"]["CONN_MAX_AGE"] = 0
    else:
        DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
        DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
# Threads per server process that run HTTP requests (casino/asgi.py, OneHopASGIHandler):
# each holds at most one pooled database connection while it serves, so keep it at or below
# DB_POOL_MAX. Requests are mostly CPU under the GIL; more threads only add contention with
# the event loop that carries the sockets (docs/realtime.md, "Hot path").
HTTP_THREADS = env.int("HTTP_THREADS", default=2)
# sys.setswitchinterval for the server processes (seconds; CPython's default is 0.005).
GIL_SWITCH_INTERVAL = env.float("GIL_SWITCH_INTERVAL", default=0.0005)
if test_name := env.str("TEST_DATABASE_NAME", default=""):
    # Lets two test runs on one server keep out of each other's way.
    DATABASES["default"]["TEST"] = {"NAME": test_name}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# only active while manage.py rebuild_projections runs (casino/eventstore/rebuild.py)
DATABASE_ROUTERS = ["casino.eventstore.rebuild.RebuildRouter"]

LANGUAGE_CODE = "en"
# The EN/CS choice outlives the browser: a tablet whose browser restarted was back in English
# (Django's language cookie lasts the browser session by default; found by QA).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# The consoles speak English and Czech (the house rules come from a Prague card room); each
# app keeps its catalogue in <app>/locale/cs/LC_MESSAGES/, committed compiled (.mo): nothing
# to build at start-up.
LANGUAGES = [("en", "English"), ("cs", "Čeština")]
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
with contextlib.suppress(OSError):  # whitenoise warns about a missing STATIC_ROOT
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# A static file (whitenoise's FileResponse) is read by a synchronous iterator; Django's ASGI
# handler then warns at every first load of a console, in the operator's terminal (QA). The
# files are small and cached by the browser: iterating them in a thread is what it does.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)

# --- Casino ------------------------------------------------------------------------------
CASINO_CURRENCY = env.str("CASINO_CURRENCY", default="CZK")  # shown with amounts (exports)
# the room's cash chips (CZK), e.g. CASINO_CHIP_SET=25,100,500,1000,5000: the dealer
# tablet offers these for the chips a player pushes (BET-17..24); any other is typed in
_CHIPS = env.list("CASINO_CHIP_SET", default=["1", "5", "25", "100", "500", "1000", "5000",
                                               "25000", "100000"])  # fmt: skip
if not _CHIPS or not all(re.fullmatch(r"\s*0*[1-9][0-9]{0,11}\s*", v) for v in _CHIPS):
    raise environ.ImproperlyConfigured(
        f"CASINO_CHIP_SET={','.join(_CHIPS)}: chip values are whole amounts above 0, "
        "comma-separated"
    )
CASINO_CHIP_SET = sorted({int(v) for v in _CHIPS})
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
    "DEFAULT_SCHEMA_CLASS": "casino.api.autoschema.BoundedListsAutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "casino.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "casino.api.negotiation.FormatNegotiation",
    # JSON only, bounded in size and depth (413 / 400, never 500)
    "DEFAULT_PARSER_CLASSES": ["casino.api.parsers.BoundedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_METADATA_CLASS": "casino.api.metadata.AllowMetadata",
}
SPECTACULAR_SETTINGS = {
    "PATH_CONVERTER_OVERRIDES": {"uuid_id": OpenApiTypes.UUID},  # casino.api.converters
    "TITLE": "Casino poker room API",
    "DESCRIPTION": (
        "System of record for a live poker room. Every write from a device carries an "
        "`Idempotency-Key`; errors share one shape `{code, rule, detail, ...}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # every operation documents the refusals it can answer; request bodies are closed objects
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.api.openapi.document_refusals",
    ],
    # Swagger UI assets ship with the package: the docs work on a machine with no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several serializers have a field "kind" with different choices: name each set.
    "ENUM_NAME_OVERRIDES": {
        "ForcedBetKindEnum": "tables.serializers.FORCED_BET_KINDS",
        "ClockExpiryEnum": "tables.serializers.CLOCK_EXPIRIES",
        "OwedBlindKindEnum": "tables.serializers.OWED_BLIND_KINDS",
        "MissedBlindKindEnum": "tables.serializers.MISSED_BLIND_KINDS",
        "PrincipalKindEnum": "casino.api.staff.PRINCIPAL_KINDS",
        "RoleEnum": "casino.models.Role.choices",
        "StaffRoleEnum": "casino.api.staff.STAFF_ROLES",
        "TableAnteTypeEnum": "tables.domain.hand_state.ANTE_TYPES",
        "TableGameEnum": "tables.domain.table.TABLE_GAMES",
        "LevelAnteTypeEnum": "tournaments.serializers.LEVEL_ANTE_TYPES",
        "BountyKindEnum": "tournaments.serializers.BOUNTY_KINDS",
        "PenaltyKindEnum": "tournaments.serializers.PENALTY_KINDS",
        "TournamentStatusEnum": "tournaments.serializers.TOURNAMENT_STATUSES",
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
            # Redis pub/sub: a group send is one PUBLISH and each server process reads all
            # its sockets' messages on one subscription, where the list-based layer spent
            # several Redis round trips per message on both sides (issue #11: +20-35 %
            # actions/s, push p99 halved at 10 tables). It delivers at most once; the
            # relay numbers each group's messages so a feed that lost one reads the log
            # (casino.realtime.consumers). docs/realtime.md, "Where pushes come from".
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # A dead connection is found by TCP keepalive and a PING before
                        # reusing one idle for 15 s; an idle subscription stays up (the
                        # reader polls it every 0.1 s, well inside the 30 s timeout).
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                        "socket_keepalive": True,
                        "health_check_interval": 15,
                    }
                ],
                "prefix": CHANNEL_LAYER_PREFIX,
            },
        }
        if REDIS_URL
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    )
}
# The embedded ``up`` runs the push relay inside each server process (casino.lifespan).
EMBEDDED_RELAY = env.bool("CASINO_EMBEDDED_RELAY", default=False)
# Seconds between the relay's reads on SQLite when no commit of its own process woke it:
# the only other writers of a one-process `up` are management commands. `up --workers N`
# (N > 1, with REDIS_URL) sets 0.05, since every worker's commits are foreign to the others.
RELAY_SQLITE_POLL_SECONDS = env.float("CASINO_RELAY_SQLITE_POLL_SECONDS", default=0.5)
# with a host: kombu warned "No hostname was supplied" at every start of `up`
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="memory://localhost/")
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
# WL-2: after a no-show the next name is called for the same seat at once (False: the floor
# calls by hand)
WAITLIST_CALL_NEXT_ON_MISS = env.bool("WAITLIST_CALL_NEXT_ON_MISS", default=True)
WAITLIST_INTEREST_THRESHOLD = env.int("WAITLIST_INTEREST_THRESHOLD", default=6)
WAITLIST_TURNOVER_WINDOW_SECONDS = env.int("WAITLIST_TURNOVER_WINDOW_SECONDS", default=2 * 3600)
WAITLIST_SWEEP_SECONDS = env.float("WAITLIST_SWEEP_SECONDS", default=30.0)
# A call's timer that runs this long after its deadline proves the house's timers were down
# (server or worker outage): the call is renewed, not charged as a miss (CXL-10, WL-2).
WAITLIST_LATE_TIMER_SECONDS = env.float(
    "WAITLIST_LATE_TIMER_SECONDS", default=max(60.0, 2 * WAITLIST_SWEEP_SECONDS)
)

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
    "eventstore-purge-command-records": {  # stored results of idempotent commands
        "task": "eventstore.purge_command_records",
        "schedule": 3600.0,
    },
}
# How long a command's first result is kept for a device's retry (casino/eventstore/commands.py)
IDEMPOTENCY_RETENTION_HOURS = env.float("IDEMPOTENCY_RETENTION_HOURS", default=48.0)

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
DJANGO_STRUCTLOG_IP_LOGGING_ENABLED = False  # casino.logs.bind_request_ip binds REMOTE_ADDR
DJANGO_STRUCTLOG_USER_ID_FIELD = None  # "actor" instead (a device and a user share pk values)
