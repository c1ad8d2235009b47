"""A page as a phone and a desk show it: it fits the width, axe-core finds nothing, and a
screenshot of each is kept for a person to look at."""

from pathlib import Path

from tests.web import PHONE, no_axe_violation

DESK = {"width": 1280, "height": 800}


async def fits_both_widths(page, folder: Path, name: str) -> None:
    """Checks the page at 360 and 1280 px (`folder/name-360.png`, `-1280.png`), and leaves it
    at the phone's size."""
    for viewport in (PHONE, DESK):
        await page.set_viewport_size(viewport)
        assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        await no_axe_violation(page)
        await page.screenshot(path=str(folder / f"{name}-{viewport['width']}.png"), full_page=True)
    await page.set_viewport_size(PHONE)
