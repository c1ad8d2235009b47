"""marshmallow fields shared by the families."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from app.core.errors import NUL_MESSAGE


class Text(fields.String):
    """A string PostgreSQL can store: U+0000 is refused when loading."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if "\x00" in text:
            raise ValidationError(NUL_MESSAGE)
        return text
