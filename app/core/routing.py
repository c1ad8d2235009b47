"""The one route decorator of every API family: routed, documented and guarded alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from app.core.auth import Handler
from app.core.openapi import operation


def endpoint(
    routes: web.RouteTableDef,
    method: str,
    path: str,
    *,
    guard: Callable[[Handler], Handler],
    allow_head: bool = False,
    **documentation: Any,
) -> Callable[[Handler], Handler]:
    """Add the handler to `routes` behind `guard` (an API-key check of `app.core.auth`), with
    `documentation` as its OpenAPI operation (`app.core.openapi.operation`).

    A family binds its own routes, guard, tag and security once with `functools.partial`.
    """

    def decorate(handler: Handler) -> Handler:
        documented = operation(**documentation)(guard(handler))
        if method == "GET":
            return routes.get(path, allow_head=allow_head)(documented)
        return routes.route(method, path)(documented)

    return decorate
