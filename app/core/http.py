"""JSON in and out of handlers."""

from __future__ import annotations

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


async def read_json(request: web.Request, limit: int = SMALL_BODY_LIMIT) -> Any:
    """The parsed JSON body. Raises InvalidJson for an empty or malformed body."""
    body = await read_body(request, limit)
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        raise InvalidJson from None
