"""Typed keys for what the application object carries."""

import asyncpg
from aiohttp import web

from app.core.config import Settings

SETTINGS = web.AppKey("settings", Settings)
POOL = web.AppKey("pool", asyncpg.Pool)
# The database the pool serves, for jobs that run PostgreSQL's client programs.
DATABASE_URL = web.AppKey("database_url", str)
