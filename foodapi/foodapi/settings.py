"""Settings for the sous food API.

Everything deployment-specific comes from the environment (see README.md):

- FOOD_API_DB            SQLite file path (default: db.sqlite3 beside manage.py)
- FOOD_API_SECRET_KEY    Django secret key; required unless FOOD_API_DEBUG=true
- FOOD_API_DEBUG         "true" turns on Django debug mode (never in production)
- FOOD_API_ALLOWED_HOSTS comma-separated host names (default localhost,127.0.0.1,[::1])
- FOOD_API_TIME_ZONE     zone used for "today" in expiry warnings (default UTC)
"""
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name, default):
    value = os.environ.get(name, "")
    items = [part.strip() for part in value.split(",") if part.strip()]
    return items or default


DEBUG = _env_bool("FOOD_API_DEBUG", False)

SECRET_KEY = os.environ.get("FOOD_API_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "FOOD_API_SECRET_KEY is not set (a built-in development key is only "
            "allowed with FOOD_API_DEBUG=true)."
        )
    SECRET_KEY = "insecure-development-key-only-for-FOOD_API_DEBUG"

ALLOWED_HOSTS = _env_list("FOOD_API_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "kitchen",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# API routes accept a missing trailing slash themselves (see kitchen/urls.py);
# CommonMiddleware's redirect would turn a POST into a body-less GET.
APPEND_SLASH = False

ROOT_URLCONF = "foodapi.urls"

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
            ],
        },
    },
]

WSGI_APPLICATION = "foodapi.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("FOOD_API_DB") or str(BASE_DIR / "db.sqlite3"),
        "OPTIONS": {
            # Seconds a writer waits for SQLite's lock before failing; gunicorn
            # runs a few workers against one file, and writes are short.
            "timeout": 20,
            # Take the write lock at BEGIN so two workers never deadlock by
            # both upgrading a read transaction (Django 5.1+).
            "transaction_mode": "IMMEDIATE",
        },
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
# A blank value (compose passes "" for an empty deploy/.env entry) means the
# default too: Django would reject "" as a zone name.
TIME_ZONE = os.environ.get("FOOD_API_TIME_ZONE", "").strip() or "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    # Token only: the API has no browser clients, so no session/CSRF path.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "kitchen.errors.exception_handler",
    # Quantities travel as JSON numbers, not strings, so clients decode them
    # straight into floats.
    "COERCE_DECIMAL_TO_STRING": False,
    "UNAUTHENTICATED_USER": None,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        # Keep request tracebacks in the log, where they belong, not in responses.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
    },
}
