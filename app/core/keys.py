"""Typed keys for what the application object carries."""

from aiohttp import web

from app.core.config import Settings
from app.core.database import Pool
from app.core.errors import ErrorShapes

SETTINGS = web.AppKey("settings", Settings)
POOL = web.AppKey("pool", Pool)
# For the reads that may lag (app/core/replica.py): the replica with the primary as fallback,
# or the primary pool itself when no replica is set. Something with the pool's `acquire()`.
READ_POOL = web.AppKey("read_pool", object)
# The database the pool serves, for jobs that run PostgreSQL's client programs.
DATABASE_URL = web.AppKey("database_url", str)
# The error shape of each URL prefix, from the packages' descriptors.
ERROR_SHAPES = web.AppKey("error_shapes", ErrorShapes)
