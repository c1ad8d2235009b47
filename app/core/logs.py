"""One JSON object a line on stdout (or readable lines with LOG_FORMAT=console)."""

from __future__ import annotations

import logging
import sys
import time

import orjson
import structlog


def _render_json(_, __, event_dict) -> str:
    return orjson.dumps(event_dict, default=str).decode()


def setup(log_format: str = "json", level: int = logging.INFO) -> None:
    shared = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer = _render_json if log_format == "json" else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        logger_factory=structlog.PrintLoggerFactory(sys.stdout),
        cache_logger_on_first_use=True,
    )
    # Libraries log through the standard library: give them the same line format.
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                renderer,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # aiohttp's own access log is replaced by the request middleware's line.
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    # The pool retries its connections through an outage with a traceback a try; the request
    # middleware reports the outage itself, one line now and then.
    logging.getLogger("asyncpg.pool").setLevel(logging.ERROR)


class Sampled:
    """An event logged at most once per key every `interval` seconds, with how many were left
    out since (`suppressed`): a flood of the same trouble must not bury the log."""

    def __init__(self, logger, event: str, *, level: str = "error", interval: float = 5.0):
        self._log = getattr(logger, level)
        self._event = event
        self._interval = interval
        self._last: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}

    def __call__(self, key: str, **fields) -> None:
        now = time.monotonic()
        if key in self._last and now - self._last[key] < self._interval:
            self._suppressed[key] = self._suppressed.get(key, 0) + 1
            return
        self._last[key] = now
        self._log(self._event, **fields, suppressed=self._suppressed.pop(key, 0))
