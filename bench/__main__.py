"""`python -m bench`: every benchmark, one after the other; or `python -m bench training shop`."""

import argparse
import ast
import importlib
import re
import sys
from pathlib import Path

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


def summary(name: str) -> str:
    """What a benchmark measures, the opening of its docstring up to the first colon or full
    stop, read without importing it (an import loads the whole service)."""
    tree = ast.parse((Path(__file__).parent / f"{name}.py").read_text(encoding="utf-8"))
    opening = " ".join((ast.get_docstring(tree) or "").split("\n\n", 1)[0].split())
    return re.split(r"[:.] | \(", opening, maxsplit=1)[0]


def parser() -> argparse.ArgumentParser:
    listing = "\n".join(f"  {name:<12} {summary(name)}" for name in BENCHMARKS)
    return argparse.ArgumentParser(
        prog="python -m bench",
        description="Runs the named benchmarks (all of them when none is named) against the "
        "real server on the embedded PostgreSQL under var/bench (BENCH_DATABASE_URL: another "
        "server). Each figure is printed with its target; the exit status is 1 when a target "
        "was missed. Figures and targets: bench/README.md.",
        epilog=f"benchmarks:\n{listing}\n\nRun apart, with --help: python -m bench.data_load "
        "(load-data of a file), bench.peer_load (load-data beside an ORM peer), "
        "bench.upsert_indexes (what each index on riders costs the riders upsert)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def main(argv: list[str]) -> int:
    arguments = parser()
    arguments.add_argument("names", nargs="*", metavar="NAME", help="a benchmark (listed below)")
    names = arguments.parse_args(argv).names or list(BENCHMARKS)
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        print(
            f"error: no benchmark named {unknown[0]!r} (python -m bench --help lists them)",
            file=sys.stderr,
        )
        return 2
    missed = 0
    for name in names:
        print(f"== {name}", flush=True)
        missed += not importlib.import_module(f"bench.{name}").main()
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
