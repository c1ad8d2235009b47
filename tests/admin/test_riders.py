"""The riders list: search, filters, keyset paging, escaping."""

import re

import pytest

from tests.admin.riders_data import add_riders


def _listed(page: str) -> list[str]:
    return re.findall(r'<td><a href="/admin/riders/[^"]+">([^<]+)</a></td>', page)


async def _list(admin_client, query: str = "") -> tuple[int, str]:
    response = await admin_client.get(f"/admin/riders{query}")
    return response.status, await response.text()


async def test_list_shows_every_rider_in_id_order(admin_client, db):
    await add_riders(db)
    status, page = await _list(admin_client)
    assert status == 200
    assert _listed(page) == ["R-1", "R-2", "R-3", "R-4"]
    assert 'rel="next"' not in page


async def test_names_are_escaped(admin_client, db):
    await add_riders(db)
    _, page = await _list(admin_client)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


async def test_q_matches_rider_id_name_or_phone_end(admin_client, db):
    await add_riders(db)
    assert _listed((await _list(admin_client, "?q=R-3"))[1]) == ["R-3"]
    # The name, any case, anywhere in it (3 characters or more).
    assert _listed((await _list(admin_client, "?q=STONE"))[1]) == ["R-2"]
    assert _listed((await _list(admin_client, "?q=ri"))[1]) == []
    # LIKE's wildcards are searched as text.
    assert _listed((await _list(admin_client, "?q=100%25_"))[1]) == ["R-4"]
    assert _listed((await _list(admin_client, "?q=%25%25%25"))[1]) == []
    # The phone's last digits (4 or more, a leading + allowed).
    assert _listed((await _list(admin_client, "?q=4567"))[1]) == ["R-1"]
    assert _listed((await _list(admin_client, "?q=%2B0001"))[1]) == ["R-2"]
    assert _listed((await _list(admin_client, "?q=567"))[1]) == []
    # Only ASCII digits are digits.
    assert _listed((await _list(admin_client, "?q=٤٥٦٧"))[1]) == []


async def test_filters_combine(admin_client, db):
    await add_riders(db)
    assert _listed((await _list(admin_client, "?market=AE"))[1]) == ["R-1", "R-2"]
    assert _listed((await _list(admin_client, "?market=AE&status=onboarding"))[1]) == ["R-2"]
    assert _listed((await _list(admin_client, "?vehicle_type=car"))[1]) == ["R-2", "R-4"]
    assert _listed((await _list(admin_client, "?city=Doha"))[1]) == ["R-4"]
    assert _listed((await _list(admin_client, "?nationality=IN&q=Sam"))[1]) == ["R-1"]
    status, page = await _list(admin_client, "?city=Doha&q=Sam")
    assert status == 200 and "No rider matches." in page
    # The form keeps what was searched.
    _, page = await _list(admin_client, "?city=Doha&market=QA")
    assert '<option value="Doha" selected>' in page
    assert '<option value="QA" selected>' in page


async def test_a_bad_filter_is_a_400_with_its_message(admin_client, db):
    await add_riders(db)
    status, page = await _list(admin_client, "?market=XX&city=Doha")
    assert status == 400
    assert "Must be one of" in page
    assert 'value="Doha"' in page


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?q=R-3",
        "?q=+stone+",
        "?q=100%25_",
        "?q=ri",
        "?q=%2B0001",
        "?q=٤٥٦٧",
        "?q=Sam&nationality=IN",
        "?market=AE&status=onboarding",
        "?vehicle_type=car&city=Doha",
        "?city=" + "x" * 100,
    ],
)
async def test_the_riders_export_lists_exactly_the_riders_the_page_lists(admin_client, db, query):
    await add_riders(db)
    status, page = await _list(admin_client, query)
    export = await admin_client.get(f"/admin/exports/riders.csv{query}")
    assert (status, export.status) == (200, 200)
    exported = [line.split(",", 1)[0] for line in (await export.text()).splitlines()[1:]]
    assert exported == _listed(page)


@pytest.mark.parametrize(
    ("query", "field"),
    [("?q=a%00b", "q"), ("?city=" + "x" * 101, "city"), ("?status=Active", "status")],
)
async def test_a_filter_the_export_refuses_the_page_refuses_too(admin_client, db, query, field):
    status, page = await _list(admin_client, query)
    export = await admin_client.get(f"/admin/exports/riders.csv{query}")
    assert (status, export.status) == (400, 400)
    assert f"{field}: " in await export.text()


async def test_keyset_paging_50_a_page(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city) SELECT 'R' || lpad(i::text, 3, '0'),"
        " 'Rider ' || i, 'AE', CASE WHEN i % 2 = 0 THEN 'Dubai' ELSE 'Sharjah' END"
        " FROM generate_series(1, 120) i"
    )
    _, page = await _list(admin_client, "?city=Dubai")
    first = _listed(page)
    assert len(first) == 50 and first[0] == "R002" and first[-1] == "R100"
    next_link = re.search(r'href="(/admin/riders\?[^"]+)">Next', page).group(1)
    assert "city=Dubai" in next_link and "after=R100" in next_link
    _, page = await _list(
        admin_client, next_link.replace("&amp;", "&").removeprefix("/admin/riders")
    )
    assert _listed(page) == [
        "R102",
        "R104",
        "R106",
        "R108",
        "R110",
        "R112",
        "R114",
        "R116",
        "R118",
        "R120",
    ]
    assert 'rel="next"' not in page


async def test_the_list_counts_the_matches_up_to_ten_thousand(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city)"
        " SELECT 'N-' || lpad(i::text, 5, '0'), 'Rider ' || i, 'AE',"
        "        CASE WHEN i % 100 = 0 THEN 'Doha' ELSE 'Dubai' END"
        " FROM generate_series(1, 10050) AS i"
    )
    page = await (await admin_client.get("/admin/riders")).text()
    assert "More than 10,000 riders match." in page
    page = await (await admin_client.get("/admin/riders?city=Doha")).text()
    assert "100 riders match these filters." in page
    # The next page counts all the matches too, not those left.
    page = await (await admin_client.get("/admin/riders?city=Doha&after=N-05000")).text()
    assert "100 riders match these filters." in page
    page = await (await admin_client.get("/admin/riders?q=Rider+100")).text()
    assert "62 riders match these filters." in page  # 100, 1000–1009, 10000–10050


async def test_a_search_too_short_for_names_says_so(admin_client, db):
    await add_riders(db)
    page = await (await admin_client.get("/admin/riders?q=Sa")).text()
    assert "&ldquo;Sa&rdquo; is too short to search names or phones" in page
    assert "No rider matches." not in page
    # Short, but a rider's whole ID: found.
    page = await (await admin_client.get("/admin/riders?q=R-1")).text()
    assert "1 rider matches these filters." in page and "too short" not in page
