"""What the messages to riders say: plain English text, one line per path.

Messages are in English whatever the rider's language: path names are English in the admin
panel, and the page behind the link is English too. Dates are UTC dates.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

# A message lists at most this many paths (oldest deadline first) and counts the rest; the
# Cloud API takes up to 4,096 characters of text, and a path name up to a few hundred.
LISTED_PATHS = 10


def due_text(path: str, deadline: datetime, now: datetime, completed: bool = False) -> str:
    """`Road safety: due 2026-11-29`, `… overdue since …` once it passed, or `… completed`."""
    if completed:
        return f"{path}: already completed"
    word = "overdue since" if deadline <= now else "due"
    return f"{path}: {word} {deadline:%Y-%m-%d}"


def _body(opening: str, lines: Sequence[str], link: str | None) -> str:
    listed = [f"- {line}" for line in lines[:LISTED_PATHS]]
    if len(lines) > LISTED_PATHS:
        listed.append(f"- and {len(lines) - LISTED_PATHS} more")
    closing = (
        f"Open your training: {link}" if link else "Sign in to the training platform to continue."
    )
    return "\n".join([opening, *listed, closing])


def reminder_text(name: str, lines: Sequence[str], link: str | None) -> str:
    return _body(f"Hi {name}, you have unfinished training:", lines, link)


def flag_text(name: str, lines: Sequence[str], link: str | None) -> str:
    return _body(f"Hi {name}, new training was assigned to you:", lines, link)
