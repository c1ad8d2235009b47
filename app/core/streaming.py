"""Writing a long body as its rows arrive (the checks list, the panel's CSV exports)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import structlog
from aiohttp import web

log = structlog.get_logger("app.streaming")


async def write_chunks(
    request: web.Request,
    response: web.StreamResponse,
    chunks: AsyncIterator[str],
    *,
    head: str = "",
) -> None:
    """Write `head`, then `chunks` as they come, to the prepared `response`, then end it.

    A client that goes away ends the stream quietly (the caller then leaves its transaction,
    which closes the cursor and ends the query). Any other failure cuts the connection and is
    raised, so the client sees a broken body, never a short one that looks complete.
    """
    sent = 0
    try:
        await response.write(head.encode())
        async for chunk in chunks:
            await response.write(chunk.encode())
            sent += len(chunk)
        await response.write_eof()
    except ConnectionError:
        # Only the response's writes raise it: the database driver has its own errors.
        log.info("client went away mid-stream", path=request.path, sent_chars=sent)
    except BaseException:
        if request.transport is not None:
            request.transport.close()
        raise
