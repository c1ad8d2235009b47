"""Course text (lesson bodies, written by admins or a model) as safe HTML.

CommonMark with raw HTML off: a `<script>` in a lesson shows as text, and links may only be
http(s) or mailto (markdown-it's own link validation drops `javascript:`).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markupsafe import Markup

_RENDERER = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})


def to_html(text: str | None) -> Markup:
    """The text rendered as HTML, safe to put in a page unescaped."""
    return Markup(_RENDERER.render(text or ""))
