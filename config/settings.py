"""The one settings module. Everything that differs between a laptop, CI and
production comes from environment variables (see `.env.example`).

No variables set gives the embedded default: SQLite, Celery tasks run eagerly in the
web process, local-memory cache. DATABASE_URL switches to PostgreSQL (psycopg 3);
REDIS_URL makes Redis the Celery broker, result backend and cache, and tasks then run
in a real `celery worker`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

from .env import ConfigError, env_bool, env_int, env_list, env_str
from .services import check_redis, database_from_url
from .venue import venue_hosts

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)


def dev_secret_key(path: Path) -> str:
    """The quick start's secret (DEBUG without SECRET_KEY): made once and kept, readable by
    its owner only, so that a restart keeps everyone logged in. Written aside and linked
    into place: two processes starting at once both read the one that got there first."""
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        fd, aside = tempfile.mkstemp(dir=path.parent)  # mode 0600
        try:
            os.write(fd, ("dev-" + secrets.token_urlsafe(50)).encode())
            os.close(fd)
            with contextlib.suppress(FileExistsError):
                os.link(aside, path)
        finally:
            os.unlink(aside)
    return path.read_text().strip()


# The venue mode (config/bin/venue, docs/venue.md): DEBUG off on the organiser's laptop,
# its secret kept in var/secret_key as the quick start's (more in the block at the end).
VENUE = env_bool("AGON_VENUE", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG and not VENUE:
        raise ConfigError(
            "SECRET_KEY is not set: production mode (DEBUG=false) refuses to start without "
            'one; make one with: python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    SECRET_KEY = dev_secret_key(BASE_DIR / "var" / "secret_key")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
if VENUE:  # the laptop's own names and its addresses on the room's network
    ALLOWED_HOSTS += venue_hosts()
if not DEBUG and not ALLOWED_HOSTS:
    raise ConfigError("ALLOWED_HOSTS is not set: production mode needs the site's host names")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# A form refused for its token: the site's own 403 page, saying to reload (config/errors.py).
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

INSTALLED_APPS = [
    # First, as Channels asks: `runserver` then serves the ASGI application (pages and
    # the live tables' sockets) on the embedded default too.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "channels",
    "tournaments",
    # The concerns of the tournaments app, each with its templates and static files
    # (docs/architecture.md).
    "tournaments.core",
    "tournaments.results",
    "tournaments.desk",
    "tournaments.standings",
    "tournaments.transfer",
    "tournaments.webhooks",
    "tournaments.link",
    "games",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files, answered here already compressed (gzip and Brotli, made at collectstatic).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses every other answer (pages, JSON) for a client that accepts gzip: outside
    # all that writes a body, so the standings polls' early answers too. BREACH: kept on,
    # as Django masks the CSRF token anew in each answer and pads each compressed body with
    # 0-99 random bytes, and no page that shows a secret (a report link) echoes text a
    # request chooses (docs/operations.md, "Compression"). It weakens an ETag (W/"…"): the
    # pollers' If-None-Match is compared weakly (tournaments/core/poll.py, `etag_matches`).
    "django.middleware.gzip.GZipMiddleware",
    # PostgreSQL unreachable in a view: 503 with Retry-After, JSON under /api/.
    "config.unavailable.DatabaseUnavailableMiddleware",
    # Answers unchanged standings polls before sessions, auth and the API framework.
    "tournaments.standings.middleware.StandingsPollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware: picks the language from the cookie set
    # by the language switcher (`set_language`), else from Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # request.htmx: a page's own htmx request (a fragment to answer) or a page load.
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as its documentation asks: answers a locked-out login with a 429.
    "axes.middleware.AxesMiddleware",
]

# --- Content-Security-Policy (django-csp) ---------------------------------------------
# Everything comes from our own origin: no inline script or style, no CDN; images may be
# data: URIs (QR codes, the board's pictures). htmx (vendored) is told in base.html's
# htmx-config not to eval and not to inject its indicator style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Login throttling (every login: the site's, the admin's, the API's token) ----------
# django-axes counts failed logins per user name and address (a shared club address
# does not lock everyone out) in the database, so it works with Redis down too.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = env_int("LOGIN_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.clientip.client_ip"
AXES_VERBOSE = False

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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

# --- Database -------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
DATABASES = {"default": database_from_url(DATABASE_URL, BASE_DIR)}
if not DATABASE_URL:
    (BASE_DIR / "var").mkdir(exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery broker, result backend and cache -------------------------------
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL and env_bool("REDIS_CHECK_AT_START", True):
    check_redis(REDIS_URL)

if REDIS_URL:
    CACHES = {
        "default": {
            # Fails open: Redis down is a cache miss, never a 500 (config/cache.py).
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "agon"),
            # A Redis that hangs must not hang the request with it.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Live tables: the sockets' channel layer (Django Channels) ------------------------
# Redis carries a saved ply to every live process; each process subscribes once per
# tournament its sockets follow and hands each message to its sockets itself
# (config/live_layer.py: channels_redis's layers did O(sockets) work per message and
# socket). Without Redis (the embedded default: one process) the in-memory layer does.
# "send" is the layer the services publish on after a commit: short timeouts, so that a
# Redis that hangs costs a write half a second, never the write itself (PostgreSQL is
# the record; pages poll).
ASGI_APPLICATION = "config.asgi.application"
if REDIS_URL:
    _LIVE_REDIS = env_str("LIVE_REDIS_URL", REDIS_URL)

    def _live_layer(connect: float, read: float) -> dict[str, object]:
        return {
            "BACKEND": "config.live_layer.FanoutChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": _LIVE_REDIS,
                        "socket_connect_timeout": connect,
                        "socket_timeout": read,
                    }
                ],
                "prefix": env_str("CACHE_KEY_PREFIX", "agon") + ":live",
                # A socket that falls this many messages behind is closed (its page
                # polls, reconnects and reads the state again).
                "capacity": 100,
                # A subscription silent this long is asked for a PING, and given up
                # (its sockets closed: their pages catch up) when silent twice as long.
                "heartbeat": 15,
            },
        }

    # Subscribing takes at most the connect and the read timeout (1.5 s), under the
    # consumer's 2 s for joining (tournaments/results/consumers.py): a subscription that
    # hangs is given up by the layer, which starts afresh, before the consumer retries.
    CHANNEL_LAYERS = {"default": _live_layer(0.5, 1), "send": _live_layer(0.5, 0.5)}
else:
    # One layer: in-memory layers of two names would not reach each other.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Open sockets one address may hold; beyond, a socket is closed with 4429 and its page
# polls (docs/operations.md). A venue behind one address may need more.
LIVE_SOCKETS_PER_ADDRESS = env_int("LIVE_SOCKETS_PER_ADDRESS", 20)
# How long a process reuses its read of a round's games for visitors' round pages
# (tournaments/core/poll.py, `recent_games_state`): a write in another process shows on
# them at most this much later; 0 reads every time.
PUBLIC_ROUND_LAG_MS = env_int("PUBLIC_ROUND_LAG_MS", 1000)

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Without Redis the tasks run in-process and their errors propagate to the caller.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# A job is acknowledged only once it is done, so a worker killed mid-job loses nothing;
# every job is idempotent so running it twice is harmless.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# With Redis, a task whose worker died unacknowledged is delivered again after this many
# seconds; it must be longer than the longest job (a full recomputation of a million
# games takes about two minutes), or a slow job would start a second time while it runs
# (harmless: the job row is locked and a done job does nothing, but wasted work).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)}
# Sending a task from a web request gives up after about a second when Redis is down:
# the result backend's default retries (20 times, a second apart, to subscribe for the
# task's result) kept an organiser's "close the round" waiting 20 s. The job row is the
# outbox and holds the outcome; the sweep sends it once Redis is back (ratings/services.py).
_QUICK_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.25, "interval_max": 0.5}
CELERY_TASK_PUBLISH_RETRY_POLICY = _QUICK_RETRY
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": _QUICK_RETRY}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The sweep: every RATING_SWEEP_SECONDS, Celery beat re-queues rating jobs still queued
# RATING_SWEEP_GRACE_SECONDS after they were committed (broker down at the time, web
# process killed before publishing, worker killed mid-job). docs/operations.md.
RATING_SWEEP_SECONDS = env_int("RATING_SWEEP_SECONDS", 60)
RATING_SWEEP_GRACE_SECONDS = env_int("RATING_SWEEP_GRACE_SECONDS", 30)
# Webhooks (docs/league.md, "Webhooks"; tournaments/webhooks/): an attempt's timeout
# (connecting and each read; the whole answer within twice it), the retries' first delay
# (doubled after each failed attempt) and their number, the sweep's period, how long the
# delivery log is kept, and whether an endpoint may be a loopback or private address
# (false in production: a club's organiser must not reach the site's own network; the
# tests' receivers listen on loopback).
WEBHOOK_TIMEOUT_SECONDS = env_int("WEBHOOK_TIMEOUT_SECONDS", 5)
WEBHOOK_RETRY_BASE_SECONDS = env_int("WEBHOOK_RETRY_BASE_SECONDS", 30)
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 8)
WEBHOOK_SWEEP_SECONDS = env_int("WEBHOOK_SWEEP_SECONDS", 30)
WEBHOOK_LOG_DAYS = env_int("WEBHOOK_LOG_DAYS", 30)
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", False)
CELERY_BEAT_SCHEDULE = {
    "rating-jobs-sweep": {
        "task": "ratings.tasks.rating_jobs_sweep_task",
        "schedule": float(RATING_SWEEP_SECONDS),
    },
    # Webhook deliveries that are due and whose task was lost (docs/league.md, "Webhooks").
    "webhook-deliveries-sweep": {
        "task": "tournaments.webhooks.tasks.webhook_deliveries_sweep_task",
        "schedule": float(WEBHOOK_SWEEP_SECONDS),
    },
    # Idempotency keys of offline queues are kept 7 days (docs/offline.md).
    "idempotency-keys-sweep": {
        "task": "tournaments.tasks.idempotency_sweep_task",
        "schedule": 3600.0,
    },
    # No-shows of events that forfeit them automatically (docs/results.md, "No-shows"):
    # each minute, by the server's clock.
    "no-show-sweep": {
        "task": "tournaments.tasks.no_show_sweep_task",
        "schedule": 60.0,
    },
}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"

# --- Auth, i18n, static ---------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice is kept in this cookie for a year, so it follows a user from
# visit to visit (and survives logging in and out).
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "var" / "static")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_USE_FINDERS = DEBUG
# Our ES modules import each other by their plain names ("./draw.js"): whitenoise serves
# those beside the hashed copies (briefly cached). Django's rewriting of module imports
# (support_js_module_import_aggregation) cannot be used: it fails on django-htmx's files.
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

# --- REST API -----------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # How many proxies in front of the site set X-Forwarded-For; 0 (the default) means
    # none is trusted and throttles count the connecting address itself.
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
        "rest_framework.filters.SearchFilter",
    ],
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "writes": env_str("THROTTLE_WRITES", "600/minute"),
        "login": env_str("THROTTLE_LOGIN", "10/minute"),
        # The pages' writes (tournaments/core/throttles.py): per link or signed-in user, and
        # per address; a venue's players may all share one address.
        "link_writes": env_str("THROTTLE_LINK_WRITES", "600/minute"),
        "address_writes": env_str("THROTTLE_ADDRESS_WRITES", "3000/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Agon API",
    "DESCRIPTION": "Pentagame tournaments, club evenings, games and ratings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: the site must work without any CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"RatingSystemEnum": "tournaments.models.RATING_SYSTEMS"},
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Production hardening (`manage.py check --deploy` passes with DEBUG=false) --------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# --- The venue mode (config/bin/venue, docs/venue.md) ---------------------------------
# Production's settings above, on a laptop the phones reach by plain http on the room's
# Wi-Fi: its own database (an evening starts empty: no demo, no known password), cookies
# a browser keeps over http, no redirect to an https that is not there, no proxy in front.
if VENUE:
    if not DATABASE_URL:
        DATABASES["default"]["NAME"] = BASE_DIR / "var" / "venue.sqlite3"
    SECURE_SSL_REDIRECT = False
    SECURE_HSTS_SECONDS = 0
    SECURE_PROXY_SSL_HEADER = None
    SESSION_COOKIE_SECURE = False
    CSRF_COOKIE_SECURE = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own loggers print through the root's handler only: Django's default console
    # handler (DEBUG only) beside it printed every line of the quick start twice.
    "loggers": {"django": {"handlers": []}},
}
