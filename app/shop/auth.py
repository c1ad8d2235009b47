"""The shop's API-key guard (spec, Family B): the `api-key` header. Missing 401, wrong 403, no
key configured 503, each in the shop's error shape (`laravel.ERRORS`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from aiohttp import web

from app.core.auth import Handler, configured_key, same_key
from app.core.errors import ApiError


def _scheme(name: str, description: str) -> dict[str, dict[str, str]]:
    return {name: {"type": "apiKey", "in": "header", "name": "api-key", "description": description}}


# The OpenAPI security schemes of the two keys.
IMPORT_SCHEMES = _scheme("ShopImportKey", "SHOP_IMPORT_API_KEY: users, import, kits, products.")
ORDERS_SCHEMES = _scheme("ShopOrdersKey", "SHOP_ORDERS_API_KEY: exchange orders and review.")


def shop_key(setting: str) -> Callable[[Handler], Handler]:
    """`setting` is the Settings attribute holding the key."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            expected = configured_key(request, setting)
            given = request.headers.get("api-key")
            if not given:
                raise ApiError(401, "Unauthenticated: send the api-key header.")
            if not same_key(given, expected):
                raise ApiError(403, "Forbidden: invalid API key.")
            return await handler(request)

        return guarded

    return decorate
