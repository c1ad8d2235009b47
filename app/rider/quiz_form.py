"""The quiz form's questions, rendered once a course version and language in each web process.

The questions and options are most of the quiz page's rendering, and those of an unanswered
form (every opening of the quiz) are the same for every rider shown the course in a language.
So a process keeps their HTML by the course and its version (`Course.version`: the versions
of the rows the course was read from), as it keeps the course itself (app/rider/kept_courses.py):
an edited course or translation is a new version, rendered anew. A form shown again with its
answers (a 400) is rendered for those answers.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict

from aiohttp import web
from markupsafe import Markup

from app.core.html import ENVIRONMENT
from app.rider.forms import QuizAnswers
from app.rider.kept_courses import SIZE
from app.rider.texts import page_language
from app.training.courses import Course, Version

TEMPLATE = "rider/quiz_questions.html"


class RenderedQuizzes:
    """The last SIZE unanswered quiz forms' questions, by course, version and page language."""

    def __init__(self, size: int = SIZE):
        self._size = size
        self._rendered: OrderedDict[tuple[uuid.UUID, Version, str], Markup] = OrderedDict()

    def questions(self, course: Course, language: str, answers: QuizAnswers | None) -> Markup:
        """The form's questions in a page in `language`, `answers` checked and their errors
        shown."""
        if answers is not None:
            return _render(course, language, answers)
        key = (course.course_id, course.version, language)
        html = self._rendered.get(key)
        if html is None:
            html = self._rendered[key] = _render(course, language, None)
            if len(self._rendered) > self._size:
                self._rendered.popitem(last=False)
        return html


def _render(course: Course, language: str, answers: QuizAnswers | None) -> Markup:
    template = ENVIRONMENT.get_template(TEMPLATE)
    return Markup(template.render(course=course, answers=answers, **page_language(language)))


RENDERED_QUIZZES = web.AppKey("rendered_quizzes", RenderedQuizzes)


async def context(app: web.Application):
    """cleanup_ctx: each process (each app of the tests) renders its own."""
    app[RENDERED_QUIZZES] = RenderedQuizzes()
    yield
