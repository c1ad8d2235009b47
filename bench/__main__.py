"""`python -m bench`: every benchmark, one after the other; or `python -m bench training`."""

import importlib
import sys

BENCHMARKS = (
    "checks",
    "checks_load",
    "shop",
    "training",
    "jobs",
    "limits",
    "rider",
    "admin",
    "admin_paths",
    "audit",
    "reports",
    "csv",
    "burst",
    "capacity",
    "ai",
    "webhooks",
    "metrics",
    "api_keys",
    "sign_in",
    "bounds",
    "offline",
    "memory",
    "backups",
)

names = sys.argv[1:] or BENCHMARKS
missed = 0
for name in names:
    print(f"== {name}", flush=True)
    missed += not importlib.import_module(f"bench.{name}").main()
sys.exit(1 if missed else 0)
