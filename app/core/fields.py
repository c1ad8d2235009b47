"""marshmallow fields shared by the families, and numbers read from text.

Only ASCII digits are digits here: Python's int() and Decimal() also read `٣` or `１` (and
`str.isdigit()` is true for `¹`), which would make `/api/users/٣/kit` user 3.
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import ValidationError, fields

from app.core.errors import NUL_MESSAGE

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# Python refuses to convert integers of thousands of digits; IDs are bigints anyway.
MAX_DIGITS = 40


def integer_text(text: str) -> int | None:
    """The integer an ASCII decimal text spells (optional sign), else None."""
    if len(text) > MAX_DIGITS or not _INTEGER.fullmatch(text):
        return None
    return int(text)


class Text(fields.String):
    """A string PostgreSQL can store: U+0000 is refused when loading."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if "\x00" in text:
            raise ValidationError(NUL_MESSAGE)
        return text


class Integer(fields.Integer):
    """marshmallow's Integer, reading a string only when it is ASCII digits."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and integer_text(value) is None:
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Decimal(fields.Decimal):
    """marshmallow's Decimal, reading a string only when it is written in ASCII."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any):
        if isinstance(value, str) and not _DECIMAL.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)
