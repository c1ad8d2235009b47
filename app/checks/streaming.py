"""A JSON array streamed from a database cursor, in constant memory.

Each row is one element's JSON text (PostgreSQL renders it), so the server only joins text:
rows arrive in batches and leave in chunks of about CHUNK_CHARS characters. Whatever the
number of rows, at most one batch and one chunk are held.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence

from aiohttp import web

from app.core.errors import ApiError
from app.core.gates import Gate
from app.core.streaming import write_chunks

# Tens of kB a write: few enough writes to be cheap, small enough to keep memory flat.
CHUNK_CHARS = 64 * 1024

Batches = AsyncIterator[Sequence[Sequence[str]]]

# A stream holds a connection for as long as its client reads: a few at a time, so that slow
# readers cannot hold many of the server's connections.
MAX_STREAMS = 4
STREAM_WAIT = 5.0
BUSY = ApiError(
    503, f"{MAX_STREAMS} check lists are being streamed already; retry shortly.", "busy"
)

# One of MAX_STREAMS per process; 503 `busy` after STREAM_WAIT seconds without one.
STREAMS = Gate(MAX_STREAMS, STREAM_WAIT, lambda: BUSY)


async def _next(batches: Batches) -> Sequence[Sequence[str]]:
    """The next batch, or () at the end. (On CPython 3.11, `anext(batches, ())` awaited inside
    the async generator below raised SystemError at the end of `batches`.)"""
    try:
        return await batches.__anext__()
    except StopAsyncIteration:
        return ()


async def _chunks(batches: Batches, first: Sequence[Sequence[str]]) -> AsyncIterator[str]:
    """The array's text in pieces of about CHUNK_CHARS; `first` is the batch already fetched."""
    opening, pending, size = "[", [], 0
    batch = first
    while batch:
        for (text,) in batch:
            pending.append(text)
            size += len(text)
            if size >= CHUNK_CHARS:
                yield opening + ",".join(pending)
                opening, pending, size = ",", [], 0
        batch = await _next(batches)
    yield opening + ",".join(pending) + "]" if pending or opening == "[" else "]"


def array_response(rows: Sequence[Sequence[str]]) -> web.Response:
    """200 with the JSON array of `rows` (1-column rows of an element's JSON text), sent whole
    with its length."""
    return web.Response(
        text="[" + ",".join(text for (text,) in rows) + "]",
        content_type="application/json",
        charset="utf-8",
    )


async def stream_array(request: web.Request, batches: Batches) -> web.StreamResponse:
    """Answer 200 with the JSON array of the elements in `batches` (lists of 1-column rows).

    The first two batches are fetched before the status line is sent, so a failing query
    still answers a proper error, and an array that fits in them is sent whole, with its
    length. After that, a client that goes away ends the stream quietly (the caller then
    leaves its transaction, which closes the cursor and ends the query); any other failure
    cuts the connection, so the client sees a broken body rather than a short but valid
    array, and is raised.
    """
    first = await _next(batches)
    second = await _next(batches) if first else ()
    if not second:  # the whole array is in hand: one plain response
        return array_response(first)
    response = web.StreamResponse()
    response.content_type = "application/json"
    response.charset = "utf-8"
    await response.prepare(request)
    async with contextlib.aclosing(_chunks(batches, [*first, *second])) as chunks:
        await write_chunks(request, response, chunks)
    return response
