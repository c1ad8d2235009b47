"""JSON in and out of handlers."""

from __future__ import annotations

import json
from typing import Any

import orjson
from aiohttp import web

SMALL_BODY_LIMIT = 1024 * 1024
BULK_BODY_LIMIT = 32 * 1024 * 1024
# The server accepts up to the bulk limit; every other route reads at most SMALL_BODY_LIMIT.
CLIENT_MAX_SIZE = BULK_BODY_LIMIT


class BodyTooLarge(Exception):
    pass


class InvalidJson(Exception):
    pass


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


async def read_body(request: web.Request, limit: int) -> bytes:
    """The raw body, refusing more than `limit` bytes whether or not Content-Length is sent."""
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
        return json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise InvalidJson from None


async def read_json(request: web.Request, limit: int = SMALL_BODY_LIMIT) -> Any:
    """The parsed JSON body. Raises InvalidJson for an empty or malformed body."""
    return loads(await read_body(request, limit))
