"""The rider app as an installable web app (docs/rider-offline.md#installable): `GET
/manifest.webmanifest`, linked from every rider page, so "Add to home screen" gives an icon that
opens `/training` full-screen. The icons are PNGs committed under app/static/icons (the maskable one
keeps its drawing inside the central safe zone)."""

from __future__ import annotations

import orjson
from aiohttp import web

from app.rider.texts import TEXTS

routes = web.RouteTableDef()

THEME_COLOUR = "#16324f"  # the top bar
BACKGROUND_COLOUR = "#f4f5f7"  # the page

MANIFEST = {
    "name": TEXTS["app_name"]["en"],
    "short_name": "Training",
    "start_url": "/training",
    "scope": "/",
    "display": "standalone",
    "theme_color": THEME_COLOUR,
    "background_color": BACKGROUND_COLOUR,
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/icon-maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ],
}


@routes.get("/manifest.webmanifest")
async def manifest(request: web.Request) -> web.Response:
    return web.Response(
        body=orjson.dumps(MANIFEST),
        content_type="application/manifest+json",
        headers={"Cache-Control": "public, max-age=3600"},
    )
