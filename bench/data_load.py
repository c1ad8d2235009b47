"""`load-data` of a family's data file through the real command, timed end to end (process start
included), with the command's peak RSS as the peers' drivers measure it (the peak of the
`python -m app load-data` process alone: `RUSAGE_CHILDREN`'s ru_maxrss; PostgreSQL's processes
are not counted).

    python -m bench.data_load FILE [--scale N]

FILE is a data file as the peers' drivers write one (Family B: 100,000 users and 300,000 orders,
482 MB; Family C: 20,000 riders and 100,000 completions, 25 MB). `--scale N` first writes a file
N times as large beside it (var/bench/scaled-N-<name>), a record at a time: the per-rider and
per-user sections N times over with their IDs moved apart, the catalogues once. Each run loads
into a fresh database `bench_data_load`.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import ijson
import orjson

from app.core import json_stream
from app.packages import PACKAGES
from bench.harness import BENCH_KEYS, ROOT, fresh_database

# IDs of copy k are moved by k * SHIFT (beyond any ID of the drivers' files).
SHIFT = 10_000_000
# Sections copied N times and how a record of copy k is made (k = 0 is the record itself);
# any other section is written once.
Shifter = Callable[[dict, int], dict]


def _id(value: Any, k: int) -> Any:
    return value + k * SHIFT if type(value) is int else value


def _rider_id(value: Any, k: int) -> Any:
    return f"{value}-{k}" if k and isinstance(value, str) else value


COPIED: dict[str, Shifter] = {
    "riders": lambda r, k: {**r, "riderId": _rider_id(r["riderId"], k)},
    "completions": lambda r, k: {**r, "riderId": _rider_id(r["riderId"], k)},
    "users": lambda r, k: {
        **r,
        "id": _id(r["id"], k),
        "email": f"{k}-{r['email']}" if k else r["email"],
        "ridehail_id": _id(r.get("ridehail_id"), k),
        "agency_id": f"{k}-{r['agency_id']}" if k and r.get("agency_id") else r.get("agency_id"),
    },
    "user_kits": lambda r, k: {**r, "user_id": _id(r["user_id"], k)},
    "orders": lambda r, k: {
        **r,
        "order_id": _id(r["order_id"], k),
        "user_id": _id(r.get("user_id"), k),
    },
    "user_products": lambda r, k: {
        **r,
        "id": _id(r["id"], k),
        "user_id": _id(r["user_id"], k),
        "order_id": _id(r.get("order_id"), k),
    },
}


def _sections(path: Path) -> list[str]:
    """The file's section names (found as load-data finds them, without holding a section)."""
    names = [section.name for package in PACKAGES for section in package.sections]
    return list(json_stream.read_sections(path, dict.fromkeys(names, ())))


def _records(path: Path, name: str) -> Iterator[Any]:
    with path.open("rb") as file:
        yield from ijson.items(file, f"{name}.item", use_float=True)


def scaled(path: Path, times: int) -> Path:
    """The file `times` as large (written once, then reused)."""
    target = ROOT / "var" / "bench" / f"scaled-{times}-{path.name}"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".tmp")
    with partial.open("wb") as out:
        out.write(b"{")
        for n, name in enumerate(_sections(path)):
            out.write((b"," if n else b"") + orjson.dumps(name) + b":[")
            first = True
            for k in range(times if name in COPIED else 1):
                for record in _records(path, name):
                    row = COPIED[name](record, k) if name in COPIED else record
                    out.write((b"" if first else b",") + orjson.dumps(row))
                    first = False
            out.write(b"]")
        out.write(b"}")
    partial.rename(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    path = args.file if args.scale == 1 else scaled(args.file, args.scale)
    url = fresh_database("bench_data_load")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "app", "load-data", str(path)],
        cwd=ROOT,
        env={**os.environ, **BENCH_KEYS, "DATABASE_URL": url},
        check=True,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(done.stdout.strip())
    print(
        f"{path.name} ({path.stat().st_size / 2**20:,.0f} MiB): load-data {seconds:.1f} s, ", end=""
    )
    print(f"peak RSS {peak_mb:.1f} MB (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
