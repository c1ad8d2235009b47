"""What each index on riders costs the riders upsert: the statement of `POST /api/v1/riders`
for 5,000 new and for 5,000 updated riders, as it is, without each index of riders but its
key, and without all of them.

    python -m bench.upsert_indexes [--riders 20000] [--runs 9]

A diagnosis behind a target, not a target (bench/README.md, "Against the ORM peers"): the
request's largest part is this statement, and most of what the statement costs beyond the
peer's is the upkeep of riders' indexes (the riders list's searches, the sign-in's case-blind
rider ID). Each run is one transaction of the
service's own `upsert_riders` on the service's pool, rolled back: an index is dropped inside
it, so nothing changes for good, and a VACUUM of riders before each run clears the rows the
last one left. The variants take turns within a round, each first in turn, so that the drift
of a shared machine falls on all alike; the figures are medians over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from app.core import database
from app.training import store
from app.training.riders import MARKETS, VEHICLE_TYPES, Rider
from bench.harness import fresh_database, run_sql

BATCH = 5_000
CITIES = ("Dubai", "Kuwait City", "Doha", "Manama", "Muscat", "Amman", "Cairo", "Baghdad")

DATA_SET = """
INSERT INTO riders (rider_id, name, market, phone, city, vehicle_type, nationality, status)
SELECT 'R' || lpad(i::text, 7, '0'),
       (ARRAY['Ahmed', 'Mohammed', 'Ali', 'Omar', 'Yousef', 'Hassan', 'Khalid', 'Bilal',
              'Imran', 'Rahul', 'Arjun', 'Samir'])[1 + i % 12]
       || ' ' || (ARRAY['Khan', 'Hussain', 'Al Sayed', 'Rahman', 'Nair', 'Haddad', 'Saleh',
                        'Farouk', 'Qureshi', 'Iqbal', 'Mansour'])[1 + i / 12 % 11]
       || ' ' || i,
       (ARRAY['AE', 'KW', 'QA', 'BH', 'OM', 'JO', 'EG', 'IQ'])[1 + i % 8],
       '+9715' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'),
       (ARRAY['Dubai', 'Kuwait City', 'Doha', 'Manama', 'Muscat', 'Amman', 'Cairo',
              'Baghdad'])[1 + i % 8] || ' ' || i % 40,
       (ARRAY['motorbike', 'car', 'bicycle', 'scooter', 'walker'])[1 + i % 5],
       (ARRAY['Indian', 'Pakistani', 'Egyptian', 'Jordanian', 'Bangladeshi'])[1 + i % 5],
       'active'
FROM generate_series(1, {riders}) AS i
"""


def _batch(kind: str, riders: int, round_: int) -> list[Rider]:
    """5,000 riders the table lacks (new), or 5,000 of its riders with another name, phone and
    city, their market kept and their other fields omitted (updated: the IDs spread over the
    table, as a sync of some riders touches them)."""
    step = riders // BATCH
    number = [i if kind == "new" else 1 + i * step for i in range(BATCH)]
    return [
        Rider(
            rider_id=f"N{round_:03d}-{n:05d}" if kind == "new" else f"R{n:07d}",
            name=f"Rider {n} round {round_}",
            market=MARKETS[n % 8],  # the data set's market of rider n
            phone=f"+9665{(n * 104729 + round_) % 100_000_000:08d}",
            city=f"{CITIES[n % 8]} {round_ % 40}",
            vehicle_type=VEHICLE_TYPES[n % 5] if kind == "new" else None,
            nationality="Indian" if kind == "new" else None,
            language=None,
            status=None,
            pin=None,
        )
        for n in number
    ]


async def _run(pool, batch: list[Rider], dropped: tuple[str, ...]) -> float:
    """The upsert's time in ms, without the indexes `dropped`, rolled back."""
    async with pool.acquire() as conn:
        await conn.execute("VACUUM riders")
        transaction = conn.transaction()
        await transaction.start()
        try:
            for index in dropped:
                await conn.execute(f'DROP INDEX "{index}"')
            started = time.perf_counter()
            await store.upsert_riders(conn, batch)
            return (time.perf_counter() - started) * 1000
        finally:
            await transaction.rollback()


async def measure(url: str, riders: int, runs: int) -> None:
    pool = await database.create_pool(url)
    try:
        indexes = [
            row["indexname"]
            for row in await pool.fetch(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'riders' "
                "AND indexname <> 'riders_pkey' ORDER BY indexname"
            )
        ]
        variants = {"as it is": (), **{f"without {i}": (i,) for i in indexes}}
        variants["without all of them"] = tuple(indexes)
        times = {(kind, name): [] for kind in ("new", "updated") for name in variants}
        for round_ in range(runs + 1):  # the first round warms the plans and pages, unrecorded
            names = list(variants)
            names = names[round_ % len(names) :] + names[: round_ % len(names)]
            for kind in ("new", "updated"):
                batch = _batch(kind, riders, round_)
                for name in names:
                    ms = await _run(pool, batch, variants[name])
                    if round_:
                        times[kind, name].append(ms)
    finally:
        await pool.close()
    base = [statistics.median(times[kind, "as it is"]) for kind in ("new", "updated")]
    print(f"{'riders upsert statement, 5,000 riders, median ms':<48} {'new':>8} {'updated':>9}")
    for name in variants:
        row = [statistics.median(times[kind, name]) for kind in ("new", "updated")]
        saved = " / ".join(f"{b - r:.1f}" for b, r in zip(base, row, strict=True))
        print(f"{name:<48} {row[0]:>8.1f} {row[1]:>9.1f}   (saves {saved})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--riders", type=int, default=20_000, help="riders in the table")
    parser.add_argument("--runs", type=int, default=9, help="rounds measured")
    args = parser.parse_args()
    url = fresh_database("bench_upsert_indexes")
    started = time.perf_counter()
    run_sql(url, DATA_SET.format(riders=int(args.riders)))
    print(f"data set: {args.riders:,} riders in {time.perf_counter() - started:.1f} s", flush=True)
    asyncio.run(measure(url, args.riders, args.runs))


if __name__ == "__main__":
    main()
