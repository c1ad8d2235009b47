"""The application factory."""

from __future__ import annotations

import gc

from aiohttp import web

from app.ai.client import provider_context
from app.core import csrf, database, openapi, pages
from app.core.config import Settings
from app.core.errors import ErrorShapes
from app.core.http import CLIENT_MAX_SIZE
from app.core.keys import DATABASE_URL, ERROR_SHAPES, POOL, SETTINGS
from app.core.middleware import forbid_caching, request_context, stamp_request_id
from app.families import FAMILIES
from app.training import pins

API_DESCRIPTION = """\
One service, three API families on one port:

* **Family A** (`/api/v2`): ambassador checks and the questionnaire catalogue.
* **Family B** (`/api/...`, `/api/v1/exchanges/...`): the equipment shop.
* **Family C** (`/api/v1/...`): the training platform integration API.

Bodies are JSON (`application/json; charset=utf-8`). Every response carries an `X-Request-Id`
header (the request's own when it sends a safe one); quote it when reporting a problem.
Request bodies are limited to 1 MiB, except `POST /api/v1/riders` (8 MiB), `POST
/api/v1/assignments` (20 MiB) and `POST /api/import/users` (12 MiB): what their largest valid
body needs. A larger body answers 413. A bulk body with more objects and arrays than its largest
valid body holds answers 400 before it is parsed, and a process handles two bulk requests at a
time: a third waits up to 30 s, then answers 503 (`busy`, `Retry-After: 5`).
JSON answers carry `Cache-Control: no-store`. A 405 answer carries `Allow`.
An unknown path answers 404 and a wrong method 405, both with a JSON error body in the shape
of the family whose prefix was called.
"""


def pool_context(database_url: str):
    async def pool(app: web.Application):
        app[POOL] = await database.create_pool(database_url)
        yield
        await app[POOL].close()

    return pool


def create_app(settings: Settings, database_url: str) -> web.Application:
    # The areas' guards (signed-in pages) run before the CSRF check, which needs their session.
    guards = [guard for family in FAMILIES for guard in family.middlewares]
    app = web.Application(
        middlewares=[request_context, *guards, csrf.protect],
        client_max_size=CLIENT_MAX_SIZE,
    )
    app[SETTINGS] = settings
    pins.configure(settings)
    app[DATABASE_URL] = database_url
    app.on_response_prepare.append(stamp_request_id)
    app.on_response_prepare.append(forbid_caching)
    app.cleanup_ctx.append(pool_context(database_url))
    for family in FAMILIES:
        app.router.add_routes(family.routes)
    # The AI engine's client, for the panel's generation runs and the rider's assistant.
    app.cleanup_ctx.append(provider_context)
    app[ERROR_SHAPES] = ErrorShapes(
        (prefix, family.errors) for family in FAMILIES for prefix in family.prefixes
    )
    openapi.setup(app, API_DESCRIPTION)
    pages.setup(app)
    return app


def freeze_startup_objects(app: web.Application) -> None:
    """Once the app has started (modules, templates, pool, clients: objects that live as long
    as the process), move them out of the garbage collector's reach: its full passes would
    otherwise walk them all, ~100 ms on a busy 2-core machine, with the event loop stopped."""

    async def freeze(_app: web.Application) -> None:
        gc.collect()
        gc.freeze()

    app.on_startup.append(freeze)
