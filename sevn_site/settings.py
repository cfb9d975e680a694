"""Settings: the embedded default (SQLite + in-memory channel layer) unless the environment
names PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) for scale-out. Every setting an operator
may need is an environment variable; the README's table lists them."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.http.request import split_domain_port
from django.utils.translation import gettext_lazy as _

from game.fair import signature

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


def _kept_secret(name: str, default_file: str, make: Callable[[], str]) -> str:
    """A secret from the environment (`name`), or one made for this installation and kept in a
    file only the server reads (`name`_FILE, by default `default_file` in the checkout): never a
    key anybody else knows, and all processes of one checkout share it."""
    key = os.environ.get(name, "").strip()
    if key:
        return key
    path = Path(os.environ.get(f"{name}_FILE", BASE_DIR / default_file))
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = make()
        # written whole beside it, then linked into place: the link fails if another process made
        # the file first, and no process ever reads a file that is still being written
        handle, draft_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
        draft = Path(draft_name)
        with open(handle, "w") as file:
            file.write(key)
        try:
            os.link(draft, path)
        except FileExistsError:  # another process made it first
            return path.read_text().strip()
        finally:
            draft.unlink()
        return key


def _new_vapid_key() -> str:
    """A new VAPID private key: P-256, its 32-byte secret in URL-safe base64 without padding."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec

    secret = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32, "big")
    return base64.urlsafe_b64encode(secret).decode().rstrip("=")


def _signing_key() -> str:
    """The private key game records are signed with (Ed25519, game.fair.signature): its public
    half is published at /record-key.txt, so it must stay the same for as long as records signed
    with it should count as this site's (every process the same; back the file up)."""
    key = signature.clean_key(_kept_secret("SEVN_SIGNING_KEY", ".signing_key", signature.new_private_key))
    if key is None:
        raise ImproperlyConfigured("SEVN_SIGNING_KEY (or its file) is not a private key: 64 hex digits")
    return key


DEBUG = _env_bool("DEBUG", False)
SECRET_KEY = _kept_secret("SECRET_KEY", ".secret_key", lambda: secrets.token_urlsafe(50))
SEVN_SIGNING_KEY = _signing_key()
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]
# The origins pages and sockets may come from. By default each allowed host on the port it is
# served on (a socket must come from the page's own origin: game.live.origins checks host and port).
# A form refused for its token: an htmx request is told so and tries once more (game.pages.stale)
CSRF_FAILURE_VIEW = "game.pages.stale.csrf_failure"
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("TRUSTED_ORIGINS", "").split(",") if o.strip()]
# The host a page asked for by an IP address is sent to (game.pages.middleware.CanonicalHostMiddleware):
# `make run` sets localhost:PORT, as a passkey needs a domain name and WebAuthn refuses 127.0.0.1.
# Empty (the default, and the tests' live servers): no redirect.
SEVN_CANONICAL_HOST = os.environ.get("SEVN_CANONICAL_HOST", "").strip()
if SEVN_CANONICAL_HOST and (_canonical := split_domain_port(SEVN_CANONICAL_HOST)[0]) not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(_canonical)

# HTTPS (behind the proxy, which terminates TLS): secure cookies, HSTS, redirect.
HTTPS = _env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS and _env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = _env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", False)
if _env_bool("BEHIND_PROXY", HTTPS):  # the proxy says which scheme the browser used
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# Everything is served from this site (vendored htmx, no CDN), so the policy can be strict.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'"
)

INSTALLED_APPS = [
    "daphne",
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth's passkey list ({% load humanize %})
    "django.forms",  # its widget templates, for FORM_RENDERER below
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",  # which sessions an account signed in to: a ban ends them all (services.accounts)
    "game",
    "rules",
]

MIDDLEWARE = [
    "game.pages.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "game.pages.middleware.ContentSecurityPolicyMiddleware",
    "game.pages.nul_bytes.RefuseNulMiddleware",  # a NUL anywhere in a request: 400, before any look-up
    "game.pages.middleware.CanonicalHostMiddleware",  # 127.0.0.1 -> SEVN_CANONICAL_HOST, where passkeys work
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "game.pages.stale.StalePageMiddleware",  # an htmx request from a page drawn for another account
    "game.pages.marks.BrowserMarkMiddleware",
    "game.pages.suspended.EndedAccountMiddleware",
    "game.pages.lookups.TableLookupMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "sevn_site.urls"
ASGI_APPLICATION = "sevn_site.asgi.application"

# Forms draw their widgets through TEMPLATES, so templates/ can re-word one of Django's own
# (auth/widgets: a password's summary puts its colon as the staff's language does).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's own two loaders, then each game's partials from its folder (game.registry).
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "game.registry.templates.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "game.pages.context.your_move_count",
                "game.pages.languages.language_links",
                "game.pages.waiting.waiting",  # the header's badges and the notices of what arrived
            ],
        },
    },
]

DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A bounded pool per process (psycopg 3's, through Django): at most DB_POOL_SIZE connections
    # whatever the number of threads Daphne runs requests and sockets in; a request waits up to
    # DB_POOL_TIMEOUT seconds for one. Processes x DB_POOL_SIZE must stay under PostgreSQL's
    # max_connections (100 by default), with room for migrations and psql.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps connections; Django must not
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": _env_int("DB_POOL_MIN", 2),
        "max_size": _env_int("DB_POOL_SIZE", 20),
        "timeout": _env_int("DB_POOL_TIMEOUT", 10),
        "max_idle": 300,
    }
    # A pooled connection is checked before it is handed out: after a PostgreSQL restart every
    # idle one is dead, and none of them may fail a player's move. One in use within the last two
    # seconds is not (the backend sevn_site.postgresql: a round trip saved on every move).
    DATABASES["default"]["ENGINE"] = "sevn_site.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # the pool's check does it
else:
    DATABASES["default"]["CONN_MAX_AGE"] = _env_int("DB_CONN_MAX_AGE", 600)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, for tests too: the browser tests' forked server shares it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis connections per process, all told: the channel layer's pool and the cache's pool share
# this number (game.delivery.redis_pools: a quarter, at least 2, for the cache); a burst waits.
REDIS_POOL_SIZE = _env_int("REDIS_POOL_SIZE", 50)
if REDIS_URL:
    from game.delivery.redis_pools import cache_share, layer_share

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.delivery.channel_layer.ServiceRedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "pool_size": layer_share(REDIS_POOL_SIZE),
                "capacity": 200,
            },
        }
    }
    # Counters every process shares (rate limits on lookups, logins, reports, chat), on one
    # bounded pool per process (Django's own would make one per thread and task).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "pool_class": "game.delivery.redis_pools.SharedCachePool",
                "max_connections": cache_share(REDIS_POOL_SIZE),
                "timeout": 5,  # seconds a call waits for a free connection
                "socket_timeout": 5,
                "socket_connect_timeout": 5,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Table sockets meet on this process-local layer; game.delivery.broadcast relays across processes.
CHANNEL_LAYERS["local"] = {"BACKEND": "game.delivery.channel_layer.LocalChannelLayer"}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

# Our own formats where Django's differ from what a language's readers expect (sevn_site/formats/).
FORMAT_MODULE_PATH = ["sevn_site.formats"]
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("de", _("German")),
    ("nl", _("Dutch")),
    ("pl", _("Polish")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# the site's own (static/), apps' (admin's, allauth's) and each game's (its folder's static/: game.registry.static)
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "game.registry.static.Finder",
]
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
# Static files go out compressed (gzip, Brotli) under hashed names cached for a year, from what
# collectstatic wrote (`make run` and deploys run it). Tests serve the files as they are: a
# manifest from an earlier collectstatic would name older files than the ones being tested.
# The page's ES modules import one another by relative path: served as they are in tests, and
# under hashed names, imports included, once collected (sevn_site/static_storage.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if "pytest" in sys.modules
        else "sevn_site.static_storage.ModuleManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts: django-allauth's flows (sign up, log in, log out, password reset, e-mail
# verification, passkeys) in the site's look (templates/allauth/). A guest who signs up or logs
# in keeps their seats, games and chat identity (game.accounts.signals).
# allauth's backend alone: it is Django's ModelBackend (permissions, staff's admin log-in by
# username) plus e-mail log-ins. With ModelBackend listed too, a wrong password was hashed twice,
# once by each, doubling the CPU a password-guessing flood costs.
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
ACCOUNT_ADAPTER = "game.accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# "mandatory" (a code sent by e-mail before the first log-in; signing up with a passkey needs
# it), "optional" or "none".
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("EMAIL_VERIFICATION", "mandatory").strip().lower()
# A code to type in is allauth's only with "mandatory" (its system check refuses it otherwise);
# "optional" and "none" send a link to click, when they send anything.
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = ACCOUNT_EMAIL_VERIFICATION == "mandatory"
# Sign in by a code sent by e-mail: what the owner of an account still has while wrong passwords
# from others pause its password (game.accounts.adapter: the page says so), as a passkey is.
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 2
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_SESSION_REMEMBER = True
# The e-mails' subjects begin "SEVN: " in each language's spacing (AccountAdapter.format_email_subject).
ACCOUNT_EMAIL_SUBJECT_PREFIX = "SEVN: "
# allauth's rate limits, per address ("ip") and per account ("key"): failed logins as
# SEVN_LOGINS_PER_MINUTE says, sign-ups SEVN_SIGNUPS_PER_HOUR per address.
ACCOUNT_RATE_LIMITS = {
    "login_failed": f"{_env_int('SEVN_LOGINS_PER_MINUTE', 10)}/m/ip,5/5m/key",
    "signup": f"{_env_int('SEVN_SIGNUPS_PER_HOUR', 20)}/h/ip",
}
MFA_SUPPORTED_TYPES = ["webauthn", "totp", "recovery_codes"]
# Two-factor is an authenticator app (TOTP) a person turns on knowingly, and off; a passkey signs
# in on its own and turns nothing on: no code is asked at a password log-in for it, and no
# recovery codes are made behind the person's back (game.accounts.mfa_adapter, .passkeys).
MFA_ADAPTER = "game.accounts.mfa_adapter.MFAAdapter"
MFA_RECOVERY_CODES_SHOW_ONCE = True  # shown once as two-factor is turned on; new ones may be made
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_PASSKEY_SIGNUP_ENABLED = ACCOUNT_EMAIL_VERIFICATION == "mandatory"  # allauth asks for it
# A passkey is bound to the site's origin: plain http only where there is no HTTPS (a laptop).
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = _env_bool("WEBAUTHN_ALLOW_INSECURE_ORIGIN", not HTTPS)
MFA_TOTP_ISSUER = "SEVN"
# The passkey forms, with the key's name labelled in the site's words (allauth leaves it "Name").
MFA_FORMS = {
    "add_webauthn": "game.accounts.mfa_forms.AddPasskeyForm",
    "signup_webauthn": "game.accounts.mfa_forms.SignupPasskeyForm",
    "edit_webauthn": "game.accounts.mfa_forms.EditPasskeyForm",
}

# E-mail (sign-up codes, password resets): printed on the console unless EMAIL_HOST names an
# SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = _env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
    EMAIL_USE_SSL = _env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "SEVN <noreply@localhost>")
# Where a suspended person writes to appeal (their suspension page says it: game.pages.suspended).
SEVN_APPEAL_EMAIL = os.environ.get("SEVN_APPEAL_EMAIL", "appeals@localhost").strip()

# How long bots "think" before they move, in ms (a table setting; tests use 0).
SEVN_BOT_DELAY_MS = int(os.environ.get("SEVN_BOT_DELAY_MS", "900"))

# What one client may ask (game.runtime.limits): a socket's messages per second and burst (then dropped;
# closed after SEVN_SOCKET_CLOSE_AFTER dropped within 10 s), sockets per address per process,
# table-code lookups that find nothing and failed logins per address per minute.
SEVN_SOCKET_RATE = float(os.environ.get("SEVN_SOCKET_RATE", "10"))
SEVN_SOCKET_BURST = _env_int("SEVN_SOCKET_BURST", 20)
SEVN_SOCKET_CLOSE_AFTER = _env_int("SEVN_SOCKET_CLOSE_AFTER", 200)
# Frames Daphne may queue for a socket's consumer (game.live.transport): above the consumer's own
# allowance, so that a person clicking fast hears "slow down" while a flood never fills memory.
SEVN_FRAME_RATE = float(os.environ.get("SEVN_FRAME_RATE", "50"))
SEVN_FRAME_BURST = _env_int("SEVN_FRAME_BURST", 100)
SEVN_MAX_SOCKETS_PER_ADDRESS = _env_int("SEVN_MAX_SOCKETS_PER_ADDRESS", 64)
# A signed-in person's page sockets (/ws/me/, one per open page) per account, per process; per
# address they count up to SEVN_MAX_SOCKETS_PER_ADDRESS, apart from table sockets.
SEVN_MAX_PERSON_SOCKETS = _env_int("SEVN_MAX_PERSON_SOCKETS", 20)
# When a process is full (game.runtime.capacity): it turns new table sockets away, "busy, retrying",
# at this many table sockets open, this many being let in at once, or once work waits this many
# ms to start (0: no such limit).
SEVN_MAX_SOCKETS = _env_int("SEVN_MAX_SOCKETS", 0)
SEVN_MAX_CONNECTING = _env_int("SEVN_MAX_CONNECTING", 50)
SEVN_BUSY_DELAY_MS = _env_int("SEVN_BUSY_DELAY_MS", 1000)
SEVN_LOOKUPS_PER_MINUTE = _env_int("SEVN_LOOKUPS_PER_MINUTE", 30)
SEVN_LOGINS_PER_MINUTE = _env_int("SEVN_LOGINS_PER_MINUTE", 10)
# Reports a client address, and a person, may send in an hour (then refused until it is over).
SEVN_REPORTS_PER_HOUR = _env_int("SEVN_REPORTS_PER_HOUR", 20)
# The proxies whose X-Forwarded-For names the client (addresses or networks, comma-separated):
# from anyone else the connection's own address counts (game.runtime.proxy).
SEVN_TRUSTED_PROXIES = os.environ.get("SEVN_TRUSTED_PROXIES", "127.0.0.1")
# What one account may send per hour: friend requests, and invitations to tables.
SEVN_FRIEND_REQUESTS_PER_HOUR = _env_int("SEVN_FRIEND_REQUESTS_PER_HOUR", 30)
SEVN_INVITATIONS_PER_HOUR = _env_int("SEVN_INVITATIONS_PER_HOUR", 60)
# New tables per hour (the form, and "Play again"): per person, and per client address (0: no limit).
SEVN_TABLES_PER_HOUR = _env_int("SEVN_TABLES_PER_HOUR", 30)
# Turn-based tables a person may sit at at once (in their lobby or playing): one more is refused.
SEVN_MAX_TURN_BASED_TABLES = _env_int("SEVN_MAX_TURN_BASED_TABLES", 30)
SEVN_TABLES_PER_HOUR_PER_ADDRESS = _env_int("SEVN_TABLES_PER_HOUR_PER_ADDRESS", 120)

# Alerts off the site (game.services.alerts, game.delivery.webpush): Web Push signed with the
# site's VAPID key (a P-256 private key, 32 bytes in URL-safe base64; made once and kept in
# .vapid_key like .secret_key, or SEVN_VAPID_KEY), sent to the push services' hosts only.
SEVN_VAPID_KEY = _kept_secret("SEVN_VAPID_KEY", ".vapid_key", lambda: _new_vapid_key())
SEVN_VAPID_SUBJECT = os.environ.get("SEVN_VAPID_SUBJECT", "").strip() or "mailto:" + (
    DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">").strip()
)
# Hosts a subscription may name (a suffix matches subdomains): the browsers' push services. Any
# other endpoint is refused when the browser subscribes, so that the site posts nowhere else.
SEVN_PUSH_HOSTS = [
    h.strip()
    for h in os.environ.get(
        "SEVN_PUSH_HOSTS",
        "fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,"
        "notify.windows.com,push.apple.com",
    ).split(",")
    if h.strip()
]
SEVN_PUSH_ALLOW_HTTP = _env_bool("SEVN_PUSH_ALLOW_HTTP", False)  # plain-http endpoints: a local receiver in tests
# "Your move" waits this long for a quick reply before it is pushed (a reply sends nothing).
SEVN_PUSH_GRACE_SECONDS = _env_int("SEVN_PUSH_GRACE_SECONDS", 20)
# The outbox's sending threads per process: a push service answers in tens of ms, most of it waiting.
SEVN_PUSH_THREADS = _env_int("SEVN_PUSH_THREADS", 32)
# The site's address in e-mails (links to tables, settings, the unsubscribe link).
SEVN_SITE_URL = os.environ.get("SEVN_SITE_URL", "").strip().rstrip("/") or (
    "https://" + ALLOWED_HOSTS[0] if HTTPS and ALLOWED_HOSTS else "http://" + (SEVN_CANONICAL_HOST or "localhost:8000")
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
