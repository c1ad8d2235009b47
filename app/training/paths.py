"""Paths and their courses, written: by the panel's path form and by load-data."""

from __future__ import annotations

import asyncpg

from app.core import sql
from app.training import store

SQL = sql.load("training", "upsert_paths", "delete_path_courses", "insert_path_courses")


class UnknownCourse(Exception):
    """A path names a course that does not exist: nothing is written."""

    def __init__(self, path_index: int, position: int, course):
        super().__init__(f"unknown course {course}")
        self.path_index, self.position = path_index, position


async def save_paths(conn: asyncpg.Connection, paths: list[dict]) -> None:
    """Insert or update the paths (keys of PathRecordSchema) and set each one's courses, in
    the order given."""
    referenced = list({course for path in paths for course in path["courses"]})
    missing = await store.missing_keys(conn, [], referenced)
    for index, path in enumerate(paths):
        for position, course in enumerate(path["courses"]):
            if ("course", str(course)) in missing:
                raise UnknownCourse(index, position, course)
    await conn.execute(
        SQL.upsert_paths, [{k: v for k, v in p.items() if k != "courses"} for p in paths]
    )
    links = [
        (p["id"], course, position)
        for p in paths
        for position, course in enumerate(p["courses"], start=1)
    ]
    await conn.execute(SQL.delete_path_courses, [p["id"] for p in paths])
    await conn.execute(
        SQL.insert_path_courses,
        [link[0] for link in links],
        [link[1] for link in links],
        [link[2] for link in links],
    )
