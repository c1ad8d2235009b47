"""Family A's part of the demo data: a questionnaire for each of the eight markets (English
text, Arabic answer names) and a few thousand checks answering it.

Country ids are ISO 3166-1 numeric codes: AE 784, KW 414, QA 634, BH 48, OM 512, JO 400,
EG 818, IQ 368. Market n (1-8, in that order) owns questions n01-n10. Rider ids are
100001..100000+riders, the numbers of the training platform's demo riders `R-1000NN` (names
and markets are drawn independently). Ambassadors (Recorder_ID) are 9n01-9n05 in market n.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

# (code, ISO 3166-1 numeric, 3PL companies)
MARKETS = [
    ("AE", 784, ["Swift Riders LLC", "Desert Fleet", "Gulf Last Mile"]),
    ("KW", 414, ["Kuwait Express Riders", "Blue Gulf Delivery"]),
    ("QA", 634, ["Doha Fleet Services", "Pearl Riders"]),
    ("BH", 48, ["Manama Movers", "Island Riders"]),
    ("OM", 512, ["Muscat Wheels", "Oman Fleet Partners"]),
    ("JO", 400, ["Amman Riders Co", "Petra Logistics"]),
    ("EG", 818, ["Nile Riders", "Cairo Fleet Group", "Delta Delivery"]),
    ("IQ", 368, ["Baghdad Riders", "Tigris Logistics"]),
]
UTC_OFFSET = {"AE": 4, "OM": 4, "KW": 3, "QA": 3, "BH": 3, "JO": 3, "IQ": 3, "EG": 2}

YES = ("Yes", "نعم")
NO = ("No", "لا")

# (category, text, type, image, options [(name, name_ar, score)], report on the worst option)
QUESTIONNAIRE = [
    (
        "Safety",
        "Is the rider wearing a helmet?",
        "MULTIPLE_CHOICE:SINGLE",
        True,
        [(*YES, "2"), (*NO, "0")],
        "Missing helmet",
    ),
    (
        "Safety",
        "Is the helmet strap fastened?",
        "MULTIPLE_CHOICE:SINGLE",
        False,
        [(*YES, "1"), (*NO, "0")],
        None,
    ),
    (
        "Uniform",
        "Is the rider wearing the company uniform?",
        "MULTIPLE_CHOICE:SINGLE",
        False,
        [(*YES, "2"), ("Partially", "جزئياً", "1"), (*NO, "0")],
        "No uniform",
    ),
    (
        "Vehicle",
        "Are the front and rear lights working?",
        "MULTIPLE_CHOICE:SINGLE",
        False,
        [(*YES, "1"), (*NO, "0")],
        "Broken lights",
    ),
    (
        "Vehicle",
        "What is the condition of the tyres?",
        "MULTIPLE_CHOICE:SINGLE",
        True,
        [("Good", "جيدة", "2"), ("Worn", "متآكلة", "1"), ("Damaged", "تالفة", "0")],
        "Worn tyres",
    ),
    (
        "Equipment",
        "Is the delivery box clean and closed?",
        "MULTIPLE_CHOICE:SINGLE",
        True,
        [(*YES, "1"), (*NO, "0")],
        "Dirty delivery box",
    ),
    (
        "Equipment",
        "Which safety items does the rider carry?",
        "MULTIPLE_CHOICE:MULTIPLE",
        False,
        [
            ("Reflective vest", "سترة عاكسة", "1"),
            ("First-aid kit", "حقيبة إسعافات أولية", "1"),
            ("None", "لا شيء", "0"),
        ],
        None,
    ),
    (
        "Documents",
        "Does the rider carry a valid driving license?",
        "MULTIPLE_CHOICE:SINGLE",
        False,
        [(*YES, "1"), (*NO, "0")],
        "Expired license",
    ),
    (
        "Documents",
        "Is the vehicle registration card in the vehicle?",
        "MULTIPLE_CHOICE:SINGLE",
        False,
        [(*YES, "1"), (*NO, "0")],
        "Missing registration",
    ),
    (
        "Conduct",
        "Did the rider follow the traffic rules while observed?",
        "MULTIPLE_CHOICE:SINGLE",
        False,
        [(*YES, "2"), (*NO, "0")],
        "Traffic violation",
    ),
]
# Answering "No" to the helmet question skips the strap question.
HELMET, STRAP = 1, 2

FIRST_NAMES = [
    "Ahmed",
    "Mohammed",
    "Omar",
    "Yousef",
    "Khalid",
    "Ali",
    "Hassan",
    "Karim",
    "Tariq",
    "Samir",
    "Rashid",
    "Faisal",
    "Ibrahim",
    "Mustafa",
    "Ravi",
    "Arjun",
]
LAST_NAMES = [
    "Al Mansouri",
    "Haddad",
    "Nasser",
    "Khoury",
    "Saleh",
    "Farouk",
    "Aziz",
    "Hamdan",
    "Qasim",
    "Rahman",
    "Kumar",
    "Mahmoud",
    "Said",
    "Yassin",
]

CHECKS = 4000
FIRST_DAY = dt.datetime(2026, 5, 1)
DAYS = 180


def question_id(market: int, number: int) -> int:
    return market * 100 + number


def questions() -> list[dict[str, Any]]:
    records = []
    for market, (code, country_id, _) in enumerate(MARKETS, start=1):
        for number, (category, text, kind, image, options, _) in enumerate(QUESTIONNAIRE, 1):
            qid = question_id(market, number)
            records.append(
                {
                    "question_id": qid,
                    "question": text,
                    "question_type": kind,
                    "country_id": country_id,
                    "category": category,
                    "image_url": f"https://cdn.example.com/questionnaire/{code.lower()}/{qid}.png"
                    if image
                    else None,
                    "answers": [
                        {
                            "name": name,
                            "name_ar": name_ar,
                            "score": score,
                            "jump": "",
                            "skip": [str(question_id(market, STRAP))]
                            if number == HELMET and name == "No"
                            else [],
                        }
                        for name, name_ar, score in options
                    ],
                }
            )
    return records


def _timezone(code: str, when: dt.datetime) -> str:
    # Egypt keeps summer time from late April to late October.
    summer = code == "EG" and (5 <= when.month <= 9 or (when.month == 10 and when.day < 30))
    return f"UTC+{UTC_OFFSET[code] + summer:02d}:00"


def _answers(rng: random.Random, market: int, check_id: int) -> tuple[list[dict], list[str]]:
    answers, reported = [], []
    helmet_missing = False
    for number, (_, _, kind, _, options, report) in enumerate(QUESTIONNAIRE, start=1):
        qid = question_id(market, number)
        if number == STRAP and helmet_missing:
            answers.append(
                {"question_id": qid, "answer": None, "score": None, "evidence_image_url": None}
            )
            continue
        if kind == "MULTIPLE_CHOICE:MULTIPLE":
            carried = [o for o in options[:-1] if rng.random() < 0.7] or [options[-1]]
            name = ", ".join(o[0] for o in carried)
            score = str(sum(int(o[2]) for o in carried))
            worst = False
        else:
            weights = [88] + [12 // (len(options) - 1)] * (len(options) - 1)
            name, _, score = rng.choices(options, weights)[0]
            worst = name == options[-1][0]
        helmet_missing |= number == HELMET and worst
        if worst and report:
            reported.append(report)
        answers.append(
            {
                "question_id": qid,
                "answer": name,
                "score": score,
                "evidence_image_url": f"https://evidence.example.com/checks/{check_id}/{qid}.jpg"
                if worst
                else None,
            }
        )
    return answers, reported


def checks(rng: random.Random, riders: int) -> list[dict[str, Any]]:
    records = []
    for check_id in range(1, CHECKS + 1):
        market = rng.randrange(len(MARKETS)) + 1
        code, _, companies = MARKETS[market - 1]
        when = FIRST_DAY + dt.timedelta(
            days=rng.randrange(DAYS),
            hours=rng.randrange(8, 22),
            minutes=rng.randrange(60),
            seconds=rng.randrange(60),
        )
        answers, reported = _answers(rng, market, check_id)
        records.append(
            {
                "id": check_id,
                "rider_id": 100000 + rng.randrange(1, riders + 1),
                "rider_name": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
                "third_party_logistics": rng.choice(companies),
                "recorder_id": 9000 + market * 100 + rng.randrange(1, 6),
                "check_date": when.strftime("%Y-%m-%d %H:%M:%S"),
                "timezone": _timezone(code, when),
                "country_code": code,
                "id_validation": rng.random() < 0.95,
                "license_plate": rng.random() < 0.92,
                "reported_items": reported or None,
                "answers": answers,
            }
        )
    return records


def demo(rng: random.Random, riders: int) -> dict[str, Any]:
    return {"questions": questions(), "checks": checks(rng, max(riders, 1))}
