"""The rider app's forms, validated at the edge. Messages are keys of `app.rider.texts`, so a
page shows them in the rider's language."""

from __future__ import annotations

import re
import uuid

from marshmallow import Schema, fields
from multidict import MultiDictProxy

from app.training.languages import LANGUAGES


class SignInForm(Schema):
    """Rider ID and PIN (read with `read`: blank is missing, text is stripped). A missing
    field is shown as `field_required`; nothing else is checked before the database, so every
    other wrong entry gets the one 401 text."""

    rider_id = fields.String(required=True)
    pin = fields.String(required=True)


class ForgotPinForm(Schema):
    """The rider ID of "Forgot your PIN?" (blank is missing, shown as `field_required`)."""

    rider_id = fields.String(required=True)


def chosen_language(form: MultiDictProxy) -> str | None:
    """The language the sign-in (or new PIN) page was shown in (its hidden `lang`), when it
    was chosen."""
    language = form.get("lang")
    return language if language in LANGUAGES else None


# At most 4 digits: a quiz has at most 30 questions, and int() refuses 4,300 digits and more.
_QUESTION = re.compile(r"q([0-9]{1,4})")


class QuizAnswers:
    """The answers of a quiz form: `q0`, `q1`, … (question index), each with the chosen option
    indexes as values (repeated for several). `errors` maps a question's index to a text key;
    `mismatch` is set when a field names a question the quiz does not have or the hidden
    `attempt_id` is not a UUID. `attempt_id` is None for a form without one (scripts)."""

    def __init__(self, form: MultiDictProxy, quiz: list[dict]):
        self.chosen: list[set[int]] = []
        self.errors: dict[int, str] = {}
        self.attempt_id = _attempt_id(form.get("attempt_id"))
        self.mismatch = self.attempt_id is False or any(
            (found := _QUESTION.fullmatch(name)) and int(found.group(1)) >= len(quiz)
            for name in form
        )
        for index, question in enumerate(quiz):
            given = form.getall(f"q{index}", [])
            options = len(question["options"])
            self.chosen.append({int(v) for v in given if _option(v, options)})
            if not given:
                self.errors[index] = "answer_required"
            elif not all(_option(v, options) for v in given):
                self.errors[index] = "answer_invalid"

    @property
    def valid(self) -> bool:
        return not (self.errors or self.mismatch)


def _option(value: object, options: int) -> bool:
    return (
        isinstance(value, str)
        and value.isascii()
        and value.isdigit()
        and len(value) <= 2
        and int(value) < options
    )


def _attempt_id(value: object) -> uuid.UUID | None | bool:
    """The form's attempt_id: None when absent, False when it is not a UUID."""
    if value is None or value == "":
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return False
