"""The rider app is installable: the web app manifest, its PNG icons, and the link to it on
every rider page (docs/rider-offline.md)."""

import struct

from tests.rider.rows import RIGHT, add_rider, course_for, form, signed_in

LINK = '<link rel="manifest" href="/manifest.webmanifest">'


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


async def test_the_manifest_opens_training_full_screen_with_png_icons(client):
    response = await client.get("/manifest.webmanifest")
    assert response.status == 200
    assert response.content_type == "application/manifest+json"
    manifest = await response.json(content_type=None)
    assert manifest["name"] == "Rider training" and manifest["short_name"]
    assert manifest["start_url"] == "/training" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        png = await client.get(icon["src"])
        assert png.status == 200 and icon["type"] == "image/png"
        width, height = _png_size(await png.read())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


async def test_every_rider_page_links_the_manifest(client, db):
    await add_rider(client)
    assert LINK in await (await client.get("/")).text()
    assert LINK in await (await client.get("/verify/AAAAAAAA")).text()
    rider = await signed_in(client)
    course_id = await course_for(db)
    base = f"/training/courses/{course_id}"
    for path in ("/training", base, f"{base}/lessons/1", f"{base}/quiz", "/training/assistant"):
        assert LINK in await (await rider.get(path)).text(), path
    result = await rider.submit(f"{base}/quiz", form(RIGHT))
    page = await result.text()
    assert LINK in page
    proof = page.split('href="/training/proofs/', 1)[1].split('"', 1)[0]
    assert LINK in await (await rider.get(f"/training/proofs/{proof}")).text()
