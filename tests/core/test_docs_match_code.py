"""The guides say what the code does: the configuration table lists every setting, the jobs
guide every table housekeeping deletes from, the architecture guide every static file, and the
README's guide table every page of docs/ (the README staying a short front door, each page of
docs/ one area a reader takes in at once)."""

import re
from pathlib import Path

from app.core.config import Settings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


class ReadNames(dict):
    """An empty environment that notes every variable asked of it."""

    def __init__(self):
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key, default=None):
        self.asked.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.asked.add(key)
        return super().__contains__(key)

    def __getitem__(self, key):
        self.asked.add(key)
        return super().__getitem__(key)


def table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_configuration_table_lists_every_setting():
    documented: dict[str, str] = {}
    for row in table_rows((DOCS / "configuration.md").read_text(encoding="utf-8"))[1:]:
        for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row[0]):
            documented[name] = row[1]
    environment = ReadNames()
    Settings.from_env(environment)
    assert environment.asked, "Settings read no variable"
    # A variable read from the process environment itself says so in its row, and the code
    # names it.
    outside = {name for name, meaning in documented.items() if "not by `Settings`" in meaning}
    source = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "app").rglob("*.py"))
    for name in outside:
        assert f'"{name}"' in source, f"{name}: no code reads it"
    missing = sorted(environment.asked - set(documented))
    assert not missing, f"settings missing from docs/configuration.md: {missing}"
    stale = sorted(set(documented) - environment.asked - outside)
    assert not stale, f"docs/configuration.md lists variables Settings does not read: {stale}"


def test_the_jobs_guide_lists_every_table_housekeeping_deletes_from():
    statement = (ROOT / "sql" / "jobs" / "housekeeping.sql").read_text(encoding="utf-8")
    deleted = set(re.findall(r"DELETE FROM (\w+)", statement))
    assert deleted, "the housekeeping statement deletes nothing"
    guide = section((DOCS / "jobs.md").read_text(encoding="utf-8"), "Housekeeping")
    listed = set(re.findall(r"^- `(\w+)`", guide, re.MULTILINE))
    assert listed == deleted, (
        f"docs/jobs.md lists {sorted(listed)}, the job deletes {sorted(deleted)}"
    )


def test_the_architecture_guide_lists_every_static_file():
    static = ROOT / "app" / "static"
    files = {path.relative_to(static).as_posix() for path in static.rglob("*") if path.is_file()}
    assert files, "app/static holds no file"
    rows = table_rows((DOCS / "architecture.md").read_text(encoding="utf-8"))
    (row,) = [row for row in rows if row[0] == "`app/static/`"]
    listed = set(re.findall(r"`([\w./-]+\.\w+)`", row[1]))
    assert listed == files, (
        f"docs/architecture.md lists {sorted(listed)}, app/static holds {sorted(files)}"
    )


def test_the_readme_is_a_short_front_door_to_every_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300, "the README is longer than 300 lines"
    guides = section(readme, "Documentation")
    listed = set(re.findall(r"^\| \[docs/([\w-]+\.md)\]\(docs/\1\) \|", guides, re.MULTILINE))
    pages = {path.name for path in DOCS.glob("*.md")}
    assert listed == pages, f"the README's guide table lacks {sorted(pages - listed)}"


def test_every_guide_stays_one_area_of_at_most_300_lines():
    long = {
        path.name: lines
        for path in DOCS.glob("*.md")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 300
    }
    assert not long, f"docs pages over 300 lines (split them by area): {long}"
