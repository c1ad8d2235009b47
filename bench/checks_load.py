"""`load-data` of 500,000 checks with 10 answers each, through the real command:
five files of 100,000 checks (about 123 MB each), the first with the 80 catalogue questions;
most answers leave text, category and image to the catalogue, every 100th check carries an
older wording. Timed end to end (process start included), with the command's peak RSS."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from datetime import datetime, timedelta

import orjson

from bench.harness import ROOT, fresh_database, report

CHECKS = 500_000
PER_FILE = 100_000
COUNTRIES = ["AE", "KW", "QA", "BH", "OM", "JO", "EG", "IQ"]
CATEGORIES = ["Safety", "Vehicle", "Uniform", "Documents"]
OPTIONS = [
    {"name": "Yes", "name_ar": "نعم", "score": "1", "jump": "", "skip": []},
    {"name": "No", "name_ar": "لا", "score": "0", "jump": "", "skip": []},
]
START = datetime(2024, 1, 1)


def _questions() -> list[dict]:
    return [
        {
            "question_id": country * 100 + k,
            "question": f"Question {country * 100 + k}: is everything in order?",
            "question_type": "MULTIPLE_CHOICE:SINGLE",
            "country_id": country,
            "category": CATEGORIES[k % 4],
            "image_url": f"https://cdn.example.com/q/{country * 100 + k}.png" if k % 3 else None,
            "answers": OPTIONS,
        }
        for country in range(1, len(COUNTRIES) + 1)
        for k in range(1, 11)
    ]


def _check(i: int) -> dict:
    country = i % len(COUNTRIES) + 1
    answers = []
    for k in range(1, 11):
        qid = country * 100 + k
        answer = {
            "question_id": qid,
            "answer": None if (i + k) % 17 == 0 else "Yes",
            "score": None if (i + k) % 17 == 0 else "1",
            "evidence_image_url": f"https://cdn.example.com/e/{i}-{qid}.jpg" if k % 2 else None,
        }
        if i % 100 == 0 and k == 1:
            answer.update(question=f"Old wording of {qid}?", category="Legacy", image_url=None)
        answers.append(answer)
    return {
        "id": i,
        "rider_id": 100_000 + i % (CHECKS // 5),
        "rider_name": f"Rider {i % (CHECKS // 5)}",
        "third_party_logistics": "Swift Riders LLC",
        "recorder_id": 5000 + i % 2000,
        "check_date": (START + timedelta(seconds=i * 120)).strftime("%Y-%m-%d %H:%M:%S"),
        "timezone": "UTC+04:00",
        "country_code": COUNTRIES[country - 1],
        "id_validation": i % 33 != 0,
        "license_plate": i % 20 != 0,
        "reported_items": ["Missing helmet"] if i % 5 == 0 else None,
        "answers": answers[::-1] if i % 7 == 0 else answers,
    }


def _files() -> list[str]:
    """The data files (written once under var/bench and reused)."""
    folder = ROOT / "var" / "bench" / "checks-load"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for first in range(1, CHECKS + 1, PER_FILE):
        path = folder / f"checks-{CHECKS}-{first:06d}.json"
        if not path.exists():
            # Written a check at a time: a bench process that held the files' 100,000 checks
            # would pass its size on to the command's peak RSS (a child's peak counts the
            # parent's memory it was forked from).
            with path.with_suffix(".tmp").open("wb") as file:
                file.write(b"{")
                if first == 1:
                    file.write(b'"questions":' + orjson.dumps(_questions()) + b",")
                file.write(b'"checks":[')
                for i in range(first, first + PER_FILE):
                    file.write((b"," if i > first else b"") + orjson.dumps(_check(i)))
                file.write(b"]}")
            path.with_suffix(".tmp").rename(path)
        paths.append(str(path))
    return paths


def main() -> bool:
    started = time.perf_counter()
    files = _files()
    print(f"data files ready in {time.perf_counter() - started:.1f} s", flush=True)
    url = fresh_database("bench_checks_load")
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "app", "load-data", *files],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    # The ORM peer's 214 s, halved.
    ok = report(f"load-data of {CHECKS:,} checks x 10 answers", seconds, 107, "s")
    # The checks are read from the file a record at a time: memory does not follow its size.
    return report("load-data peak RSS", peak_mb, 256, "MB") & ok
