"""The rider app on the road (docs/rider-offline.md): the service worker `GET /sw.js` and the two
small pages it keeps for when the phone is offline, in each of the four languages: `GET /offline` (a
page never kept) and `GET /offline/saved` (quiz answers kept on the phone, to be sent).

The worker (`rider/sw.js`, registered by `/static/offline.js`) keeps the rider's open training
in a cache of that rider's own, sends the kept answers in order, each once (the server records
an `attempt_id` once), and removes the kept pages at sign-out. Neither page touches the
database: the worker fetches them when it is installed.
"""

from __future__ import annotations

from aiohttp import web

from app.core.html import ENVIRONMENT
from app.rider.layout import asked_language, render
from app.rider.texts import LANGUAGES

routes = web.RouteTableDef()

# Rendered once: the worker's only variable part is the list of languages it keeps pages in.
WORKER = ENVIRONMENT.get_template("rider/sw.js").render(languages=list(LANGUAGES))


@routes.get("/sw.js")
async def service_worker(request: web.Request) -> web.Response:
    # no-cache: the browser checks for a new worker on every visit; served from the root, so
    # its scope is the whole app (the worker itself leaves /api and /admin alone).
    return web.Response(
        text=WORKER,
        content_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@routes.get("/offline")
async def offline_page(request: web.Request) -> web.Response:
    context = {"heading": "offline_title", "line": "offline_not_kept"}
    return render(request, "rider/offline.html", context, language=asked_language(request))


@routes.get("/offline/saved")
async def answers_saved_page(request: web.Request) -> web.Response:
    context = {"heading": "answers_saved_title", "line": "answers_saved"}
    return render(request, "rider/offline.html", context, language=asked_language(request))
