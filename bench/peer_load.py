"""`load-data` side by side with an ORM peer: only the load part of the peers' drivers, paired.

    python -m bench.peer_load PEERS --family b [--rounds 2] [--size N M]

PEERS is a writable copy of the peers' folder (the drivers write venvs, data files and an
embedded PostgreSQL beside themselves). The family's driver (`perf/bench_<family>.py`) generates
its data file with its own generator at its default size (or `--size`: users and orders for B,
riders and completions for C, checks for A) and its own setup runs `migrate` and `load-data` into
a fresh database; its server is not started. Each round loads the file once into each project,
the order alternating so that the drift of a shared machine hits both, and prints the time, the
command's peak RSS (its children's ru_maxrss, as the drivers measure it) and the load average.
The last line gives the medians and the ratio service / peer.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEER = {"a": "peer-a", "b": "peer-b", "c": "peer"}


def _ours_python(data: Path) -> Path:
    """This checkout run with the current interpreter (no venv of its own to install)."""
    wrapper = data / "ours-python"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


def _patch(driver, data: Path) -> None:
    installed = driver.ensure_project_venv if hasattr(driver, "ensure_project_venv") else None
    c = importlib.import_module("bench_c")
    installed = installed or c.ensure_project_venv

    def venv(project, label):
        return _ours_python(data) if project == ROOT else installed(project, label)

    def cli(self, *args, timeout, peak=False):
        wrap = [sys.executable, "-c", c.PEAK_WRAPPER] if args[0] == "load-data" else []
        done = subprocess.run(
            [*wrap, str(self.py), "-m", "app", *args],
            cwd=self.run_dir,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"[{self.label}] {args[0]} failed: {done.stderr[-2000:]}")
        out = done.stdout + done.stderr
        if args[0] == "load-data":
            self.peak_mb = int(out.rsplit("LOAD_PEAK_KB=", 1)[1].split()[0]) / 1024
        return out

    for module in {driver, c}:
        module.ensure_project_venv = venv
    driver.Project.cli = cli
    driver.Project.start = lambda self: None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("peers", type=Path)
    parser.add_argument("--family", choices=sorted(PEER), required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--size", type=int, nargs="+")
    args = parser.parse_args()
    peers = args.peers.resolve()
    sys.path.insert(0, str(peers / "perf"))
    driver = importlib.import_module(f"bench_{args.family}")
    c = importlib.import_module("bench_c")
    data = peers / "perf" / f".data-{args.family}"
    data.mkdir(parents=True, exist_ok=True)
    c.DATA = data
    _patch(driver, data)
    projects = [(PEER[args.family], peers / PEER[args.family]), ("ours", ROOT)]

    if args.family == "a":
        files = driver.data_files(*(args.size or [500_000]))
        pg = c.Postgres()
        make = [driver.Project(path, label, pg, None) for label, path in projects]
    elif args.family == "b":
        files, _doc = driver.data_file(data, *(args.size or [100_000, 300_000]))
        del _doc
        pg = driver.Postgres(data)
        ns = argparse.Namespace(data_dir=data)
        make = [driver.Project(path, label, pg, ns, None) for label, path in projects]
    else:
        files, _doc = driver.data_file(*(args.size or [100_000, 500_000]))
        del _doc
        pg = c.Postgres()
        make = [driver.Project(path, label, pg, None) for label, path in projects]
    size = sum(p.stat().st_size for p in (files if isinstance(files, list) else [files]))
    times: dict[str, list[float]] = {label: [] for label, _ in projects}
    peaks: dict[str, list[float]] = {label: [] for label, _ in projects}
    try:
        for n in range(args.rounds):
            for project in make if n % 2 == 0 else make[::-1]:
                project.setup(*([files] if args.family != "c" else [files, None]))
                seconds = project.single["load_data_s"][0]
                times[project.label].append(seconds)
                peaks[project.label].append(project.peak_mb)
                pg.psql(f"DROP DATABASE {project.db} WITH (FORCE);")
                pg.created.remove(project.db)
                print(
                    f"round {n + 1} {project.label}: load-data {seconds:.1f} s, peak RSS "
                    f"{project.peak_mb:.0f} MB, load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
    finally:
        pg.stop()
    peer, ours = (label for label, _ in projects)
    t_peer, t_ours = statistics.median(times[peer]), statistics.median(times[ours])
    print(
        f"family {args.family.upper()}, {size / 2**20:,.0f} MiB: ours {t_ours:.1f} s / "
        f"{max(peaks[ours]):.0f} MB, {peer} {t_peer:.1f} s / {max(peaks[peer]):.0f} MB, "
        f"ratio {t_ours / t_peer:.2f}x (medians of {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
