"""What a package (an API family or an HTML package) contributes to the service."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from aiohttp import web

from app.core.errors import JSON_ERRORS, ErrorShape
from app.core.gates import Gate
from app.core.http import Bulk
from app.core.loader import Section


@dataclass(frozen=True)
class Package:
    # A RouteTableDef (or several joined into one sequence).
    routes: Sequence[web.AbstractRouteDef]
    # The URL prefixes this package owns: errors under them (unknown paths too) take `errors`.
    prefixes: Sequence[str] = ()
    errors: ErrorShape = JSON_ERRORS
    # What its bulk routes' bodies may hold: the server takes bodies up to the largest limit.
    bulk: Sequence[Bulk] = ()
    # The gates of its routes that hold connections for long (streams, exports): the pool
    # keeps room for what they admit (app/web.py, `pool_size`).
    gates: Sequence[Gate] = ()
    # The OpenAPI security schemes its routes name (`openapi.any_of`), by name.
    security_schemes: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    # Load-data sections, in the order they must be written.
    sections: Sequence[Section] = ()
    # Run once after a file's sections are written, inside its transaction.
    after_load: Sequence[Callable[[asyncpg.Connection], Awaitable[None]]] = ()
    # Builds this family's part of the demo data document: (rng, riders) -> sections.
    demo: Callable[[random.Random, int], dict[str, Any]] | None = None
    # Tables that must be empty before demo-data fills the database.
    demo_tables: Sequence[str] = field(default_factory=tuple)
    # Middlewares of a signed-in area (its guard), run after the request context.
    middlewares: Sequence[Callable[..., Awaitable[web.StreamResponse]]] = ()
    # What it keeps for the life of a web process (aiohttp cleanup contexts).
    contexts: Sequence[Callable[[web.Application], AsyncIterator[None]]] = ()
    # Runs, for nobody, the statements its busiest pages run on every request: before a web
    # process serves, on each of its warm connections (app.web.plan_ahead). Writes nothing.
    plan_ahead: Callable[[asyncpg.Connection], Awaitable[None]] | None = None
