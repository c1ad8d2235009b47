"""JSON in and out of handlers."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import web

from app.core.gates import Gate

MiB = 1024 * 1024
SMALL_BODY_LIMIT = MiB


@dataclass(frozen=True)
class Bulk:
    """What a bulk route's body may hold. A parsed body costs far more memory than its bytes
    (an empty `{}` is 3 bytes and a 64-byte object), so the size is what the route's maximum
    needs, and the number of objects and arrays is counted before parsing."""

    limit: int
    containers: int


def largest_body(bulks: Iterable[Bulk]) -> int:
    """What the server takes at most: the largest bulk limit of its packages' routes (each
    reads at most its own); other routes read at most SMALL_BODY_LIMIT."""
    return max([SMALL_BODY_LIMIT, *(bulk.limit for bulk in bulks)])


# Bulk requests handled at once per process (others wait up to BULK_WAIT seconds, then 503):
# with the containers capped, the worst body of each costs a few hundred MB while handled.
BULK_CONCURRENCY = 2
BULK_WAIT = 30.0


class BodyTooLarge(Exception):
    pass


class InvalidJson(Exception):
    pass


class TooManyValues(InvalidJson):
    """More objects and arrays than the route's largest valid body holds."""


class Busy(Exception):
    """Every bulk slot stayed taken for BULK_WAIT seconds."""


class UnpairedSurrogate(Exception):
    """A JSON string held an unpaired surrogate escape (`"\\ud800"`): valid JSON, but no
    Unicode text, so PostgreSQL cannot store it."""


def dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def json_response(body: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    return web.Response(
        body=dumps(body),
        status=status,
        content_type="application/json",
        charset="utf-8",
        headers=headers,
    )


# The body when something before the handler read it already (Idempotency-Key hashes it).
RAW_BODY = web.RequestKey("raw_body", bytes)


async def read_body(request: web.Request, limit: int) -> bytes:
    """The raw body, refusing more than `limit` bytes whether or not Content-Length is sent."""
    if RAW_BODY in request:
        if len(request[RAW_BODY]) > limit:
            raise BodyTooLarge
        return request[RAW_BODY]
    if request.content_length is not None and request.content_length > limit:
        raise BodyTooLarge
    chunks, size = [], 0
    async for chunk in request.content.iter_any():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(body: bytes) -> Any:
    """Parse JSON; raises InvalidJson. orjson refuses valid JSON numbers beyond 64 bits or a
    double (`1e400`): those bodies are parsed again by the standard library, so that the
    field is reported by validation instead of the whole body being called invalid."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        pass
    try:
        value = json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise InvalidJson from None
    # orjson refuses unpaired surrogates; the standard library lets them through.
    if _has_surrogate(value):
        raise UnpairedSurrogate
    return value


def _has_surrogate(value: Any) -> bool:
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not _encodable(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


async def read_json(request: web.Request, limit: int = SMALL_BODY_LIMIT) -> Any:
    """The parsed JSON body. Raises InvalidJson for an empty or malformed body."""
    return loads(await read_body(request, limit))


async def read_bulk_json(request: web.Request, bulk: Bulk) -> Any:
    """The parsed JSON body of a bulk route; TooManyValues before parsing a body with more
    objects and arrays than `bulk` allows."""
    body = await read_body(request, bulk.limit)
    if _containers(body, bulk.containers) > bulk.containers:
        raise TooManyValues
    return loads(body)


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def _containers(body: bytes, allowed: int) -> int:
    """How many objects and arrays `body` opens: the brackets outside strings. Counting all
    brackets is fast and an upper bound; strings are only skipped when that bound is over."""
    count = body.count(b"{") + body.count(b"[")
    if count <= allowed:
        return count
    outside = _STRING.sub(b"", body)
    return outside.count(b"{") + outside.count(b"[")


# A rider CSV import, behind it too, saves two batches at once on two connections.
BULK_GATE = Gate(BULK_CONCURRENCY, BULK_WAIT, Busy, connections=2)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def bulk_route(handler: Handler) -> Handler:
    """At most BULK_CONCURRENCY of the decorated handlers run at once in a process."""

    @functools.wraps(handler)
    async def limited(request: web.Request) -> web.StreamResponse:
        async with BULK_GATE.slot():
            return await handler(request)

    return limited
