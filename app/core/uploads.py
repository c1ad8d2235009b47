"""A file from a multipart form (field `file`), read as a stream up to a limit: a request
that says it is larger is refused before anything is read, one that turns out larger is
refused as soon as it passes the limit (413)."""

from __future__ import annotations

import posixpath
from collections.abc import AsyncIterator

from aiohttp import BodyPartReader, MultipartReader, web

from app.core.http import MiB

FIELD = "file"
# Room for the multipart framing and the form's other fields around the file.
FRAMING = 64 * 1024
CHUNK = 256 * 1024


# The reader of a multipart form whose first part (the csrf_token) the CSRF check has read.
READER = web.RequestKey("multipart_reader", MultipartReader)


async def reader(request: web.Request) -> MultipartReader:
    """The form's parts, after those already read (the CSRF check reads the token's)."""
    if READER not in request:
        request[READER] = await request.multipart()
    return request[READER]


class TooLarge(Exception):
    """The file, or the request that carries it, is larger than its limit."""


async def file_part(request: web.Request, limit: int) -> BodyPartReader | None:
    """The form's `file` part, to be read with `chunks`; None when the request is not a
    multipart form or has no such part. TooLarge when the request says it is larger than a
    file of `limit` bytes with its framing."""
    if request.content_type != "multipart/form-data":
        return None
    if request.content_length is not None and request.content_length > limit + FRAMING:
        raise TooLarge
    parts = await reader(request)
    while (part := await parts.next()) is not None:
        if part.name == FIELD and isinstance(part, BodyPartReader):
            return part
    return None


async def chunks(part: BodyPartReader, limit: int) -> AsyncIterator[bytes]:
    """The part's content as it arrives; TooLarge as soon as it passes `limit` bytes."""
    size = 0
    while chunk := await part.read_chunk(CHUNK):
        size += len(chunk)
        if size > limit:
            raise TooLarge
        yield chunk


async def content(part: BodyPartReader, limit: int) -> bytes:
    """The part's whole content; TooLarge past `limit` bytes."""
    return b"".join([chunk async for chunk in chunks(part, limit)])


def file_name(part: BodyPartReader) -> str:
    """The file's name without its folders (as a browser on Windows may send it)."""
    name = posixpath.basename((part.filename or "").replace("\\", "/")).replace("\x00", "")
    return name[-255:] or "upload"


class UploadRefused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


async def read_file(request: web.Request, limit: int) -> tuple[str, bytes]:
    """(file name without folders, content) of the form's `file`; UploadRefused with the page's
    status and message when there is none, it is empty or it is too large."""
    try:
        part = await file_part(request, limit)
        if part is None or not part.filename:
            raise UploadRefused(400, "Choose a file to upload.")
        data = await content(part, limit)
    except TooLarge:
        raise UploadRefused(413, f"The file is larger than {limit // MiB} MB.") from None
    if not data:
        raise UploadRefused(400, "The file is empty.")
    return file_name(part), data
