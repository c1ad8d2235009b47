"""Text out of uploaded files (docs/ai.md): PDF (pypdf), a SCORM package (`imsmanifest.xml`
and its HTML pages), plain text and Markdown; and text cut into pieces (a source into parts
that fit the model's context, a knowledge document into passages).

`extract` is CPU and memory work on a stranger's file: it runs in a child process with limits
that end it (`app/ai/extraction.py` starts it; `main` below is the child's side). `pieces`
runs in a thread.
"""

from __future__ import annotations

import io
import lzma
import posixpath
import re
import resource
import sys
import zipfile
import zlib
from dataclasses import dataclass
from html.parser import HTMLParser

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

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


# The compression methods Python's zipfile reads.
READABLE_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
# Exit status of the child when its memory ran out (a SourceError's is 2).
OUT_OF_MEMORY = 3


class SourceError(Exception):
    """A file whose text cannot be taken out; the message says why, for the team."""


@dataclass(frozen=True)
class Bounds:
    """Where extraction stops: characters of text, pages of a PDF."""

    chars: int
    pages: int


class _TooMuchText(BaseException):
    """Past the bounds' characters. Not an Exception: pypdf catches those around each form a
    page draws and goes on."""


class _Text:
    """Text gathered up to the bounds' characters."""

    def __init__(self, bounds: Bounds):
        self.bounds = bounds
        self.parts: list[str] = []
        self.length = 0

    def add(self, text: str) -> None:
        self.length += len(text)
        if self.length > self.bounds.chars:
            raise _TooMuchText
        self.parts.append(text)


def kind_of(filename: str, kinds: dict[str, str]) -> str | None:
    """The kind of file its name says ("pdf", "scorm", "text"), or None when not accepted."""
    return kinds.get(posixpath.splitext(filename.lower())[1])


def extract(kind: str, data: bytes, bounds: Bounds) -> str:
    """The text of a file of `kind`, NUL characters removed (PostgreSQL cannot store them)."""
    text = _Text(bounds)
    try:
        {"pdf": pdf_text, "scorm": scorm_text, "text": plain_text}[kind](data, text)
    except _TooMuchText:
        raise SourceError(f"the file holds more than {bounds.chars:,} characters of text") from None
    joined = "".join(text.parts).replace("\x00", "").strip()
    if not joined:
        raise SourceError("the file holds no text")
    return joined


def plain_text(data: bytes, text: _Text) -> None:
    try:
        text.add(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise SourceError("the file is not UTF-8 text") from None


def pdf_text(data: bytes, text: _Text) -> None:
    if not data.startswith(b"%PDF-"):
        raise SourceError("the file is not a PDF")
    # Imported here: only the extraction's child process reads PDFs (app/ai/extraction.py).
    import pypdf
    from pypdf.errors import PyPdfError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise SourceError("the PDF is encrypted")
        if len(reader.pages) > text.bounds.pages:
            raise SourceError(f"the PDF has more than {text.bounds.pages:,} pages")
        for page in reader.pages:
            # Counted as pypdf finds it: a page of nested forms stops at the limit too.
            page.extract_text(visitor_text=lambda piece, *_: text.add(piece))
            text.add("\n\n")
    except (PyPdfError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise SourceError(f"the PDF could not be read ({type(exc).__name__})") from None


def _inside(name: str) -> str | None:
    """The entry's path inside the package, or None when it would leave it."""
    if "\\" in name or name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return None
    normal = posixpath.normpath(name)
    if normal == ".." or normal.startswith("../"):
        return None
    return normal


def scorm_text(data: bytes, text: _Text) -> None:
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
        for page in pages:
            text.add(html_text(_read(package, page).decode("utf-8", "replace")))
            text.add("\n\n")


def _read(package: zipfile.ZipFile, entry: zipfile.ZipInfo) -> bytes:
    if entry.flag_bits & 0x1:
        raise SourceError(f"the package holds an encrypted file ({entry.filename})")
    if entry.compress_type not in READABLE_METHODS:
        raise SourceError(
            f"the package's file {entry.filename} is compressed with a method that cannot be "
            f"read (method {entry.compress_type})"
        )
    # The header's size may lie: never read more than it declares.
    try:
        with package.open(entry) as file:
            data = file.read(entry.file_size + 1)
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, EOFError):
        raise SourceError(f"the package's file {entry.filename} is damaged") from None
    if len(data) > entry.file_size:
        raise SourceError(f"the package looks like a zip bomb ({entry.filename})")
    return data


def _manifest_pages(manifest: bytes) -> list[str]:
    """The HTML files the manifest's resources name, in order, as paths inside the package.
    A DOCTYPE or an entity is refused by the parser itself, in whatever encoding it comes."""
    try:
        root = fromstring(manifest, forbid_dtd=True)
    except DefusedXmlException:
        raise SourceError(
            "imsmanifest.xml declares a DOCTYPE or entities, which are refused"
        ) from None
    except ParseError:
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


def main() -> None:
    """The child process of app/ai/extraction.py: `python -m app.ai.sources KIND CHARS PAGES
    MEMORY SECONDS` with the file on standard input. Its address space and CPU time are
    limited first; then the text goes to standard output (exit 0), or the SourceError's
    message (exit 2), or nothing (exit OUT_OF_MEMORY)."""
    kind, chars, pages, memory, seconds = sys.argv[1], *map(int, sys.argv[2:6])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # A backstop should the parent die before it kills a child that runs too long.
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    data = sys.stdin.buffer.read()
    try:
        text = extract(kind, data, Bounds(chars, pages))
    except MemoryError:
        sys.exit(OUT_OF_MEMORY)
    except SourceError as exc:
        sys.stdout.buffer.write(str(exc).encode())
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - a stranger's file: any failure is the file's
        sys.stdout.buffer.write(f"the file could not be read ({type(exc).__name__})".encode())
        sys.exit(2)
    sys.stdout.buffer.write(text.encode("utf-8", "replace"))  # a lone surrogate becomes "?"


if __name__ == "__main__":
    main()
