"""Idempotency-Key on an API write (docs/webhooks.md, after the IETF `Idempotency-Key` draft).

The first request with a key claims it in a statement of its own, committed before the work
runs, so of two requests at once exactly one runs, on any instance; its answer is then stored
for 24 hours. A repeat with the same body (byte for byte) gets that answer again, marked
`Idempotent-Replayed: true`, and changes nothing; with another body it is refused (422); while
the first still runs, 409. A 5xx answer, or a failure without an answer, releases the key, so
the client may retry with it. A key is scoped by operation and API key (the caller's: two
integrators' keys never meet; docs/security.md, "API keys").
"""

from __future__ import annotations

import functools
import hashlib
import re

import asyncpg
from aiohttp import web

from app.core import sql
from app.core.api_keys import CALLER
from app.core.errors import ApiError
from app.core.http import RAW_BODY, Handler, read_body
from app.core.keys import ERROR_SHAPES, POOL

SQL = sql.load(
    "core",
    "claim_idempotency_key",
    "idempotency_key",
    "store_idempotent_answer",
    "release_idempotency_key",
)

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
_PRINTABLE = re.compile(rf"[\x20-\x7e]{{1,{MAX_KEY_LENGTH}}}")

BAD_KEY = f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters."
OTHER_BODY = f"{HEADER} was used with another body"
IN_FLIGHT = f"A request with this {HEADER} is still running; retry when it has answered."
# A claim found gone between two statements (its request failed and released it) is tried
# again; more than this many in a row would mean clients keep failing with the same key.
CLAIM_TRIES = 3


def _scope(request: web.Request) -> str:
    """The operation and the fingerprint of the caller's API key (never the key itself)."""
    fingerprint = request[CALLER].fingerprint
    return f"{request.method} {request.match_info.route.resource.canonical} {fingerprint}"


def _replay(status: int, answer: bytes) -> web.Response:
    return web.Response(
        body=answer,
        status=status,
        content_type="application/json",
        charset="utf-8",
        headers={REPLAYED_HEADER: "true"},
    )


async def _stored_answer(
    pool: asyncpg.Pool, scope: str, key: str, body_hash: bytes
) -> web.Response | None:
    """The answer to a request whose key another holds; None when this one claimed it."""
    for _ in range(CLAIM_TRIES):
        if await pool.fetchval(SQL.claim_idempotency_key, scope, key, body_hash):
            return None
        stored = await pool.fetchrow(SQL.idempotency_key, scope, key)
        if stored is None:
            continue
        if stored["body_hash"] != body_hash:
            raise ApiError(422, OTHER_BODY, "invalid_request")
        if stored["status"] is None:
            raise ApiError(409, IN_FLIGHT, "conflict")
        return _replay(stored["status"], stored["answer"])
    raise ApiError(409, IN_FLIGHT, "conflict")


def idempotent(limit: int):
    """Honour Idempotency-Key on the decorated handler (inside its API-key guard, which names
    the caller, and inside a bulk route's slot: the body is read here); `limit` is the route's
    body limit in bytes."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def once(request: web.Request) -> web.StreamResponse:
            key = request.headers.get(HEADER)
            if key is None:
                return await handler(request)
            if not _PRINTABLE.fullmatch(key):
                raise ApiError(400, BAD_KEY, "invalid_request")
            body = request[RAW_BODY] = await read_body(request, limit)
            pool, scope = request.app[POOL], _scope(request)
            body_hash = hashlib.sha256(body).digest()
            replayed = await _stored_answer(pool, scope, key, body_hash)
            if replayed is not None:
                return replayed
            stored = False
            try:
                try:
                    response = await handler(request)
                except ApiError as exc:
                    response = request.app[ERROR_SHAPES].for_path(request.path).render(exc)
                if response.status < 500 and isinstance(response, web.Response):
                    await pool.execute(
                        SQL.store_idempotent_answer, scope, key, response.status, response.body
                    )
                    stored = True
                return response
            finally:
                if not stored:
                    await pool.execute(SQL.release_idempotency_key, scope, key)

        return once

    return decorate
