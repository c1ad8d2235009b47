"""Each limit is said once: the OpenAPI document shows the values the checks enforce."""

import re
import uuid

import pytest

from app.training.assignments import MAX_RIDER_IDS, BadAssignment, parse_assignment
from app.training.riders import MAX_LENGTHS, MAX_RIDERS, RowError, parse_rider


def rider_with(field: str, length: int) -> dict:
    row = {"riderId": "R-1", "name": "Amal", "market": "AE"}
    # A phone may carry spaces, dashes and brackets; the limit counts them.
    row[field] = "+" + "-" * (length - 12) + "97150123456" if field == "phone" else "x" * length
    return row


@pytest.fixture
async def documented(client):
    document = await (await client.get("/api/openapi.json")).json()
    return document["components"]["schemas"]


def documented_valid(prop: dict, value: str) -> bool:
    patterns = [prop["pattern"]] if "pattern" in prop else [p["pattern"] for p in prop["allOf"]]
    return all(re.search(pattern, value) for pattern in patterns)


async def test_rider_field_lengths_documented_are_enforced(documented):
    # The lengths count after trimming, so the document states them in its patterns.
    properties = documented["Rider"]["properties"]
    for field, longest in MAX_LENGTHS.items():
        for length, valid in [(longest, True), (longest + 1, False)]:
            row = rider_with(field, length)
            assert documented_valid(properties[field], row[field]) is valid, (field, length)
            assert documented_valid(properties[field], f"  {row[field]}  ") is valid
            if valid:
                parse_rider(row)
                continue
            with pytest.raises(RowError) as error:
                parse_rider(row)
            assert error.value.field == field


async def test_riders_a_call_documented_is_enforced(documented, api):
    assert documented["RidersRequest"]["properties"]["riders"]["maxItems"] == MAX_RIDERS
    too_many = [{"riderId": f"R-{n}", "name": "A", "market": "AE"} for n in range(MAX_RIDERS + 1)]
    status, body = await api.post("/api/v1/riders", {"riders": too_many})
    assert status == 400
    assert body["error"] == f"Send {{ riders: [...] }} with 1 to {MAX_RIDERS} riders."


async def test_rider_ids_a_call_documented_is_enforced(documented):
    rider_ids = documented["AssignmentRequest"]["properties"]["riderIds"]
    assert rider_ids["maxItems"] == MAX_RIDER_IDS
    path_id = str(uuid.uuid4())
    assert (
        len(parse_assignment({"pathId": path_id, "riderIds": ["R"] * MAX_RIDER_IDS}).rider_ids)
        == MAX_RIDER_IDS
    )
    with pytest.raises(BadAssignment):
        parse_assignment({"pathId": path_id, "riderIds": ["R"] * (MAX_RIDER_IDS + 1)})
