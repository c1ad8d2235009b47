"""The application factory."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools

import structlog
from aiohttp import web

from app.ai import store as ai_store
from app.ai.client import provider_context
from app.core import api_keys, csrf, database, metrics, openapi, pages, probes
from app.core import replica as replica_reads
from app.core.config import Settings
from app.core.errors import JSON_ERRORS, ErrorShapes
from app.core.gates import Gate
from app.core.http import BULK_GATE, largest_body
from app.core.keys import DATABASE_URL, ERROR_SHAPES, POOL, READ_POOL, SETTINGS
from app.core.middleware import (
    forbid_caching,
    quiet_unreadable_requests,
    request_context,
    stamp_request_id,
)
from app.core.throttle import SIGN_IN_AREAS
from app.packages import PACKAGES
from app.webhooks import delivery as webhook_delivery
from jobs import JOBS, backup_metrics
from jobs.job import OUTCOMES

log = structlog.get_logger("app")

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
of the family whose prefix was called (the longest prefix wins: `/api/v1/exchanges/...` is the
shop's, the rest of `/api/v1/...` training's; a path under no family's prefix gets
`{ "error", "code" }`). An unexpected failure answers 500 in the same shape.

* Keys are matched exactly (case-sensitive); in `Authorization: Bearer <key>` the scheme word
  is case-insensitive. A key header whose bytes are not UTF-8 is a wrong key.
* Only ASCII digits are digits: an ID, a page number or any number read from text (`٣`, `１`,
  `¹`) is a malformed value (in a path, an unknown one), never another number.
* Text PostgreSQL cannot store (U+0000) is refused: a rider row or a shop import record gets it
  as its own error; anywhere else the request answers 400 (422 on the shop's paths) and nothing
  is written. A JSON string with an unpaired surrogate escape (`"\\ud800"`) is no text at all:
  the whole request answers 400 (422 on the shop's paths) and nothing is written.
* A JSON number beyond 64 bits or beyond a double's range (`1e400`) is still JSON: validation
  reports it as a wrong value of its field, not the whole body as invalid.
* A request waits at most 5 s for a database connection and every statement runs at most 60 s;
  past either, and while the database is unreachable, it answers 500 (`internal_error`):
  retry later with backoff.

**Webhooks** (Family C): instead of polling the completions feed, an integrator can receive
`completion.created`, `assignment.created`, `assignment.completed` and `flag.created` events as
signed POST requests ([Standard Webhooks](https://www.standardwebhooks.com): headers
`webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried for about 28
hours. The training team adds endpoints on `/admin/webhooks`; see `docs/webhooks.md` for the
payloads and how to verify them. `POST /api/v1/riders`, `/flags` and `/assignments` take an
`Idempotency-Key` header, so a retried write runs once.
"""


def long_hold_gates() -> tuple[Gate, ...]:
    """The gates of what holds connections for long: check-list streams, exports, bulk loads."""
    return (BULK_GATE, *(gate for package in PACKAGES for gate in package.gates))


def pool_size() -> int:
    """The most connections a web process's pool opens: its requests' turns, and room for every
    connection what its gates admit may hold at once, so that full gates never leave a request
    waiting for a connection (docs/scale.md)."""
    return database.TURNS + sum(gate.connections_held for gate in long_hold_gates())


def pool_context(settings: Settings, database_url: str, warm: int = 2, size: int = 10):
    """The pool of at most `size` connections, with `warm` of them opened (and their codecs set)
    before the app starts."""

    async def pool(app: web.Application):
        mode = settings.database_pool_mode
        app[POOL] = primary = await database.create_pool(
            database_url, pool_mode=mode, min_size=warm, max_size=size
        )
        app[READ_POOL] = primary
        if settings.database_replica_url:
            # No connection at start (min_size 0): a replica that is down must not stop it.
            replica = await database.create_pool(
                settings.database_replica_url,
                pool_mode=mode,
                min_size=0,
                max_size=size,
                connect_timeout=replica_reads.REPLICA_WAIT,
            )
            where = database.describe(settings.database_replica_url)
            app[READ_POOL] = replica_reads.ReplicaReads(primary, replica, where)
        yield
        if app[READ_POOL] is not primary:
            await app[READ_POOL].close()
        await primary.close()

    return pool


def create_app(settings: Settings, database_url: str) -> web.Application:
    # The areas' guards (signed-in pages) run before the CSRF check, which needs their session.
    guards = [guard for package in PACKAGES for guard in package.middlewares]
    app = web.Application(
        middlewares=[request_context, *guards, csrf.protect],
        client_max_size=largest_body(bulk for package in PACKAGES for bulk in package.bulk),
    )
    app[SETTINGS] = settings
    app[DATABASE_URL] = database.session_url(settings, database_url)
    # What this process read of the integrators' API keys, trusted a few seconds.
    app[api_keys.CACHE] = api_keys.KeyCache()
    app.on_response_prepare.append(stamp_request_id)
    app.on_response_prepare.append(forbid_caching)
    # Every connection the requests take at once is open before the process serves: a burst
    # that meets a fresh process opens none (bench/README.md, "Rider burst").
    app.cleanup_ctx.append(
        pool_context(settings, database_url, warm=database.TURNS, size=pool_size())
    )
    for package in PACKAGES:
        app.router.add_routes(package.routes)
        app.cleanup_ctx.extend(package.contexts)
    # The AI engine's client, for the panel's generation runs and the rider's assistant.
    app.cleanup_ctx.append(provider_context)
    app[ERROR_SHAPES] = ErrorShapes(
        [
            *((prefix, package.errors) for package in PACKAGES for prefix in package.prefixes),
            (metrics.PATH, JSON_ERRORS),  # for a scraper, not a person
        ]
    )
    probes.setup(app)
    quiet_unreadable_requests()
    metrics.setup(
        app,
        {metrics.AI_JOBS: ai_store.job_counts, **backup_metrics.READERS},
        {
            metrics.JOB_RUNS: itertools.product(JOBS, OUTCOMES),
            metrics.SIGN_IN_FAILURES: [(area,) for area in sorted(SIGN_IN_AREAS)],
            metrics.WEBHOOK_DELIVERIES: [(name,) for name in webhook_delivery.OUTCOMES],
        },
    )
    schemes = {name: s for package in PACKAGES for name, s in package.security_schemes.items()}
    openapi.setup(app, API_DESCRIPTION, schemes)
    pages.setup(app)
    return app


def create_worker_app(settings: Settings, database_url: str) -> web.Application:
    """The background work (docs/operations.md, "The worker"): the scheduled jobs, the AI job
    runner and webhook delivery, on an application that serves no HTTP (its start and cleanup
    hooks hold the pool, the AI provider's client and the loops)."""
    from app.ai import runner
    from app.webhooks import delivery
    from jobs import scheduler

    app = web.Application()
    app[SETTINGS] = settings
    app[DATABASE_URL] = database.session_url(settings, database_url)
    app.cleanup_ctx.append(pool_context(settings, database_url))
    app.cleanup_ctx.append(provider_context)
    scheduler.setup(app)
    runner.setup(app)
    delivery.setup(app)
    return app


# Allocations between two passes of the collector over the young objects (Python's default:
# 700). A pass walks every young object still alive, and under a burst that is the state of
# hundreds of requests in flight: at 700 a web process spent about 0.6 ms a pass, 300 passes
# a burst (bench/README.md, the burst at one instant). Most garbage is freed at once by
# reference counting whatever this is; only cycles wait for a pass, a little longer.
YOUNG_GENERATION = 20_000


# PostgreSQL plans a prepared statement for its values on each of its first five executions
# in a server process, and only then may keep a generic plan for good (its plan cache).
RUNS_TO_SETTLE = 6


@contextlib.asynccontextmanager
async def warm_connections(app: web.Application):
    """Every connection a process's requests use at once (database.TURNS), held together: before
    the process serves nothing else holds one, so they are the pool's warm floor."""
    async with contextlib.AsyncExitStack() as held:
        pool = app[POOL]
        yield [await held.enter_async_context(pool.acquire()) for _ in range(database.TURNS)]


def plan_ahead(app: web.Application) -> None:
    """Before a web process serves, each of its warm connections (kept open for its life: the
    pool's floor) runs the packages' busiest statements (`Package.plan_ahead`) RUNS_TO_SETTLE
    times: the first burst after a start or a deploy (the riders of the 09:00 reminders) finds
    them prepared, planned and their functions compiled in every server process, instead of
    paying for that at once in all of them (bench/README.md, the burst at one instant).
    Behind a transaction pooler no statement stays prepared (docs/scale.md): nothing to do.
    A database that drops away meanwhile only costs the head start (a warning; the requests
    meet the outage as usual); a statement that fails stops the start, as a template that does
    not compile does: its pages would fail too."""
    runs = [package.plan_ahead for package in PACKAGES if package.plan_ahead]

    async def settle(conn) -> None:
        for _ in range(RUNS_TO_SETTLE):
            for run in runs:
                await run(conn)

    async def plan(app: web.Application) -> None:
        if app[SETTINGS].database_pool_mode == "transaction":
            return
        try:
            async with warm_connections(app) as warm:
                await asyncio.gather(*map(settle, warm))
        except database.UNAVAILABLE as exc:
            log.warning("statements not planned ahead", error_class=type(exc).__name__)

    app.on_startup.append(plan)


def freeze_startup_objects(app: web.Application) -> None:
    """Once the app has started (modules, templates, pool, clients: objects that live as long
    as the process), move them out of the garbage collector's reach: its full passes would
    otherwise walk them all, ~100 ms on a busy 2-core machine, with the event loop stopped.
    From then on, the young generation is collected every YOUNG_GENERATION allocations."""

    async def freeze(_app: web.Application) -> None:
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_GENERATION, *gc.get_threshold()[1:])

    app.on_startup.append(freeze)
