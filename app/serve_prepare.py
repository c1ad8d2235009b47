"""serve's steps before it supervises (app.commands.prepare_serve), in a process of its own
(app/serve.py): `python -m app.serve_prepare FD` writes to the file descriptor FD the line
serve fails with, and nothing when it is done."""

from __future__ import annotations

import sys

from app import serve
from app.commands import prepare_serve


def main() -> None:
    with open(int(sys.argv[1]), "w", encoding="utf-8") as report:
        report.write(prepare_serve(*serve.inherited()) or "")


if __name__ == "__main__":
    main()
