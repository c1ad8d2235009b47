"""The courses a web process keeps, parsed, between a rider's requests.

Every course page needs the course's content in the rider's language. Reading it costs a round
trip and the parsing of its content and translation on every page, and each web process
serves the same few courses to thousands of riders. So a process keeps the last courses it
read, each with the versions of the rows it came from (`Course.version`). Nothing rests on
the copy being current: the statement that records the view checks those versions, and
answers no row when the course or its translation was written since (on any instance), and
the page then reads the course again.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict

from aiohttp import web

from app.training.courses import Course

# A few dozen courses in four languages; each copy is some tens of kilobytes.
SIZE = 256


class KeptCourses:
    """The last SIZE courses read, by course and the language asked for."""

    def __init__(self, size: int = SIZE):
        self._size = size
        self._courses: OrderedDict[tuple[uuid.UUID, str], Course] = OrderedDict()

    def get(self, course_id: uuid.UUID, language: str) -> Course | None:
        course = self._courses.get((course_id, language))
        if course is not None:
            self._courses.move_to_end((course_id, language))
        return course

    def keep(self, course: Course) -> None:
        self._courses[(course.course_id, course.version.language)] = course
        self._courses.move_to_end((course.course_id, course.version.language))
        if len(self._courses) > self._size:
            self._courses.popitem(last=False)


KEPT_COURSES = web.AppKey("kept_courses", KeptCourses)


async def context(app: web.Application):
    """cleanup_ctx: each process keeps its own copies."""
    app[KEPT_COURSES] = KeptCourses()
    yield
