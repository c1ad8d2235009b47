"""API-key guards for handlers. Keys are compared in constant time and never logged.

- Families A and C: `x-api-key: <key>` or `Authorization: Bearer <key>`; `x-api-key` wins when
  both are sent. Missing or wrong key: 401 `Invalid API key`; no key configured: 503.
- Family B: `api-key: <key>`. Missing 401, wrong 403, no key configured 503.
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Awaitable, Callable

from aiohttp import web

from app.core.errors import ApiError
from app.core.keys import SETTINGS

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

ENV_NAMES = {
    "integration_api_key": "INTEGRATION_API_KEY",
    "checks_api_key": "CHECKS_API_KEY",
    "shop_import_api_key": "SHOP_IMPORT_API_KEY",
    "shop_orders_api_key": "SHOP_ORDERS_API_KEY",
    "metrics_token": "METRICS_TOKEN",
}


def _same(given: str, expected: str) -> bool:
    # aiohttp keeps a header's non-UTF-8 bytes as lone surrogates (surrogateescape): encoded
    # back (any surrogate passes), such a key is just a wrong key.
    return hmac.compare_digest(
        given.encode(errors="surrogatepass"), expected.encode(errors="surrogatepass")
    )


def _configured_key(request: web.Request, setting: str) -> str:
    key = getattr(request.app[SETTINGS], setting)
    if key is None:
        raise ApiError(
            503,
            f"The API is disabled on this server: set {ENV_NAMES[setting]} and restart.",
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
    """Guard for Families A and C; `setting` is the Settings attribute holding the key."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            expected = _configured_key(request, setting)
            given = presented_bearer_key(request)
            if given is None or not _same(given, expected):
                raise ApiError(401, "Invalid API key", "unauthorized")
            return await handler(request)

        return guarded

    return decorate


def shop_key(setting: str) -> Callable[[Handler], Handler]:
    """Guard for Family B; `setting` is the Settings attribute holding the key."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            expected = _configured_key(request, setting)
            given = request.headers.get("api-key")
            if not given:
                raise ApiError(401, "Unauthenticated: send the api-key header.")
            if not _same(given, expected):
                raise ApiError(403, "Forbidden: invalid API key.")
            return await handler(request)

        return guarded

    return decorate
