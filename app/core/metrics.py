"""Prometheus metrics (docs/metrics.md): the stable names, and `GET /metrics` behind METRICS_TOKEN.

`serve` runs several web processes; each writes its values to files in
PROMETHEUS_MULTIPROC_DIR (prometheus-client's multiprocess mode, chosen when the library is
first imported: `serve` sets the variable before it starts them), and a scrape of any one of
them sums them all. Counters of a process that has exited stay in the sums (a counter never
goes back); its gauges leave them (see app/core/metric_files.py, which `serve` uses).

Labels are bounded: `route` is the route's template (`/admin/riders/{rider_id}`), never the
path, and every path no route matched shares one label, so no rider ID, proof code or job ID
becomes a label.

`api_requests_total` counts the API families' requests by caller: `key` is the name of the API
key (or `env` for a key from the environment), bounded by the keys the owners made.

Who counts what: the request middleware (`http_*`, `api_requests_total`), the pool sampler
below (`db_pool_*`), the scheduler (`job_runs_total`), the messaging outbox
(`messages_total`), the sign-in throttle (`sign_in_failures_total`), the webhooks engine
(`webhook_deliveries_total`); `ai_jobs` and the backups' gauges are read from the database at
each scrape (see `Reading`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass

import asyncpg
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from app.core.auth import bearer_key
from app.core.keys import POOL
from app.core.metric_files import MULTIPROC_DIR, multiprocess_dir

PATH = "/metrics"
# The `route` of a request no route matched (404, 405): one label for any path.
UNMATCHED = "unmatched"
METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
# Any other method (aiohttp accepts any token) is one label too.
OTHER_METHOD = "other"
# How often each process writes its pool's state.
POOL_SAMPLE_INTERVAL = 1.0
# Readings (database queries at scrape time) that take longer are left out of that scrape.
READING_TIMEOUT = 1.0

# In multiprocess mode a metric without labels opens its file when it is made, below: the
# operator's folder may not exist yet (`serve` would make it, but imports come first).
if _given_dir := os.environ.get(MULTIPROC_DIR):
    os.makedirs(_given_dir, exist_ok=True)

# The metrics of this module live in a registry of its own: one scrape shows only them (and,
# in multiprocess mode, the files hold only them anyway).
REGISTRY = CollectorRegistry()

HTTP_REQUESTS = Counter(
    "http_requests_total",
    "HTTP requests answered, by method, route template and status.",
    ("method", "route", "status"),
    registry=REGISTRY,
)
HTTP_DURATION = Histogram(
    "http_request_duration_seconds",
    "Time to answer an HTTP request (a streamed body: to its end), by method and route template.",
    ("method", "route"),
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
    registry=REGISTRY,
)
API_REQUESTS = Counter(
    "api_requests_total",
    "API requests answered to a recognised API key, by key name (env: the environment's key),"
    " route template and status.",
    ("key", "route", "status"),
    registry=REGISTRY,
)
DB_POOL_CONNECTIONS = Gauge(
    "db_pool_connections",
    "Connections of the web processes' PostgreSQL pools, by state (used, idle).",
    ("state",),
    multiprocess_mode="livesum",
    registry=REGISTRY,
)
DB_POOL_WAITING = Gauge(
    "db_pool_waiting",
    "Requests waiting for a pooled PostgreSQL connection.",
    multiprocess_mode="livesum",
    registry=REGISTRY,
)
JOB_RUNS = Counter(
    "job_runs_total",
    "Scheduled job runs in this service's processes, by job and outcome"
    " (succeeded, failed, skipped: another process had the lock or the slot).",
    ("job", "outcome"),
    registry=REGISTRY,
)
MESSAGES = Counter(
    "messages_total",
    "Messages to riders recorded, by status (sent, failed, logged).",
    ("status",),
    registry=REGISTRY,
)
SIGN_IN_FAILURES = Counter(
    "sign_in_failures_total",
    "Failed sign-ins, by area (admin, rider).",
    ("area",),
    registry=REGISTRY,
)
WEBHOOK_DELIVERIES = Counter(
    "webhook_deliveries_total",
    "Webhook delivery attempts, by outcome; counted by the webhooks engine.",
    ("outcome",),
    registry=REGISTRY,
)


@dataclass(frozen=True)
class Reading:
    """A gauge read from the database at each scrape (state that lives in PostgreSQL, shared
    by every process and instance): its reader returns (label values, value) pairs."""

    name: str
    documentation: str
    labels: tuple[str, ...]


AI_JOBS = Reading("ai_jobs", "AI jobs in the database, by kind and status.", ("kind", "status"))
# The backups' state lives in the database too: a run by `run-job`, another instance or a
# process since replaced shows at every scrape, and a restart loses nothing (0: never).
BACKUP_LAST_SUCCESS = Reading(
    "backup_last_success_timestamp_seconds",
    "When the last successful backup finished (Unix time; 0: none yet).",
    (),
)
BACKUP_SIZE = Reading(
    "backup_size_bytes", "Size of the last successful backup's archive (0: none yet).", ()
)
BACKUP_DURATION = Reading(
    "backup_duration_seconds",
    "How long the last successful backup took, upload included (0: none yet).",
    (),
)
RESTORE_DRILL_LAST_SUCCESS = Reading(
    "restore_drill_last_success_timestamp_seconds",
    "When the last restore drill that restored the latest archive with its recorded row counts"
    " finished (Unix time; 0: none yet).",
    (),
)

Reader = Callable[[asyncpg.Pool], Awaitable[Iterable[tuple[tuple[str, ...], float]]]]
READERS = web.AppKey("metric_readers", dict)


# The request metrics' children by (method, route, status), so that a request costs one dict
# lookup instead of two `labels()` calls (each validates and locks). Bounded as the labels are.
_REQUEST_CHILDREN: dict[tuple[str, str, int], tuple] = {}


_API_CHILDREN: dict[tuple[str, str, int], Counter] = {}


def observe_request(
    method: str, route: str | None, status: int, seconds: float, api_key: str | None = None
) -> None:
    """`api_key`: the metrics label of the request's API key, if it had one."""
    if api_key is not None:
        _count_api_request(api_key, route or UNMATCHED, status)
    key = (method if method in METHODS else OTHER_METHOD, route or UNMATCHED, status)
    try:
        count, duration = _REQUEST_CHILDREN[key]
    except KeyError:
        count, duration = _REQUEST_CHILDREN[key] = (
            HTTP_REQUESTS.labels(key[0], key[1], str(status)),
            HTTP_DURATION.labels(key[0], key[1]),
        )
    count.inc()
    duration.observe(seconds)


def _count_api_request(api_key: str, route: str, status: int) -> None:
    key = (api_key, route, status)
    try:
        count = _API_CHILDREN[key]
    except KeyError:
        count = _API_CHILDREN[key] = API_REQUESTS.labels(api_key, route, str(status))
    count.inc()


class _Readings:
    """The values of this scrape's readings, as a collector."""

    def __init__(self, values: Mapping[Reading, Iterable[tuple[tuple[str, ...], float]]]):
        self._values = values

    def collect(self):
        for reading, samples in self._values.items():
            family = GaugeMetricFamily(reading.name, reading.documentation, labels=reading.labels)
            for labels, value in samples:
                family.add_metric(labels, value)
            yield family


async def _read(pool: asyncpg.Pool, readers: Mapping[Reading, Reader]) -> dict:
    values = {}
    for reading, reader in readers.items():
        try:
            async with asyncio.timeout(READING_TIMEOUT):
                values[reading] = list(await reader(pool))
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            # The request and pool metrics matter most during an outage: scrape them anyway.
            continue
    return values


def exposition(readings: Mapping[Reading, Iterable] = ()) -> bytes:
    registry = CollectorRegistry()
    path = multiprocess_dir()
    if path is not None:
        MultiProcessCollector(registry, path=path)
    else:
        registry.register(REGISTRY)
    registry.register(_Readings(dict(readings)))
    return generate_latest(registry)


@bearer_key("metrics_token")
async def metrics(request: web.Request) -> web.Response:
    readings = await _read(request.app[POOL], request.app[READERS])
    body = await asyncio.to_thread(exposition, readings)
    # The classic text format: every Prometheus version reads it, and the names need no more.
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_PLAIN_0_0_4})


async def _sample_pool(app: web.Application) -> None:
    while True:
        pool = app[POOL]
        size, idle = pool.get_size(), pool.get_idle_size()
        DB_POOL_CONNECTIONS.labels("used").set(size - idle)
        DB_POOL_CONNECTIONS.labels("idle").set(idle)
        DB_POOL_WAITING.set(pool.waiting)
        await asyncio.sleep(POOL_SAMPLE_INTERVAL)


async def _pool_sampler(app: web.Application):
    task = asyncio.create_task(_sample_pool(app))
    yield
    task.cancel()


def setup(
    app: web.Application,
    readers: Mapping[Reading, Reader],
    known: Mapping[Counter, Iterable[tuple[str, ...]]],
) -> None:
    """`readers`: how each Reading is read (the packages that own the tables know); `known`:
    each counter's label values known in advance (jobs and outcomes, areas), exported at 0
    from the start, so a rate or an alert over them has a series before the first event."""
    for counter, label_sets in known.items():
        for labels in label_sets:
            counter.labels(*labels)
    app[READERS] = dict(readers)
    app.router.add_get(PATH, metrics)
    # After the pool's own context: it samples an open pool and stops before it closes.
    app.cleanup_ctx.append(_pool_sampler)
