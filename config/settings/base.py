"""Django core settings: apps, middleware, templates, languages, static files, auth."""

from pathlib import Path

import django

from config.settings.env import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
# A fixed development key is fine for `make run` on a laptop; production sets DJANGO_SECRET_KEY
# (`manage.py check --deploy` fails without it, and a DATABASE_URL site warns at start: see
# config/checks.py).
DEV_SECRET_KEY = "dev-only-not-secret-" + "x" * 40
SECRET_KEY = env_str("DJANGO_SECRET_KEY", DEV_SECRET_KEY)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver,[::1]")
if not env_str("DJANGO_ALLOWED_HOSTS") and not env_str("DATABASE_URL"):
    # `make run` on a laptop (no DATABASE_URL): friends' phones on the same Wi-Fi reach it at its
    # network address when it listens there (`make run HOST=0.0.0.0`; found by an audit: every
    # phone got "Bad request"). A real site names its hosts in DJANGO_ALLOWED_HOSTS.
    from config.lan import laptop_hosts

    ALLOWED_HOSTS += laptop_hosts()
CSRF_TRUSTED_ORIGINS = env_list(
    "DJANGO_CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000"
)
# Behind a proxy that ends HTTPS and says so in X-Forwarded-Proto (README, "Running on
# PostgreSQL and Redis"): requests count as secure (a form's Origin https://... then matches the
# host; found by an audit: every login behind TLS was refused as a cross-site form), links are
# made with https://, and the session and CSRF cookies travel over HTTPS only.
if env_bool("DJANGO_HTTPS", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "club",
    "tables",
    "rulesdocs",
]
if django.VERSION < (6, 0):
    # Django 6 has template partials built in; 5.2 (for Python 3.11) gets them from the package
    # they came from, with the same {% partialdef %} syntax and "page.html#part" names.
    INSTALLED_APPS.append("template_partials")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Pages gzipped for browsers that take it (a rules page 20-30 KB to a third of that on a
    # phone's network). Django's gzip pads each response with random bytes against BREACH, and
    # the CSRF token is masked afresh on every page.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "club.middleware.TimezoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in player's language choice goes with the account (club.middleware).
    "club.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A button's address visited (after a log-in, say) goes to its page (club.middleware).
    "club.middleware.ButtonAddressMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

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
    }
]

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
LANGUAGES = [("en", "English"), ("he", "עברית"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True
LANGUAGE_COOKIE_NAME = "lang"
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Each {% static %} URL carries its file's fingerprint, so Daphne can let browsers keep it for a
# year (config/static.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.static.VersionedStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    "loggers": {"tables": {"level": env_str("LOG_LEVEL", "INFO")}},
}
