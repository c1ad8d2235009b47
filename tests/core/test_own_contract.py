"""The repository carries its own contract: no tracked file points outside it.

A clone holds only what `git ls-files` lists. So no file may cite a document kept beside the
repository (the old design notes, the interface specification, a sibling folder), every
relative link of a Markdown file must land on a tracked file inside the repository (and on a
heading of it when it names one), and every `docs/<page>.md` a comment cites must exist, with
the section it names. The benchmarks compare with ORM peers kept in a checkout of their own:
bench/README.md names that checkout only through `PEERS_DIR`, never by a path.
"""

import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Spelled in pieces so that this file does not match itself.
OUTSIDE = re.compile(
    r"\b" + "DESI" + r"GN\b" + "|" + "interfaces" + r"\.md" + "|" + r"\.\./" + "shared"
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCS_CITATION = re.compile(r"(?<![\w/.])docs/([\w-]+\.md)(#[\w-]+)?")


@cache
def tracked() -> tuple[str, ...]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return tuple(name for name in listed.split("\0") if name and (ROOT / name).is_file())


@cache
def tracked_paths() -> frozenset[Path]:
    files = {(ROOT / name).resolve() for name in tracked()}
    folders = {parent for path in files for parent in path.parents}
    return frozenset(files | folders)


def text_of(name: str) -> str | None:
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not re.match(r"#{1,6} ", line):
            continue
        base = slug(line.lstrip("#"))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    # An anchor set by hand on a list item: <a id="jobs"></a>.
    found.update(re.findall(r'<a id="([\w-]+)">', path.read_text(encoding="utf-8")))
    return frozenset(found)


def link_problem(source: Path, target: str) -> str | None:
    if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
        return None
    file_part, _, anchor = target.partition("#")
    path = (source.parent / file_part).resolve() if file_part else source
    if not path.is_relative_to(ROOT):
        return "points outside the repository"
    if path not in tracked_paths():
        return "points to a file the repository does not hold"
    if anchor and path.suffix == ".md" and anchor not in anchors(path):
        return f"names no heading of {path.relative_to(ROOT)}"
    return None


def test_no_file_cites_a_document_outside_the_repository():
    found = []
    for name in tracked():
        text = text_of(name)
        for number, line in enumerate((text or "").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "cites a document outside the repository:\n" + "\n".join(found)


def test_every_relative_link_of_a_markdown_file_lands_in_the_repository():
    found = []
    for name in tracked():
        if not name.endswith(".md"):
            continue
        source = ROOT / name
        for target in LINK.findall(source.read_text(encoding="utf-8")):
            if problem := link_problem(source, target):
                found.append(f"{name}: ({target}) {problem}")
    assert not found, "\n".join(found)


def test_every_cited_docs_page_and_section_exists():
    found = []
    for name in tracked():
        text = text_of(name)
        for page, anchor in DOCS_CITATION.findall(text or ""):
            path = ROOT / "docs" / page
            if not path.is_file():
                found.append(f"{name}: docs/{page} does not exist")
            elif anchor and anchor[1:] not in anchors(path):
                found.append(f"{name}: docs/{page}{anchor} names no heading")
    assert not found, "\n".join(found)


def test_the_checks_see_what_they_look_for(tmp_path):
    # The patterns above match what they are meant to catch.
    assert OUTSIDE.search("see " + "DESI" + "GN §4")
    assert OUTSIDE.search("../" + "shared/peers")
    assert not OUTSIDE.search("the design of the page")
    assert slug("Client addresses behind proxies: `TRUSTED_PROXY_HOPS`") == (
        "client-addresses-behind-proxies-trusted_proxy_hops"
    )
    readme = ROOT / "README.md"
    assert link_problem(readme, "../outside.md") == "points outside the repository"
    assert link_problem(readme, "docs/" + "no-such-page.md") == (
        "points to a file the repository does not hold"
    )
    assert link_problem(readme, "docs/" + "architecture.md#no-such-heading")
    assert link_problem(readme, "docs/architecture.md#folders") is None
