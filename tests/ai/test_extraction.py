"""Text extraction in a child process with limits that end it: PDF bombs
stop at the characters allowed, are killed at their time, or run out of their memory; a PDF
with too many pages, a SCORM manifest with a DOCTYPE in any encoding and a zip entry that
cannot be read fail the job with a readable reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import structlog

from app.ai import documents, extraction
from app.ai.sources import Bounds, SourceError
from app.core.http import MiB
from tests.ai.files import (
    MANIFEST,
    make_pdf,
    make_scorm,
    text_bomb_pdf,
    with_method,
)
from tests.ai.test_generation import failed_lines, generated

UNBOUNDED = Bounds(chars=10**9, pages=10)


def _children() -> list[str]:
    """Extraction children still alive on this machine, started by this process."""
    found = []
    for process in Path("/proc").glob("[0-9]*"):
        try:
            command = (process / "cmdline").read_bytes().split(b"\0")
            parent = (process / "stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        if b"app.ai.sources" in command and int(parent) == os.getpid():
            found.append(process.name)
    return found


async def _failed_job(ai_admin, name: str, data: bytes) -> str:
    with structlog.testing.capture_logs() as logs:
        _, page = await generated(ai_admin, name, data, logs=logs)
    assert 'data-job-status="failed"' in page
    (line,) = failed_lines(logs)
    assert line["event"] == "Course generation failed" and "exc_info" not in line
    return line["reason"]


def test_a_course_source_is_bounded_by_what_one_course_takes():
    assert extraction.COURSE_SOURCE.chars == documents.MAX_PARTS * documents.PART_CHARS


async def test_a_text_bomb_stops_at_the_character_limit(ai_admin, fake_ai, monkeypatch):
    monkeypatch.setattr(extraction, "COURSE_SOURCE", Bounds(chars=50_000, pages=2_000))
    bomb = text_bomb_pdf(megabytes=1)  # about 700,000 characters from 4 KB
    assert len(bomb) < 8_000
    reason = await _failed_job(ai_admin, "bomb.pdf", bomb)
    assert reason == "the file holds more than 50,000 characters of text"
    assert fake_ai.requests == []


async def test_a_pdf_bomb_is_killed_at_its_time_limit():
    with pytest.raises(SourceError, match="^reading the file took longer than 2 s$"):
        await extraction.text_of("pdf", text_bomb_pdf(), UNBOUNDED, seconds=2)
    assert _children() == []


async def test_a_pdf_bomb_that_needs_too_much_memory_is_ended(monkeypatch):
    monkeypatch.setattr(extraction, "MEMORY_LIMIT", 200 * MiB)
    with pytest.raises(SourceError, match="^reading the file needed more than 200 MB of memory$"):
        await extraction.text_of("pdf", text_bomb_pdf(), UNBOUNDED, seconds=60)
    assert _children() == []


async def test_a_pdf_with_more_pages_than_allowed_is_refused():
    with pytest.raises(SourceError, match="^the PDF has more than 2,000 pages$"):
        await extraction.text_of("pdf", make_pdf(["x"] * 2_001), extraction.COURSE_SOURCE)


async def test_a_manifest_with_a_doctype_is_refused_in_utf_16_too(ai_admin, fake_ai):
    manifest = MANIFEST.format(href="index.html").replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE manifest [<!ENTITY word "Helmets">]>',
    )
    package = make_scorm({"imsmanifest.xml": manifest.encode("utf-16")})
    reason = await _failed_job(ai_admin, "course.zip", package)
    assert reason == "imsmanifest.xml declares a DOCTYPE or entities, which are refused"
    assert fake_ai.requests == []


@pytest.mark.parametrize(
    ("method", "flags", "reason"),
    [
        (0, 1, "the package holds an encrypted file (index.html)"),
        (
            99,
            0,
            "the package's file index.html is compressed with a method that cannot be read "
            "(method 99)",
        ),
    ],
)
async def test_a_zip_entry_that_cannot_be_read_fails_the_job(ai_admin, method, flags, reason):
    package = with_method(make_scorm(), "index.html", method, flags)
    assert await _failed_job(ai_admin, "course.zip", package) == reason
