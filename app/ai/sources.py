"""Text out of uploaded files (DESIGN §10): PDF (pypdf), a SCORM package (`imsmanifest.xml`
and its HTML pages), plain text and Markdown; and text cut into pieces (a source into parts
that fit the model's context, a knowledge document into passages).

These functions are CPU work: callers run them in a thread (`asyncio.to_thread`).
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from html.parser import HTMLParser
from xml.etree import ElementTree

import pypdf
from pypdf.errors import PyPdfError

from app.core.http import MiB

# Spec, Limits: a course source file and a knowledge document are at most 20 MB each.
FILE_LIMIT = 20 * MiB
# A SCORM package may unpack to at most this much, with at most this many entries, and no
# entry may unpack to more than RATIO times its packed size (a zip bomb is refused unread).
UNPACKED_LIMIT = 100 * MiB
ENTRIES_LIMIT = 10_000
RATIO = 100

SOURCE_KINDS = {".pdf": "pdf", ".zip": "scorm", ".txt": "text", ".md": "text", ".markdown": "text"}
KNOWLEDGE_KINDS = {".pdf": "pdf", ".txt": "text", ".md": "text", ".markdown": "text"}


class SourceError(Exception):
    """A file whose text cannot be taken out; the message says why, for the team."""


def kind_of(filename: str, kinds: dict[str, str]) -> str | None:
    """The kind of file its name says ("pdf", "scorm", "text"), or None when not accepted."""
    return kinds.get(posixpath.splitext(filename.lower())[1])


def extract(kind: str, data: bytes) -> str:
    """The text of a file of `kind`, NUL characters removed (PostgreSQL cannot store them)."""
    text = {"pdf": pdf_text, "scorm": scorm_text, "text": plain_text}[kind](data)
    text = text.replace("\x00", "").strip()
    if not text:
        raise SourceError("the file holds no text")
    return text


def plain_text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError("the file is not UTF-8 text") from None


def pdf_text(data: bytes) -> str:
    if not data.startswith(b"%PDF-"):
        raise SourceError("the file is not a PDF")
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise SourceError("the PDF is encrypted")
        return "\n\n".join(page.extract_text() or "" for page in reader.pages)
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise SourceError(f"the PDF could not be read ({type(exc).__name__})") from None


def _inside(name: str) -> str | None:
    """The entry's path inside the package, or None when it would leave it."""
    if "\\" in name or name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return None
    normal = posixpath.normpath(name)
    if normal == ".." or normal.startswith("../"):
        return None
    return normal


def scorm_text(data: bytes) -> str:
    """The text of the package's HTML pages, in the order its manifest lists them."""
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise SourceError("the file is not a ZIP archive") from None
    with package:
        entries = package.infolist()
        if len(entries) > ENTRIES_LIMIT:
            raise SourceError(f"the package holds more than {ENTRIES_LIMIT} files")
        for entry in entries:
            if _inside(entry.filename) is None:
                raise SourceError(f"the package holds a path that leaves it: {entry.filename}")
            if entry.file_size > RATIO * max(entry.compress_size, 1024):
                raise SourceError(f"the package looks like a zip bomb ({entry.filename})")
        if sum(entry.file_size for entry in entries) > UNPACKED_LIMIT:
            raise SourceError(f"the package unpacks to more than {UNPACKED_LIMIT // MiB} MB")
        files = {_inside(entry.filename): entry for entry in entries if not entry.is_dir()}
        if "imsmanifest.xml" not in files:
            raise SourceError("not a SCORM package: imsmanifest.xml is missing")
        manifest = _read(package, files["imsmanifest.xml"])
        pages = [files[page] for page in _manifest_pages(manifest) if page in files]
        if not pages:
            raise SourceError("the SCORM package lists no HTML page")
        return "\n\n".join(
            html_text(_read(package, page).decode("utf-8", "replace")) for page in pages
        )


def _read(package: zipfile.ZipFile, entry: zipfile.ZipInfo) -> bytes:
    # The header's size may lie: never read more than it declares.
    with package.open(entry) as file:
        data = file.read(entry.file_size + 1)
    if len(data) > entry.file_size:
        raise SourceError(f"the package looks like a zip bomb ({entry.filename})")
    return data


def _manifest_pages(manifest: bytes) -> list[str]:
    """The HTML files the manifest's resources name, in order, as paths inside the package."""
    if b"<!DOCTYPE" in manifest or b"<!ENTITY" in manifest:
        raise SourceError("imsmanifest.xml declares a DOCTYPE or entities, which are refused")
    try:
        root = ElementTree.fromstring(manifest)
    except ElementTree.ParseError:
        raise SourceError("imsmanifest.xml is not valid XML") from None
    pages: list[str] = []
    for element in root.iter():
        if element.tag.rsplit("}", 1)[-1] not in ("resource", "file"):
            continue
        href = (element.get("href") or "").split("#")[0].split("?")[0]
        if not href.lower().endswith((".html", ".htm")):
            continue
        page = _inside(href)
        if page is None:
            raise SourceError(f"imsmanifest.xml names a path that leaves the package: {href}")
        if page not in pages:
            pages.append(page)
    return pages


class _TextOfHtml(HTMLParser):
    SKIPPED = frozenset({"script", "style", "head", "template", "noscript"})
    BLOCKS = frozenset(
        {
            "p",
            "div",
            "br",
            "li",
            "tr",
            "section",
            "article",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "table",
            "ul",
            "ol",
            "blockquote",
            "pre",
            "title",
        }
    )

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIPPED:
            self.skipping += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag):
        if tag in self.SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def html_text(page: str) -> str:
    parser = _TextOfHtml()
    parser.feed(page)
    parser.close()
    return "".join(parser.parts)


def pieces(text: str, size: int) -> list[str]:
    """`text` in pieces of at most `size` characters, cut between paragraphs where possible,
    else between words; blank space inside a paragraph is folded."""
    result: list[str] = []
    current: list[str] = []
    length = 0
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        while len(paragraph) > size:
            cut = paragraph.rfind(" ", 0, size)
            cut = cut if cut > size // 2 else size
            chunks = [paragraph[:cut].strip()]
            paragraph = paragraph[cut:].strip()
            result.extend(_flush(current))
            current, length = [], 0
            result.extend(chunks)
        if not paragraph:
            continue
        if length + len(paragraph) + 2 > size and current:
            result.extend(_flush(current))
            current, length = [], 0
        current.append(paragraph)
        length += len(paragraph) + 2
    result.extend(_flush(current))
    return result


def _flush(paragraphs: list[str]) -> list[str]:
    return ["\n\n".join(paragraphs)] if paragraphs else []
