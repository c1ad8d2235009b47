"""One JSON object a line on stdout (or readable lines with LOG_FORMAT=console).

Every process logs through structlog (`setup`) but serve's supervising process, which writes
its few lines in the same format with `Lines`: importing structlog brings asyncio (and rich,
where it is installed), which would double that process's memory (bench/memory.py).
"""

from __future__ import annotations

import logging
import sys
import time
from datetime import UTC, datetime

import orjson


def _render_json(_, __, event_dict) -> str:
    return orjson.dumps(event_dict, default=str).decode()


def setup(log_format: str = "json", level: int = logging.INFO) -> None:
    import structlog

    shared = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer = _render_json if log_format == "json" else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        # One write a line: print() writes the newline apart on an unbuffered stdout
        # (PYTHONUNBUFFERED=1), where another process's line could land between the two.
        logger_factory=structlog.WriteLoggerFactory(sys.stdout),
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


class Lines(logging.Handler):
    """A logger for serve's supervising process: `info(event, **fields)` (and `error`)
    writes the line structlog would (see `setup`); as the root logger's handler it writes the
    standard library's records (the embedded database's) the same way."""

    def __init__(self, log_format: str = "json"):
        super().__init__()
        self.log_format = log_format

    def info(self, event: str, **fields) -> None:
        self._write("info", event, fields)

    def error(self, event: str, **fields) -> None:
        self._write("error", event, fields)

    def emit(self, record: logging.LogRecord) -> None:
        fields = {"logger": record.name}
        if record.exc_info:
            fields["exception"] = logging.Formatter().formatException(record.exc_info)
        self._write(record.levelname.lower(), record.getMessage(), fields)

    def _write(self, level: str, event: str, fields: dict) -> None:
        now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        if self.log_format == "json":
            line = {**fields, "event": event, "level": level, "timestamp": now}
            text = _render_json(None, None, line)
        else:  # structlog's ConsoleRenderer, without colours
            pairs = {**fields}
            logger = pairs.pop("logger", None)
            words = [f"{now} [{level:<9}] {event:<30}", *([f"[{logger}]"] if logger else [])]
            words += (f"{key}={value!r}" for key, value in sorted(pairs.items()))
            text = " ".join(words).rstrip()
        # One write with its newline, as structlog's: processes share stdout, and print()
        # would write the newline apart when stdout is unbuffered (PYTHONUNBUFFERED).
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


# serve's supervising process's logger, set up by setup_lines.
lines = Lines()


def setup_lines(log_format: str = "json", level: int = logging.INFO) -> None:
    """`setup` without structlog, for serve's supervising process (`lines`)."""
    lines.log_format = log_format
    root = logging.getLogger()
    root.handlers[:] = [lines]
    root.setLevel(level)


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
