"""Source files made in the tests: PDFs (hand-written, one text line a page) and SCORM
packages."""

from __future__ import annotations

import io
import zipfile
import zlib

MiB = 1024 * 1024


def make_pdf(pages: list[str], padding: bytes = b"") -> bytes:
    """A valid PDF with one page per text (Helvetica; ASCII text without parentheses);
    `padding` goes into an unused binary stream, as images make real files large."""
    count = len(pages)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids ["
        + b" ".join(f"{4 + 2 * i} 0 R".encode() for i in range(count))
        + f"] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, text in enumerate(pages):
        lines = text.split("\n")
        content = (
            b"BT /F1 11 Tf 14 TL 72 760 Td "
            + b" ".join(f"({line}) Tj T*".encode("latin-1") for line in lines)
            + b" ET"
        )
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {5 + 2 * i} 0 R"
            " /Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(
            f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream"
        )
    if padding:
        objects.append(
            f"<< /Length {len(padding)} >>\nstream\n".encode() + padding + b"\nendstream"
        )
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="course" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2">
  <organizations default="org"><organization identifier="org"><title>Helmets</title>
    <item identifier="i1" identifierref="r1"><title>Intro</title></item>
  </organization></organizations>
  <resources>
    <resource identifier="r1" type="webcontent" href="{href}">
      <file href="{href}"/><file href="pages/two.html"/>
    </resource>
  </resources>
</manifest>"""


def make_scorm(files: dict[str, bytes | str] | None = None, href: str = "index.html") -> bytes:
    """A SCORM package: a manifest naming `href` and pages/two.html, plus `files`."""
    entries = {
        "imsmanifest.xml": MANIFEST.format(href=href),
        "index.html": "<html><head><title>x</title><script>var secret = 1;</script></head>"
        "<body><h1>Helmets</h1><p>Always wear a helmet &amp; gloves.</p></body></html>",
        "pages/two.html": "<p>Check the strap before every ride.</p>",
        **(files or {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in entries.items():
            package.writestr(name, data)
    return out.getvalue()


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of `objects` (numbered from 1; the first is the catalog)."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


def _stream(content: bytes, extra: bytes = b"") -> bytes:
    return (
        f"<< /Length {len(content)} ".encode() + extra + b">>\nstream\n" + content + b"\nendstream"
    )


def _one_page_pdf(content: bytes) -> bytes:
    """A PDF of one page (Helvetica as /F1) whose content stream is `content`, compressed."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            _stream(zlib.compress(content, 9), b"/Filter /FlateDecode "),
            font,
        ]
    )


def text_bomb_pdf(megabytes: int = 60) -> bytes:
    """A PDF of about 150 KB whose one page's content stream inflates to `megabytes` MB of
    short text lines (pypdf's own limit on one stream is 75 MB): tens of millions of
    characters of text, hundreds of MB of parsed operators and minutes of CPU to take them
    all out."""
    line = b"(Helmets save lives) Tj T* "
    return _one_page_pdf(
        b"BT /F1 11 Tf 14 TL 72 700 Td " + line * (megabytes * MiB // len(line)) + b"ET"
    )


def with_method(package: bytes, name: str, method: int, flags: int = 0) -> bytes:
    """The zip `package` with the entry `name` marked as compressed with `method` (its
    bytes unchanged) and `flags` added to its general-purpose flags (1: encrypted), in its
    local header and in the central directory."""
    data = bytearray(package)
    encoded = name.encode()
    for signature, flag_at, method_at, name_length_at, name_at in (
        (b"PK\x03\x04", 6, 8, 26, 30),
        (b"PK\x01\x02", 8, 10, 28, 46),
    ):
        at = data.find(signature)
        while at != -1:
            length = int.from_bytes(data[at + name_length_at : at + name_length_at + 2], "little")
            if data[at + name_at : at + name_at + length] == encoded:
                old = int.from_bytes(data[at + flag_at : at + flag_at + 2], "little")
                data[at + flag_at : at + flag_at + 2] = (old | flags).to_bytes(2, "little")
                data[at + method_at : at + method_at + 2] = method.to_bytes(2, "little")
            at = data.find(signature, at + 4)
    return bytes(data)
