"""A file from a multipart form (field `file`), read as a stream up to a limit: a request
that says it is larger is refused before anything is read, one that turns out larger is
refused as soon as it passes the limit (413)."""

from __future__ import annotations

import posixpath

from aiohttp import BodyPartReader, web

from app.core.http import MiB

FIELD = "file"
# Room for the multipart framing and the form's other fields around the file.
FRAMING = 64 * 1024
CHUNK = 256 * 1024


class UploadRefused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def too_large(limit: int) -> UploadRefused:
    return UploadRefused(413, f"The file is larger than {limit // MiB} MB.")


async def read_file(request: web.Request, limit: int) -> tuple[str, bytes]:
    """(file name without folders, content) of the form's `file`."""
    if request.content_type != "multipart/form-data":
        raise UploadRefused(400, "Choose a file to upload.")
    if request.content_length is not None and request.content_length > limit + FRAMING:
        raise too_large(limit)
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if part.name != FIELD or not isinstance(part, BodyPartReader) or not part.filename:
            continue
        chunks, size = [], 0
        while chunk := await part.read_chunk(CHUNK):
            size += len(chunk)
            if size > limit:
                raise too_large(limit)
            chunks.append(chunk)
        if not size:
            raise UploadRefused(400, "The file is empty.")
        name = posixpath.basename(part.filename.replace("\\", "/")).replace("\x00", "")
        return name[-255:] or "upload", b"".join(chunks)
    raise UploadRefused(400, "Choose a file to upload.")
