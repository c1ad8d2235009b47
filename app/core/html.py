"""HTML pages: the one Jinja2 environment (autoescape on) and the small self-contained pages
(errors, one-tap link answers) that need no request.

Templates live in each package's `templates/` folder, under a folder named after the package
(`app/admin/templates/admin/dashboard.html` is `admin/dashboard.html`); `app/core/templates/`
holds the base layout and the plain page.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import jinja2
from aiohttp import web

from app.core import markdown

APP_DIR = Path(__file__).resolve().parents[1]
STATIC_DIR = APP_DIR / "static"

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.FileSystemLoader(sorted(str(p) for p in APP_DIR.glob("*/templates"))),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    # Templates ship with the code and a deploy restarts the processes: no stat() of the
    # template file on every render.
    auto_reload=False,
)
# `{{ markdown(lesson.body) }}` in any template: lesson text as safe HTML.
ENVIRONMENT.globals["markdown"] = markdown.to_html
# `{{ rider.rider_id | segment }}`: one path segment; Jinja's `urlencode` leaves `/` as it is,
# which would split an ID like `AE/123` into two segments.
ENVIRONMENT.filters["segment"] = lambda value: quote(str(value), safe="")


def compile_templates() -> None:
    """Compile every template now, in a web process before it serves: the first riders after
    a deploy do not pay for it (a burst's first pages), and a template that does not compile
    stops the start instead of failing its page."""
    for name in ENVIRONMENT.list_templates():
        ENVIRONMENT.get_template(name)


def is_html_path(path: str) -> bool:
    """Everything outside `/api` is a page for people: its errors are pages too."""
    return not (path == "/api" or path.startswith("/api/"))


def page(status: int, title: str, *paragraphs: str, items: list[str] | None = None) -> web.Response:
    """A page that is personal (`no-store`) and sends no Referer, so a token in its address
    never travels to another site."""
    document = ENVIRONMENT.get_template("page.html").render(
        title=title, paragraphs=paragraphs, items=items or []
    )
    return web.Response(
        text=document,
        status=status,
        content_type="text/html",
        charset="utf-8",
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
    )
