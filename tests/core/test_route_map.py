"""The route map (docs/routes.md) matches the router: every route is listed, every row is real."""

import importlib
import inspect
import re
from pathlib import Path

import pytest
from aiohttp import web

from app.core.sql import SQL_DIR

ROUTES = Path(__file__).resolve().parents[2] / "docs" / "routes.md"
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}
STATIC_HANDLER = "(static files of the docs page)"


def route_map() -> dict[tuple[str, str], tuple[str, str, str]]:
    section = ROUTES.read_text(encoding="utf-8")
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in METHODS:
            method, path, handler, schemas, sql_files = cells
            path = path.strip("`")
            assert (method, path) not in rows, f"{method} {path} is listed twice"
            rows[(method, path)] = (handler.strip("`"), schemas, sql_files)
    return rows


def served_routes(app: web.Application) -> dict[tuple[str, str], str]:
    served = {}
    for route in app.router.routes():
        if route.method == "HEAD":
            continue
        if isinstance(route.resource, web.StaticResource):
            handler = STATIC_HANDLER
        else:
            function = inspect.unwrap(route.handler)
            handler = f"{function.__module__}.{function.__qualname__}"
        served[(route.method, route.resource.canonical)] = handler
    return served


def handler_module(handler: str):
    return importlib.import_module(handler.rsplit(".", 1)[0])


@pytest.fixture
def rows():
    return route_map()


def test_every_route_is_in_the_map_with_its_handler(client, rows):
    served = served_routes(client.app)
    assert served, "the router has no routes"
    missing = sorted(set(served) - set(rows))
    assert not missing, f"routes missing from docs/routes.md: {missing}"
    stale = sorted(set(rows) - set(served))
    assert not stale, f"docs/routes.md lists routes that do not exist: {stale}"
    for key, handler in served.items():
        assert rows[key][0] == handler, f"{key}: the table says {rows[key][0]}, not {handler}"


def test_schemas_and_sql_files_named_by_the_map_exist(rows):
    for (method, path), (handler, schemas, sql_files) in rows.items():
        for name in re.findall(r"`(\w+)`", schemas):
            if handler != STATIC_HANDLER:
                assert hasattr(handler_module(handler), name), f"{method} {path}: no {name}"
        for name in re.findall(r"`([\w/]+)`", sql_files):
            assert (SQL_DIR / f"{name}.sql").is_file(), f"{method} {path}: no sql/{name}.sql"
