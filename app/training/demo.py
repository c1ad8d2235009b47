"""The training family's part of the demo data: riders in the eight markets, courses with
lessons and quizzes (one translated into Arabic), a path of every rule kind, and passed courses
with realistic times, scores and attempts."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from app.training import demo_courses
from app.training.languages import LANGUAGES
from app.training.riders import MARKETS, VEHICLE_TYPES

CITIES = {
    "AE": ("Dubai", "Abu Dhabi", "Sharjah"),
    "KW": ("Kuwait City", "Hawalli"),
    "QA": ("Doha", "Al Rayyan"),
    "BH": ("Manama", "Muharraq"),
    "OM": ("Muscat", "Sohar"),
    "JO": ("Amman", "Irbid"),
    "EG": ("Cairo", "Alexandria", "Giza"),
    "IQ": ("Baghdad", "Erbil"),
}
DIALING = {
    "AE": "971",
    "KW": "965",
    "QA": "974",
    "BH": "973",
    "OM": "968",
    "JO": "962",
    "EG": "20",
    "IQ": "964",
}
NATIONALITIES = ("Pakistani", "Indian", "Egyptian", "Jordanian", "Bangladeshi", "Nepali", "Iraqi")
FIRST_NAMES = (
    "Omar",
    "Ahmed",
    "Bilal",
    "Sara",
    "Imran",
    "Yousef",
    "Ravi",
    "Hassan",
    "Aisha",
    "Karim",
    "Ali",
    "Nadia",
    "Tariq",
    "Samir",
    "Fatima",
    "Zaid",
    "Rashid",
    "Layla",
)
LAST_NAMES = (
    "Haddad",
    "Khan",
    "Rahman",
    "Saleh",
    "Hussain",
    "Nasser",
    "Iqbal",
    "Mansour",
    "Sharma",
    "Aziz",
    "Farouk",
    "Qureshi",
    "Darwish",
    "Malik",
)
START = datetime(2026, 1, 5, tzinfo=UTC)


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def demo(rng: random.Random, riders: int) -> dict[str, Any]:
    courses = [
        {
            "id": _uuid(rng),
            **document,
            "published": True,
            "translations": {
                language: {**translation, "state": "machine"}
                for language, translation in demo_courses.TRANSLATIONS.get(
                    document["title"], {}
                ).items()
            },
        }
        for document in demo_courses.COURSES
    ]
    ids = [c["id"] for c in courses]
    paths = [
        {
            "id": _uuid(rng),
            "name": "Welcome to the fleet",
            "active": True,
            "days_to_complete": 14,
            "rule": "onboarding",
            "courses": [ids[4], ids[0], ids[2]],
        },
        {
            "id": _uuid(rng),
            "name": "Summer heat safety (Gulf)",
            "active": True,
            "days_to_complete": 30,
            "rule": "all_matching",
            "markets": ["AE", "QA", "KW", "BH", "OM"],
            "courses": [ids[5]],
        },
        {
            "id": _uuid(rng),
            "name": "Motorbike safety",
            "active": True,
            "days_to_complete": 21,
            "rule": "all_matching",
            "vehicle_types": ["motorbike", "scooter"],
            "courses": [ids[1]],
        },
        {
            "id": _uuid(rng),
            "name": "Punctuality refresher",
            "active": True,
            "days_to_complete": 7,
            "rule": "flag",
            "flag_types": ["late_delivery", "cancellations"],
            "courses": [ids[7]],
        },
        {
            "id": _uuid(rng),
            "name": "Safe riding after a report",
            "active": True,
            "days_to_complete": 7,
            "rule": "flag",
            "flag_types": ["unsafe_driving"],
            "courses": [ids[1]],
        },
        {
            "id": _uuid(rng),
            "name": "Hygiene and equipment",
            "active": True,
            "days_to_complete": 10,
            "rule": "flag",
            "flag_types": ["food_handling", "equipment", "customer_complaint"],
            "courses": [ids[0], ids[6]],
        },
        {
            "id": _uuid(rng),
            "name": "Payments deep dive",
            "active": True,
            "days_to_complete": 30,
            "rule": "manual",
            "courses": [ids[3], ids[2]],
        },
        {
            "id": _uuid(rng),
            "name": "Ramadan service (retired)",
            "active": False,
            "days_to_complete": 14,
            "rule": "all_matching",
            "markets": ["EG", "JO", "IQ"],
            "courses": [ids[2]],
        },
    ]
    rider_records, completions = [], []
    for number in range(1, riders + 1):
        market = MARKETS[number % len(MARKETS)]
        rider_id = f"R-{100000 + number}"
        status = rng.choices(("active", "onboarding", "suspended", "inactive"), (80, 12, 4, 4))[0]
        rider_records.append(
            {
                "riderId": rider_id,
                "name": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
                "market": market,
                "phone": f"+{DIALING[market]}5{rng.randrange(10_000_000, 99_999_999)}",
                "city": rng.choice(CITIES[market]),
                "vehicleType": rng.choices(VEHICLE_TYPES, (60, 20, 8, 10, 2))[0],
                "nationality": rng.choice(NATIONALITIES),
                "language": rng.choices(LANGUAGES, (45, 35, 15, 5))[0],
                "status": status,
            }
        )
        if status == "onboarding":
            continue
        for course in courses:
            quiz = bool(course["quiz"])
            if rng.random() < 0.35:
                started = START + timedelta(minutes=rng.randrange(0, 300 * 24 * 60))
                spent = rng.randrange(240, 3600)
                completions.append(
                    {
                        "riderId": rider_id,
                        "courseId": course["id"],
                        "language": rng.choice(LANGUAGES),
                        "startedAt": _stamp(started),
                        "completedAt": _stamp(
                            started + timedelta(seconds=spent, milliseconds=rng.randrange(1000))
                        ),
                        "score": rng.randrange(course["pass_mark"], 101) if quiz else None,
                        "attempts": rng.choices((1, 2, 3), (70, 22, 8))[0] if quiz else 0,
                        "timeSpentSeconds": spent,
                    }
                )
    return {"riders": rider_records, "courses": courses, "paths": paths, "completions": completions}
