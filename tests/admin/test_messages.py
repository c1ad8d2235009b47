"""The messages list: filters by status, kind and UTC days, keyset paging, the call list."""

import re

from tests.admin.riders_data import add_riders


async def _messages(db):
    await add_riders(db)
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, error, created_at) VALUES"
        " ('R-1', 'reminder', 'a', 'sent', NULL, '2026-11-20 23:59:59+00'),"
        " ('R-2', 'flag', 'b', 'failed', 'provider answered 400: <bad>', '2026-11-21 00:00:00+00'),"
        " ('R-3', 'reminder', 'c', 'logged', NULL, '2026-11-22 12:00:00+00')"
    )


def _riders(page: str) -> list[str]:
    return re.findall(r"</a> \(([^)]+)\)</td>", page)


async def _get(admin_client, query=""):
    response = await admin_client.get(f"/admin/messages{query}")
    return response.status, await response.text()


async def test_list_newest_first_with_the_call_list_explained(admin_client, db):
    await _messages(db)
    status, page = await _get(admin_client)
    assert status == 200
    assert _riders(page) == ["R-3", "R-2", "R-1"]
    assert "your call list" in page
    assert "provider answered 400: &lt;bad&gt;" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page


async def test_filters(admin_client, db):
    await _messages(db)
    assert _riders((await _get(admin_client, "?status=failed"))[1]) == ["R-2"]
    assert _riders((await _get(admin_client, "?kind=reminder"))[1]) == ["R-3", "R-1"]
    # UTC days, both ends included.
    assert _riders((await _get(admin_client, "?from=2026-11-21"))[1]) == ["R-3", "R-2"]
    assert _riders((await _get(admin_client, "?to=2026-11-21"))[1]) == ["R-2", "R-1"]
    assert _riders((await _get(admin_client, "?from=2026-11-21&to=2026-11-21"))[1]) == ["R-2"]
    _, page = await _get(admin_client, "?from=2026-11-23")
    assert "No message matches." in page


async def test_bad_filters_are_a_400_keeping_the_values(admin_client, db):
    await _messages(db)
    for query, message in [
        ("?status=lost&from=2026-11-21", "Must be one of"),
        ("?from=2026-02-30", "Enter a date as YYYY-MM-DD."),
        ("?to=٢٠٢٦-11-21", "Enter a date as YYYY-MM-DD."),
        ("?before=1x", "Not a message."),
    ]:
        status, page = await _get(admin_client, query)
        assert status == 400, query
        assert message in page, query
    _, page = await _get(admin_client, "?status=lost&from=2026-11-21")
    assert 'value="2026-11-21"' in page


async def test_keyset_paging(admin_client, db):
    await add_riders(db)
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, created_at)"
        " SELECT 'R-1', 'reminder', 'x', 'logged', '2026-11-01'::timestamptz + i * interval '1 min'"
        " FROM generate_series(1, 60) i"
    )
    _, page = await _get(admin_client, "?status=logged")
    assert page.count('<td data-label="Kind">reminder</td>') == 50
    next_link = re.search(r'href="/admin/messages(\?[^"]+)">Next', page).group(1)
    assert "status=logged" in next_link
    _, page = await _get(admin_client, next_link.replace("&amp;", "&"))
    assert page.count('<td data-label="Kind">reminder</td>') == 10
    assert "2026-11-01 00:01" in page and 'rel="next"' not in page
