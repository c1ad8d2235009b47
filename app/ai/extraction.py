"""The text of an uploaded file, taken out in a child process with limits that really end it:
an 8 KB PDF could cost 16 s of CPU and 6.7 million characters, and a thread cannot
be stopped. The child (`python -m app.ai.sources`) stops at the characters and pages allowed,
its address space is capped (a MemoryError, or the kernel, ends it), and it is killed when its
time is up, or when the job or the request waiting for it is cancelled.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from app.ai import documents
from app.ai.sources import OUT_OF_MEMORY, Bounds, SourceError
from app.core.http import MiB

# What one course can take from its source (the model gets it in at most MAX_PARTS parts).
COURSE_SOURCE = Bounds(chars=documents.MAX_PARTS * documents.PART_CHARS, pages=2_000)
# A knowledge document: about 1,700 pages of text.
KNOWLEDGE_DOCUMENT = Bounds(chars=5_000_000, pages=2_000)
# The child's address space: a 20 MB file, pypdf's objects and the text fit well within it.
MEMORY_LIMIT = 768 * MiB
TIME_LIMIT = 60


async def text_of(kind: str, data: bytes, bounds: Bounds, *, seconds: int = TIME_LIMIT) -> str:
    """The file's text (sources.extract, in a child process); SourceError says why not."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "app.ai.sources",
        kind,
        str(bounds.chars),
        str(bounds.pages),
        str(MEMORY_LIMIT),
        str(seconds),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        async with asyncio.timeout(seconds):
            out, _ = await child.communicate(data)
    except TimeoutError:
        raise SourceError(f"reading the file took longer than {seconds} s") from None
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    if child.returncode == 0:
        return out.decode()
    if child.returncode == 2:
        raise SourceError(out.decode())
    if child.returncode == -signal.SIGXCPU:
        raise SourceError(f"reading the file took longer than {seconds} s of CPU")
    if child.returncode == OUT_OF_MEMORY:
        raise SourceError(f"reading the file needed more than {MEMORY_LIMIT // MiB} MB of memory")
    raise SourceError(f"reading the file failed (exit status {child.returncode})")
