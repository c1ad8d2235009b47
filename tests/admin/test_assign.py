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
