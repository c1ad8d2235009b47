"""What a page says once after a form's 303 (docs/admin-panel.md, "After every action")."""

import re

NOTICE = re.compile(r'<p class="notice done" role="status">([^<]*)</p>')


async def said_once(client, response) -> str:
    """The notice on the page a 303 leads to; the same address again (a refresh) shows the
    page without it."""
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    assert re.search(r"[?&]notice=[0-9a-f-]{36}\Z", location), location
    (said,) = NOTICE.findall(await client.text(location))
    assert NOTICE.findall(await client.text(location)) == []
    return said
