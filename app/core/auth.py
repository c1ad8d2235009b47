"""API-key guards for handlers. Keys are compared in constant time and never logged.

`bearer_key`: `x-api-key: <key>` or `Authorization: Bearer <key>`; `x-api-key` wins when both
are sent. Missing or wrong key: 401 `Invalid API key`; no key configured: 503. A package with
another header builds its own guard on `configured_key` and `same_key`.
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Awaitable, Callable

from aiohttp import web

from app.core.errors import ApiError
from app.core.keys import SETTINGS

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def same_key(given: str, expected: str) -> bool:
    # aiohttp keeps a header's non-UTF-8 bytes as lone surrogates (surrogateescape): encoded
    # back (any surrogate passes), such a key is just a wrong key.
    return hmac.compare_digest(
        given.encode(errors="surrogatepass"), expected.encode(errors="surrogatepass")
    )


def configured_key(request: web.Request, setting: str) -> str:
    """The key of Settings attribute `setting`; 503 while it is not set. Each key's setting is
    its environment variable in lower case (`Settings.from_env`)."""
    key = getattr(request.app[SETTINGS], setting)
    if key is None:
        raise ApiError(
            503,
            f"The API is disabled on this server: set {setting.upper()} and restart.",
            "api_disabled",
        )
    return key


def presented_bearer_key(request: web.Request) -> str | None:
    if "x-api-key" in request.headers:
        return request.headers["x-api-key"]
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    # The scheme is case-insensitive (RFC 7235); the key itself is matched exactly.
    return token if scheme.lower() == "bearer" and token else None


def bearer_key(setting: str) -> Callable[[Handler], Handler]:
    """Guard by `x-api-key` or Bearer; `setting` is the Settings attribute holding the key."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            expected = configured_key(request, setting)
            given = presented_bearer_key(request)
            if given is None or not same_key(given, expected):
                raise ApiError(401, "Invalid API key", "unauthorized")
            return await handler(request)

        return guarded

    return decorate
