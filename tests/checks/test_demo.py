"""Family A's demo data loads through the real sections and reads back consistently."""

import random
import re

from app.checks.demo import MARKETS, demo
from tests.checks.data import AUTH, load

ARABIC = re.compile(r"[\u0600-\u06FF]")


async def test_demo_covers_eight_markets_and_thousands_of_checks(client, db):
    document = demo(random.Random(1), 300)
    assert await load(db, **document) == {"questions": 80, "checks": 4000}
    for code, country_id, _ in MARKETS:
        response = await client.get(f"/api/v2/questioner?country_id={country_id}", headers=AUTH)
        questions = await response.json()
        assert len(questions) == 10, code
        assert all(ARABIC.search(a["name_ar"]) for q in questions for a in q["answers"])
    checks = await (await client.get("/api/v2/checks", headers=AUTH)).json()
    assert len(checks) == 4000
    assert {c["Country_code"] for c in checks} == {code for code, _, _ in MARKETS}
    assert all(re.fullmatch(r"UTC\+0[234]:00", c["Timezone"]) for c in checks)
    assert all(100001 <= c["Rider_ID"] <= 100300 for c in checks)
    texts = {q["question"] for q in document["questions"]}
    assert all(len(c["Questioner"]) == 10 for c in checks)
    assert all(e["question"] in texts and e["category"] for c in checks for e in c["Questioner"])
