"""The rider app's rules: quiz scores, the training overview, lesson numbers and the name the
public verification page may show. Plain functions, no I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Grade:
    score: float  # percent of questions answered exactly right, 0 to 100
    passed: bool
    wrong: list[int]  # indexes of the questions not answered exactly right


def grade(quiz: list[dict], answers: list[set[int]], pass_mark: int) -> Grade:
    """A question counts when the chosen options are exactly its correct ones
    (docs/rider-app.md#quiz). Passing compares whole numbers (right · 100 ≥ pass mark · questions),
    so rounding the stored score can never turn a fail into a pass."""
    wrong = [
        index
        for index, (question, chosen) in enumerate(zip(quiz, answers, strict=True))
        if set(question["correct"]) != chosen
    ]
    right = len(quiz) - len(wrong)
    return Grade(round(100 * right / len(quiz), 2), right * 100 >= pass_mark * len(quiz), wrong)


def percent(score: float) -> str:
    """A score as the pages print it: 67, 66.7."""
    return f"{score:.0f}" if score == int(score) else f"{score:.1f}"


def lesson_number(text: str, count: int) -> int | None:
    """The lesson `n` of an address (1 to count, ASCII digits only), else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        return None
    number = int(text)
    return number if 1 <= number <= count else None


@dataclass
class Assignment:
    path: str
    deadline: datetime
    completed_at: datetime | None
    courses: list[dict] = field(default_factory=list)  # {course_id, course, published, ...}

    def overdue(self, now: datetime) -> bool:
        return self.completed_at is None and self.deadline < now

    @property
    def passed(self) -> int:
        return sum(course["passed"] for course in self.courses)

    def days(self, now: datetime) -> int:
        """Whole days left until the deadline (a part of a day counts as one), or, once
        overdue, whole days past it (at least one)."""
        if self.overdue(now):
            return max(1, (now - self.deadline) // timedelta(days=1))
        return math.ceil((self.deadline - now) / timedelta(days=1))

    @property
    def next_step(self) -> str | None:
        """The address the rider goes on from: in the first open course not yet passed, the
        lesson after the furthest one opened, else its quiz, else the course page (where a
        course without quiz is completed). None when nothing is left to open."""
        for course in self.courses:
            if course["published"] and not course["passed"]:
                base = f"/training/courses/{course['course_id']}"
                if course["furthest_lesson"] < course["lessons"]:
                    return f"{base}/lessons/{course['furthest_lesson'] + 1}"
                return f"{base}/quiz" if course["has_quiz"] else base
        return None


def overview(rows: list, now: datetime) -> tuple[list[Assignment], list[Assignment]]:
    """(open, finished) assignments from my_training.sql's rows, in its order."""
    assignments: dict[int, Assignment] = {}
    for row in rows:
        assignment = assignments.get(row["assignment_id"])
        if assignment is None:
            assignment = assignments[row["assignment_id"]] = Assignment(
                row["path"], row["deadline"], row["completed_at"]
            )
        if row["course_id"] is not None:
            assignment.courses.append(
                {
                    key: row[key]
                    for key in (
                        "course_id",
                        "course",
                        "translated",
                        "published",
                        "passed",
                        "proof_code",
                        "lessons",
                        "has_quiz",
                        "furthest_lesson",
                    )
                }
            )
    listed = list(assignments.values())
    return (
        [a for a in listed if a.completed_at is None],
        [a for a in listed if a.completed_at is not None],
    )


def public_name(name: str) -> str:
    """First name and the initial of the last name ("Sam R."); a one-word name as it is."""
    words = name.split()
    if len(words) < 2:
        return name.strip()
    return f"{words[0]} {words[-1][0]}."
