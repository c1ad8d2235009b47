"""API-key guards for handlers. Keys are compared in constant time and never logged.

`api_key(scope)`: an integrator's key (docs/security.md, "API keys") in `x-api-key: <key>` or
`Authorization: Bearer <key>`; `x-api-key` wins when both are sent. The key is the scope's
environment key or a key of the database holding the scope. Missing or wrong key (revoked,
expired, of another scope): 401 `Invalid API key`; no key at all for the scope, neither in the
environment nor live in the database: 503. A package with another header builds its own guard
on `identify`. `bearer_key(setting)`: the same header for a key only the environment holds
(the metrics token).
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Awaitable, Callable

from aiohttp import web

from app.core.api_keys import CACHE, CALLER, SCOPES, Caller, env_caller
from app.core.errors import ApiError
from app.core.keys import POOL, SETTINGS

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def same_key(given: str, expected: str) -> bool:
    # aiohttp keeps a header's non-UTF-8 bytes as lone surrogates (surrogateescape): encoded
    # back (any surrogate passes), such a key is just a wrong key.
    return hmac.compare_digest(
        given.encode(errors="surrogatepass"), expected.encode(errors="surrogatepass")
    )


def _disabled(setting: str, scope: str | None = None) -> ApiError:
    hint = "" if scope is None else f", or create an API key with scope {scope}"
    return ApiError(
        503,
        f"The API is disabled on this server: set {setting.upper()} and restart{hint}.",
        "api_disabled",
    )


def configured_key(request: web.Request, setting: str) -> str:
    """The key of Settings attribute `setting`; 503 while it is not set. Each key's setting is
    its environment variable in lower case (`Settings.from_env`)."""
    key = getattr(request.app[SETTINGS], setting)
    if key is None:
        raise _disabled(setting)
    return key


async def identify(request: web.Request, scope: str, given: str | None) -> Caller | None:
    """The caller whose key `given` may call `scope` (also kept as `request[CALLER]`); None
    for a missing or refused key. 503 when no key may call the scope at all."""
    setting = SCOPES[scope]
    env_key = getattr(request.app[SETTINGS], setting)
    caller = None
    if given and env_key is not None and same_key(given, env_key):
        caller = env_caller(env_key)
    elif given:
        caller = await request.app[CACHE].caller(request.app[POOL], given, scope)
    if caller is not None:
        request[CALLER] = caller
        return caller
    if env_key is None and not await request.app[CACHE].scope_live(request.app[POOL], scope):
        raise _disabled(setting, scope)
    return None


def presented_bearer_key(request: web.Request) -> str | None:
    if "x-api-key" in request.headers:
        return request.headers["x-api-key"]
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    # The scheme is case-insensitive (RFC 7235); the key itself is matched exactly.
    return token if scheme.lower() == "bearer" and token else None


def unauthorized() -> ApiError:
    # A new one each time: an exception raised again keeps growing its traceback.
    return ApiError(401, "Invalid API key", "unauthorized")


def api_key(scope: str) -> Callable[[Handler], Handler]:
    """Guard by `x-api-key` or Bearer with a key that may call `scope` (one of SCOPES)."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            if await identify(request, scope, presented_bearer_key(request)) is None:
                raise unauthorized()
            return await handler(request)

        return guarded

    return decorate


def bearer_key(setting: str) -> Callable[[Handler], Handler]:
    """Guard by `x-api-key` or Bearer; `setting` is the Settings attribute holding the key."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            expected = configured_key(request, setting)
            given = presented_bearer_key(request)
            if given is None or not same_key(given, expected):
                raise unauthorized()
            return await handler(request)

        return guarded

    return decorate
