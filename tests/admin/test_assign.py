"""The assign page: preview count (nothing written), then assign with the city filter."""

from tests.admin.riders_data import PATH_ID, add_riders


async def _assignments(db) -> list[tuple[str, str]]:
    rows = await db.fetch("SELECT rider_id, why FROM assignments ORDER BY rider_id")
    return [(row["rider_id"], row["why"]) for row in rows]


async def test_page_offers_paths_and_the_riders_cities(admin_client, db):
    await add_riders(db)
    page = await (await admin_client.get("/admin/assign")).text()
    assert f'<option value="{PATH_ID}">Road basics</option>' in page
    assert 'name="cities" value="Abu Dhabi"' in page and 'name="cities" value="Doha"' in page
    assert 'name="vehicle_types" value="motorbike"' in page


async def test_preview_counts_and_writes_nothing(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/assign", [("path_id", PATH_ID), ("cities", "Dubai"), ("cities", "Abu Dhabi")]
    )
    assert response.status == 200
    page = await response.text()
    assert "2 riders would be assigned." in page
    # The form keeps the choices, and offers to assign.
    assert 'name="cities" value="Dubai" checked' in page
    assert 'name="confirm" value="1"' in page
    assert await _assignments(db) == []


async def test_confirm_assigns_with_why_admin(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/assign",
        [("path_id", PATH_ID), ("cities", "Dubai"), ("cities", "Doha"), ("confirm", "1")],
    )
    assert response.status == 303
    # R-4 in Doha is inactive: skipped.
    assert await _assignments(db) == [("R-1", "admin")]
    page = await (await admin_client.get(response.headers["Location"])).text()
    assert "1 assignment created" in page


async def test_pasted_ids_and_filters_combine(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/assign",
        [
            ("path_id", PATH_ID),
            ("rider_ids", "R-1\r\nR-2\r\n\r\nR-3\r\nnobody"),
            ("markets", "AE"),
            ("statuses", "onboarding"),
            ("confirm", "1"),
        ],
    )
    assert response.status == 303
    assert await _assignments(db) == [("R-2", "admin")]


async def test_form_errors_keep_the_values(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/assign", [("path_id", PATH_ID), ("rider_ids", "  "), ("confirm", "1")]
    )
    assert response.status == 400
    assert "Choose riders: paste rider IDs or choose at least one filter." in (
        await response.text()
    )
    response = await admin_client.submit(
        "/admin/assign",
        [("path_id", "nope"), ("markets", "ZZ"), ("cities", "Doha"), ("rider_ids", "R-<1>")],
    )
    assert response.status == 400
    page = await response.text()
    assert "Choose a path." in page and "Must be one of" in page
    assert 'name="cities" value="Doha" checked' in page
    assert "R-&lt;1&gt;</textarea>" in page
    response = await admin_client.submit(
        "/admin/assign",
        [("path_id", "00000000-0000-0000-0000-00000000ffff"), ("markets", "AE")],
    )
    assert response.status == 400
    assert "This path does not exist." in await response.text()
    assert await _assignments(db) == []


async def test_post_without_csrf_token_is_403(admin_client, db):
    await add_riders(db)
    response = await admin_client.post(
        "/admin/assign",
        data={"path_id": PATH_ID, "markets": "AE", "confirm": "1"},
        allow_redirects=False,
    )
    assert response.status == 403
    assert await _assignments(db) == []


async def _add_many_riders(db, city: str, count: int, start: int) -> None:
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city, status)"
        " SELECT 'M-' || lpad(i::text, 4, '0'), 'Rider ' || i, 'AE', $1, 'active'"
        " FROM generate_series($2::int, $2::int + $3::int - 1) AS i",
        city,
        start,
        count,
    )


async def test_a_confirm_whose_filters_changed_writes_nothing_and_shows_the_new_count(
    admin_client, db
):
    await add_riders(db)
    await _add_many_riders(db, "Sharjah", 86, 1)
    await _add_many_riders(db, "Ajman", 69, 100)
    preview = await admin_client.submit(
        "/admin/assign", [("path_id", PATH_ID), ("cities", "Sharjah"), ("cities", "Dubai")]
    )
    page = await preview.text()
    assert "87 riders would be assigned." in page
    assert 'name="expected_count" value="87"' in page
    assert "Assign to 87 riders" in page
    # Ajman ticked after the preview, then the button that said 87.
    changed = [
        ("path_id", PATH_ID),
        ("cities", "Sharjah"),
        ("cities", "Dubai"),
        ("cities", "Ajman"),
        ("expected_count", "87"),
        ("confirm", "1"),
    ]
    response = await admin_client.submit("/admin/assign", changed)
    assert response.status == 409
    page = await response.text()
    assert "Nothing was assigned: the filters changed. 156 riders would now be assigned." in page
    assert 'name="expected_count" value="156"' in page and "Assign to 156 riders" in page
    assert await _assignments(db) == []
    # Pressed again, the new preview's button keeps its word.
    changed[-2] = ("expected_count", "156")
    response = await admin_client.submit("/admin/assign", changed)
    assert response.status == 303
    assert len(await _assignments(db)) == 156


async def test_the_result_says_how_many_already_had_the_path(admin_client, db):
    await add_riders(db)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " VALUES ('R-1', $1, 'api', now() + interval '7 days')",
        PATH_ID,
    )
    chosen = [("path_id", PATH_ID), ("markets", "AE")]
    page = await (await admin_client.submit("/admin/assign", chosen)).text()
    assert "1 rider would be assigned (1 already has this path)." in page
    response = await admin_client.submit(
        "/admin/assign", [*chosen, ("expected_count", "1"), ("confirm", "1")]
    )
    assert response.status == 303
    page = await (await admin_client.get(response.headers["Location"])).text()
    assert "1 rider assigned, 1 already had this path (why: admin)." in page
    assert await _assignments(db) == [("R-1", "api"), ("R-2", "admin")]
