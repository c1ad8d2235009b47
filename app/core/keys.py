"""Typed keys for what the application object carries."""

import asyncpg
from aiohttp import web

from app.core.config import Settings

SETTINGS = web.AppKey("settings", Settings)
POOL = web.AppKey("pool", asyncpg.Pool)
