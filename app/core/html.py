"""Small self-contained HTML pages, for what riders open on their phones."""

from __future__ import annotations

import html

from aiohttp import web


def page(status: int, title: str, *paragraphs: str, items: list[str] | None = None) -> web.Response:
    """A page that is personal (`no-store`) and sends no Referer, so a token in its address
    never travels to another site."""
    parts = [f"<h1>{html.escape(title)}</h1>"]
    parts += [f"<p>{html.escape(text)}</p>" for text in paragraphs]
    if items:
        parts.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>")
    document = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title></head><body>{''.join(parts)}</body></html>"
    )
    return web.Response(
        text=document,
        status=status,
        content_type="text/html",
        charset="utf-8",
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
    )
