"""The riders list's filter by path and assignment state (docs/admin-riders.md, "One riders
filter"), and the reports' paths table whose counts link to it (docs/reports.md)."""

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.admin.riders import SQL as RIDERS_SQL
from app.admin.search import matching_riders_parameters
from jobs.reports import recount
from tests.admin.riders_data import FLAG_PATH_ID, PATH_ID, add_riders
from tests.admin.test_riders import _listed
from tests.web import PageClient, sign_in

UNKNOWN_PATH = "00000000-0000-0000-0000-0000000000ff"


async def add_path_riders(db) -> None:
    """18 riders of AE (Dubai, Abu Dhabi) and KW, each with assignments of the two paths in
    states that differ by rider: completed, open, open past the deadline, or none."""
    await add_riders(db)
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city) SELECT 'P-' || lpad(i::text, 2, '0'),"
        " 'Path rider ' || i, CASE WHEN i % 3 = 0 THEN 'KW' ELSE 'AE' END,"
        " CASE WHEN i % 3 = 0 THEN 'Kuwait City' WHEN i % 3 = 1 THEN 'Dubai' ELSE 'Abu Dhabi'"
        " END FROM generate_series(1, 18) i"
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)"
        " SELECT 'P-' || lpad(i::text, 2, '0'), CASE WHEN i % 2 = 0 THEN $1 ELSE $2 END::uuid,"
        " 'api', now() + CASE WHEN i % 4 < 2 THEN interval '3 days' ELSE interval '-1 day' END,"
        " CASE WHEN i % 5 = 0 THEN now() END FROM generate_series(1, 18) i",
        PATH_ID,
        FLAG_PATH_ID,
    )
    # A few riders hold both paths.
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)"
        " SELECT 'P-' || lpad(i::text, 2, '0'), $1, 'api', now() - interval '2 days', NULL"
        " FROM generate_series(1, 18, 4) i",
        PATH_ID,
    )
    await recount(db)


async def _page(client, address: str) -> tuple[int, str]:
    response = await client.get(address)
    return response.status, await response.text()


def _matches(page: str) -> int:
    found = re.search(r'<p class="result-count" role="status">([\d,]+) riders? match', page)
    assert found, page
    return int(found.group(1).replace(",", ""))


def _count_links(page: str) -> list[tuple[str, str]]:
    """The paths table's counts that are links: (address, number shown)."""
    table = re.search(r'<section id="paths">(.*?)</section>', page, re.S).group(1)
    return [
        (html.unescape(href), number)
        for href, number in re.findall(r'<a href="(/admin/riders\?[^"]+)"[^>]*>(\d+)</a>', table)
    ]


def _counts(page: str) -> list[str]:
    """The paths table's assigned, completed and overdue cells, as text."""
    table = re.search(r"<tbody>(.*?)</tbody>", page, re.S).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    return [re.sub(r"<[^>]+>", "", row[column]) for row in cells for column in (1, 2, 4)]


async def _every_count_equals_its_list(client, report_query: str) -> None:
    status, page = await _page(client, f"/admin/reports?{report_query}")
    assert status == 200
    links = _count_links(page)
    # Every count but a zero is a link.
    assert [number for _, number in links] == [n for n in _counts(page) if n != "0"]
    assert links
    for address, number in links:
        status, listed = await _page(client, address)
        assert status == 200, address
        assert _matches(listed) == int(number), address
        # The list shows the path and the state chosen.
        query = parse_qs(urlsplit(address).query)
        assert f'<option value="{query["path"][0]}" selected>' in listed
        assert f'<option value="{query["path_state"][0]}" selected>' in listed


async def test_each_count_of_the_paths_table_links_to_as_many_riders(admin_client, db):
    await add_path_riders(db)
    for query in ("", "markets=AE", "markets=AE&cities=Dubai", "cities=Kuwait+City"):
        await _every_count_equals_its_list(admin_client, query)


async def test_a_market_limited_admin_follows_the_counts_of_their_markets(
    make_client, make_admin, db
):
    await add_path_riders(db)
    account = await make_admin(email="kw@example.com", role="viewer", markets=("KW",))
    kw = PageClient(await make_client())
    assert (await sign_in(kw, account)).status == 303
    await _every_count_equals_its_list(kw, "")
    # Another market's riders of the path are not listed.
    _, page = await _page(kw, f"/admin/riders?path={PATH_ID}")
    assert _listed(page) == ["P-06", "P-09", "P-12", "P-18"]


async def test_the_filter_by_path_and_state_lists_exactly_those_riders(admin_client, db):
    await add_path_riders(db)
    expected = {
        "": ["P-01", "P-02", "P-04", "P-05", "P-06", "P-08", "P-09", "P-10"],
        "&path_state=assigned": ["P-01", "P-02", "P-04", "P-05", "P-06", "P-08", "P-09", "P-10"],
        "&path_state=completed": ["P-10"],
        "&path_state=overdue": ["P-01", "P-02", "P-05", "P-06", "P-09"],
    }
    for state, riders in expected.items():
        _, page = await _page(admin_client, f"/admin/riders?path={PATH_ID}{state}&q=Path+rider+")
        listed = [rider for rider in _listed(page) if rider <= "P-10"]
        assert listed == riders, state
        # The export takes the same filter.
        export = await admin_client.get(f"/admin/exports/riders.csv?path={PATH_ID}{state}")
        exported = [line.split(",", 1)[0] for line in (await export.text()).splitlines()[1:]]
        _, whole = await _page(admin_client, f"/admin/riders?path={PATH_ID}{state}")
        assert exported == _listed(whole)
    # The list shows the path chosen and its state, and the assign link is not offered.
    _, page = await _page(admin_client, f"/admin/riders?path={PATH_ID}&path_state=overdue")
    assert f'<option value="{PATH_ID}" selected>' in page
    assert '<option value="overdue" selected>Overdue</option>' in page
    assert "matching riders</a>" not in page
    # overdue=1 is overdue on any path; path_state=overdue on the path chosen.
    _, page = await _page(admin_client, f"/admin/riders?path={FLAG_PATH_ID}&overdue=1")
    assert _listed(page) == ["P-01", "P-03", "P-05", "P-07", "P-09", "P-11", "P-13", "P-17"]
    _, page = await _page(admin_client, f"/admin/riders?path={FLAG_PATH_ID}&path_state=overdue")
    assert _listed(page) == ["P-03", "P-07", "P-11"]
    # A path no rider holds.
    _, page = await _page(admin_client, f"/admin/riders?path={UNKNOWN_PATH}")
    assert "No rider matches." in page


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("path=basics", "path", "path is a path&#39;s ID (a UUID)."),
        ("path=" + PATH_ID[:-1] + "٣", "path", "path is a path&#39;s ID (a UUID)."),
        (f"path={PATH_ID}&path_state=late", "path_state", "Must be one of"),
        ("path_state=overdue", "path_state", "Choose a path for its state."),
    ],
)
async def test_a_bad_path_filter_is_a_400_naming_the_field(admin_client, db, query, field, message):
    await add_path_riders(db)
    status, page = await _page(admin_client, f"/admin/riders?{query}")
    assert status == 400
    assert message in page
    assert re.search(rf'<select id="{field}" name="{field}">.*?class="error"', page, re.S)
    export = await admin_client.get(f"/admin/exports/riders.csv?{query}")
    assert export.status == 400
    assert f"{field}: " in await export.text()


async def test_a_report_the_list_cannot_narrow_alike_shows_plain_counts(admin_client, db):
    await add_path_riders(db)
    for query in ("markets=AE&markets=KW", "assigned_from=2020-01-01"):
        status, page = await _page(admin_client, f"/admin/reports?{query}")
        assert status == 200 and _count_links(page) == []
        assert re.search(r'<section id="paths">.*?<td>\d+</td>', page, re.S)


async def test_the_path_filter_finds_riders_through_the_path_index(db):
    """A few thousand assignments: the path filter reads the path's through the assignments'
    key, which leads with the path, not every assignment."""
    await add_riders(db)
    await db.execute(
        "INSERT INTO riders (rider_id, name, market) SELECT 'X-' || i, 'X', 'AE'"
        " FROM generate_series(1, 3000) i"
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " SELECT 'X-' || i, CASE WHEN i % 50 = 0 THEN $1 ELSE $2 END::uuid, 'api', now()"
        " FROM generate_series(1, 3000) i",
        PATH_ID,
        FLAG_PATH_ID,
    )
    await db.execute("ANALYZE assignments")
    parameters = matching_riders_parameters({"path": PATH_ID, "path_state": "overdue"}, [])
    plan = "\n".join(
        row[0] for row in await db.fetch("EXPLAIN " + RIDERS_SQL.riders_count, *parameters, 10)
    )
    assert "assignments_pkey" in plan, plan
