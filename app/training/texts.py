"""What the messages to riders say: plain English text, one line per unfinished path.

Messages are in English whatever the rider's language: path names are English in the admin
panel, and the page behind the link is English too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

# A reminder lists at most this many paths (oldest deadline first) and counts the rest; the
# Cloud API takes up to 4,096 characters of text, and a path name up to a few hundred.
LISTED_PATHS = 10

Paths = Sequence[tuple[str, datetime]]


def due_text(path: str, deadline: datetime, now: datetime) -> str:
    """`Safety basics: due 2026-11-29` (the UTC date), or `overdue since` once it passed."""
    word = "overdue since" if deadline <= now else "due"
    return f"{path}: {word} {deadline:%Y-%m-%d}"


def _body(opening: str, paths: Paths, link: str | None, now: datetime) -> str:
    lines = [opening]
    lines += [f"- {due_text(path, deadline, now)}" for path, deadline in paths[:LISTED_PATHS]]
    if len(paths) > LISTED_PATHS:
        lines.append(f"- and {len(paths) - LISTED_PATHS} more")
    lines.append(
        f"Open your training: {link}" if link else "Sign in to the training platform to continue."
    )
    return "\n".join(lines)


def reminder_text(name: str, paths: Paths, link: str | None, now: datetime) -> str:
    return _body(f"Hi {name}, you have unfinished training:", paths, link, now)


def flag_text(name: str, paths: Paths, link: str | None, now: datetime) -> str:
    return _body(f"Hi {name}, new training was assigned to you:", paths, link, now)
