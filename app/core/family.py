"""What a family (an API family or a web area such as the admin panel) contributes."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from aiohttp import web

from app.core.loader import Section


@dataclass(frozen=True)
class Family:
    name: str
    # A RouteTableDef, or several joined: `[*routes, *rider_pages.routes]`.
    routes: Sequence[web.AbstractRouteDef]
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
