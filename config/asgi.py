"""ASGI entry point: HTTP through Django, websockets through Channels (session-authenticated)."""

import os

# Python's defaults are (700, 10, 10); see the end of this file. PP_GC_THRESHOLDS="a,b,c" overrides.
GC_THRESHOLDS = tuple(int(x) for x in os.environ.get("PP_GC_THRESHOLDS", "5000,20,100").split(","))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from config import page_connections  # noqa: E402

page_connections.install()  # a page's database connection closes once the page is sent

from config.checks import warn_at_start  # noqa: E402

warn_at_start()  # which database and broker this process uses; a missing secret key

from config.static import StaticFiles  # noqa: E402

# Daphne serves /static/ (css, htmx, the table script) itself: `make run` has no web server in
# front of it and the files are few and small. Without this every page loads without its css
# and htmx. They go out gzipped and cached until they change (config/static.py). A deployment
# behind nginx can serve them first; this then never sees the request.
django_asgi_app = StaticFiles(django_asgi_app)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config import wsdeflate, wslogs  # noqa: E402
from config.origin import SameOriginValidator  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

wsdeflate.install()  # compressed websocket messages when Daphne serves this (config/wsdeflate.py)
wslogs.install()  # autobahn's per-frame debug lines made only when logged (config/wslogs.py)

if settings.LIVE_MODE == "embedded" and settings.CELERY_EMBEDDED_WORKER:
    from tables import embedded

    embedded.start()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin's host must be allowed, and be this very site, port included (config/origin.py).
        "websocket": AllowedHostsOriginValidator(SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))),
    }
)


# Python's full garbage collection walks every object the process holds: with a few hundred
# table sockets that took 150-170 ms per collection in each Daphne process, several times a
# minute, and every socket of the process waited (bench_live at 200 tables: p99 240-300 ms with,
# about 100 ms without). What Django and the site load at start-up never becomes garbage, so it
# is moved out of the collector's sight, and the collections come rarer (most of our garbage is
# freed by reference counting the moment it is dropped). PP_GC=default keeps Python's own.
if os.environ.get("PP_GC", "") != "default":
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
