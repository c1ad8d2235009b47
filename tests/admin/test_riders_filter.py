"""The one riders filter (the list, its exports, the assign page): cities and vehicle types
chosen from the stored values of the admin's markets and matched in any case, the list's
training state and selection, the assign page's count as the form changes, and the rider
page's course progress and quiz attempts."""

import re

from app.admin.riders import SQL as RIDERS_SQL
from app.admin.search import matching_riders_parameters
from tests.admin.riders_data import COURSE_ID, PATH_ID, add_history, add_riders
from tests.admin.test_riders import _listed
from tests.web import PageClient, sign_in


async def _add_hawalli(db):
    """Four riders of "Hawalli" and one of "HAWALLI" (KW), one with a vehicle type in capitals
    as an old row might hold it."""
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city, vehicle_type) SELECT 'H-' || i,"
        " 'Hawalli rider ' || i, 'KW', CASE WHEN i = 5 THEN 'HAWALLI' ELSE 'Hawalli' END,"
        " 'motorbike' FROM generate_series(1, 5) i"
    )


async def _client_as(make_client, make_admin, role: str, markets) -> PageClient:
    account = await make_admin(email=f"{role}@example.com", role=role, markets=markets)
    client = PageClient(await make_client())
    assert (await sign_in(client, account)).status == 303
    return client


def _options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select id="{name}" name="{name}">(.*?)</select>', page, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"', select)[1:]  # after "Any"


async def test_a_city_is_found_in_any_case_by_the_list_its_export_and_the_assign_page(
    admin_client, db
):
    await add_riders(db)
    await _add_hawalli(db)
    _, page = await _get(admin_client, "/admin/riders?city=hawalli")
    assert _listed(page) == ["H-1", "H-2", "H-3", "H-4", "H-5"]
    # The city is offered once, as riders spell it, and chosen.
    assert _options(page, "city").count("Hawalli") == 1 and "HAWALLI" not in _options(page, "city")
    assert '<option value="Hawalli" selected>' in page
    export = await (await admin_client.get("/admin/exports/riders.csv?city=hAWALLI")).text()
    assert [line.split(",")[0] for line in export.splitlines()[1:]] == _listed(page)
    count = await admin_client.get(f"/admin/assign/count?path_id={PATH_ID}&cities=hawalli")
    assert (count.status, await count.json()) == (200, {"would_create": 5, "matched": 5})
    count = await admin_client.get(
        f"/admin/assign/count?path_id={PATH_ID}&cities=HAWALLI&vehicle_types=Motorbike"
    )
    assert (await count.json())["would_create"] == 5


async def test_the_choices_are_the_stored_values_and_a_value_from_a_link_is_kept(admin_client, db):
    await add_riders(db)
    _, page = await _get(admin_client, "/admin/riders")
    assert _options(page, "city") == ["Abu Dhabi", "Doha", "Dubai", "Kuwait City"]
    assert _options(page, "vehicle_type") == ["bicycle", "car", "motorbike"]
    # A city no rider has (a link from elsewhere) stays chosen, and matches no one.
    _, page = await _get(admin_client, "/admin/riders?city=Atlantis")
    assert '<option value="Atlantis" selected>' in page and "No rider matches." in page


async def test_a_market_limited_admin_is_offered_and_finds_only_their_markets_values(
    make_client, make_admin, db
):
    await add_riders(db)
    await _add_hawalli(db)
    kw = await _client_as(make_client, make_admin, "editor", ("KW",))
    _, page = await _get(kw, "/admin/riders")
    assert _options(page, "city") == ["Hawalli", "Kuwait City"]
    assert _options(page, "vehicle_type") == ["bicycle", "motorbike"]
    # Another market's city or market finds nobody.
    assert _listed((await _get(kw, "/admin/riders?city=dubai"))[1]) == []
    assert _listed((await _get(kw, "/admin/riders?market=AE"))[1]) == []
    page = await (await kw.get("/admin/assign")).text()
    assert 'value="Dubai"' not in page and 'value="Hawalli"' in page
    count = await kw.get(f"/admin/assign/count?path_id={PATH_ID}&cities=dubai")
    assert (await count.json())["would_create"] == 0
    count = await kw.get(f"/admin/assign/count?path_id={PATH_ID}&markets=AE")
    assert count.status == 400
    assert (await count.json())["error"].startswith("markets: You see only riders of KW")


async def _get(client, address: str) -> tuple[int, str]:
    response = await client.get(address)
    return response.status, await response.text()


async def test_the_list_shows_each_riders_training_state(admin_client, db):
    await add_riders(db)
    await add_history(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at) VALUES"
        " ('R-1', $1, 'api', now() + interval '3 days', now()),"
        " ('R-3', $1, 'api', now() + interval '3 days', NULL)",
        PATH_ID,
    )
    _, page = await _get(admin_client, "/admin/riders")
    rows = dict(
        re.findall(
            r'value="(R-\d)" aria-label=[^>]*></td><td>.*?</td><td>.*?</td>'
            r"<td>(.*?)</td>",
            page,
        )
    )
    assert re.sub(r"<[^>]+>", "", rows["R-1"]) == "1 completed"
    assert re.sub(r"<[^>]+>", "", rows["R-2"]) == "1 overdue"
    assert re.sub(r"<[^>]+>", "", rows["R-3"]) == "1 open"
    assert rows["R-4"] == "none assigned"
    # The overdue filter keeps the riders with an open assignment past its deadline.
    assert _listed((await _get(admin_client, "/admin/riders?overdue=1"))[1]) == ["R-2"]


async def test_riders_ticked_or_all_matching_go_to_the_assign_page(admin_client, db):
    await add_riders(db)
    _, page = await _get(admin_client, "/admin/riders?market=AE&city=dubai")
    assert '<form method="get" action="/admin/assign" class="selection">' in page
    assert 'name="rider_ids" value="R-1"' in page
    link = re.search(r'href="(/admin/assign\?[^"]+)">Assign a path to all 1 matching', page)
    assert link.group(1) == "/admin/assign?markets=AE&amp;cities=dubai"
    page = await (await admin_client.get("/admin/assign?markets=AE&cities=Dubai")).text()
    assert re.search(r'name="markets" value="AE" checked', page)
    assert re.search(r'name="cities" value="Dubai" checked', page)
    page = await (await admin_client.get("/admin/assign?rider_ids=R-1&rider_ids=R-2")).text()
    assert '<textarea id="rider_ids" name="rider_ids" rows="4">R-1\nR-2</textarea>' in page
    # A filter the assign page has not (the search text): the riders must be ticked.
    _, page = await _get(admin_client, "/admin/riders?q=Sam")
    assert "matching riders</a>" not in page


async def test_the_count_follows_the_form_and_writes_nothing(admin_client, db):
    await add_riders(db)
    ask = "/admin/assign/count?path_id=" + PATH_ID
    assert await (await admin_client.get(ask + "&markets=AE")).json() == {
        "would_create": 2,
        "matched": 2,
    }
    # R-4 is inactive: matched, skipped.
    answer = await (await admin_client.get(ask + "&rider_ids=R-1%0AR-4")).json()
    assert answer == {"would_create": 1, "matched": 1}
    for query, error in [
        ("path_id=nope&markets=AE", "path_id: Choose a path."),
        ("path_id=00000000-0000-0000-0000-00000000ffff&markets=AE", "path_id: This path"),
        (f"path_id={PATH_ID}", "rider_ids: Choose riders"),
        (f"path_id={PATH_ID}&markets=XX", "markets: "),
    ]:
        response = await admin_client.get("/admin/assign/count?" + query)
        assert response.status == 400, query
        assert (await response.json())["error"].startswith(error), query
    assert await db.fetchval("SELECT count(*) FROM assignments") == 0


async def test_a_viewer_cannot_ask_the_count(make_client, make_admin, db):
    await add_riders(db)
    viewer = await _client_as(make_client, make_admin, "viewer", ())
    response = await viewer.get(f"/admin/assign/count?path_id={PATH_ID}&markets=AE")
    assert response.status == 403
    _, page = await _get(viewer, "/admin/riders")
    # The viewer sees the training state, but nothing to tick.
    assert "none assigned" in page
    assert "Assign a path to the riders ticked" not in page and 'name="rider_ids"' not in page


async def test_the_rider_page_shows_course_progress_and_quiz_attempts(admin_client, db):
    await add_riders(db)
    await add_history(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline) VALUES"
        " ('R-1', $1, 'admin', now() + interval '3 days')",
        PATH_ID,
    )
    await db.execute("UPDATE course_results SET attempts = 2 WHERE rider_id = 'R-1'")
    await db.execute(
        "INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed, recorded_at)"
        " VALUES ($1, 'R-1', 1, 60, false, '2026-11-20 10:00Z'),"
        " ($1, 'R-1', 2, 90, true, '2026-11-21 11:30Z')",
        COURSE_ID,
    )
    page = await (await admin_client.get("/admin/riders/R-1")).text()
    progress = re.search(r'aria-label="Course progress">(.*?)</table>', page, re.S).group(1)
    assert re.search(
        r"<td>Road basics</td><td>Road safety</td><td><span[^>]*>passed \d{4}-\d\d-\d\d</span>"
        r"</td><td>2</td><td>2026-11-21 11:30</td><td>90</td>",
        progress,
    )
    attempts = re.search(r'aria-label="Quiz attempts">(.*?)</table>', page, re.S).group(1)
    assert re.findall(
        r"<tr><td>([^<]+)</td><td>Road safety</td><td>(\d)</td><td>(\d+)</td>"
        r'<td class="[^"]+">(\w+)</td>',
        attempts,
    ) == [
        ("2026-11-21 11:30", "2", "90", "passed"),
        ("2026-11-20 10:00", "1", "60", "failed"),
    ]
    # A rider with nothing assigned or attempted says so.
    page = await (await admin_client.get("/admin/riders/R-4")).text()
    assert "No course assigned." in page and "No quiz attempt recorded." in page


async def test_the_rider_page_of_another_market_is_not_shown(make_client, make_admin, db):
    await add_riders(db)
    await add_history(db)
    kw = await _client_as(make_client, make_admin, "viewer", ("KW",))
    assert (await kw.get("/admin/riders/R-1")).status == 404


async def test_the_list_statement_inlines_the_one_filter(db):
    """The riders list's statement inlines the filter functions (not a function scan that
    reads every rider), so that their conditions reach riders' indexes."""
    parameters = matching_riders_parameters({"city": "Dubai", "status": "active"}, [])
    plan = "\n".join(
        row[0] for row in await db.fetch("EXPLAIN " + RIDERS_SQL.riders_page, "", *parameters, 51)
    )
    assert "Function Scan" not in plan
    # Inlined, the city filter reaches riders' index of cities in lower case.
    assert "Index Cond: (lower(city) = ANY ('{dubai}'::text[]))" in plan
