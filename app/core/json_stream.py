"""A load-data document read from its file without holding it: the sections a family marks as
streamed (arrays of hundreds of thousands of records) are read again from the file, a record at
a time, each time they are iterated; the other sections are read whole.

The file is parsed once to find its sections (and to find invalid JSON before anything is
loaded), then once more for each pass over a streamed section. Parsed whole, a 113 MB file of
100,000 checks took ~500 MB of Python objects on top of its bytes.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import ijson


class Records:
    """The records of a streamed section: a sized iterable that reads them again from the file
    on every iteration."""

    def __init__(self, path: Path, name: str, count: int):
        self.path, self.name, self.count = path, name, count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        with self.path.open("rb") as file:
            yield from ijson.items(file, f"{self.name}.item", use_float=True)


class _Dropped:
    """Stands for every object inside a streamed section while the sections are found: what
    is set into it is dropped at once, so memory does not grow with the section."""

    __slots__ = ()

    def __setitem__(self, key: str, value: Any) -> None:
        pass


_DROPPED = _Dropped()


class _Document(dict):
    """The top-level object; it knows which section the parser is filling."""

    filling: str | None = None

    def __setitem__(self, key: str, value: Any) -> None:
        self.filling = key
        super().__setitem__(key, value)


def read_sections(path: Path, streamed: Collection[str]) -> Any:
    """The document in `path`: a dict of sections, where an array named in `streamed` is its
    Records; or whatever else the file holds (the caller refuses it). Raises OSError and
    ijson.JSONError."""
    document: _Document | None = None

    def new_object() -> Any:
        # The parser makes each object before it sets it into its parent, the first one being
        # the document; the section being filled is known once its array is set.
        nonlocal document
        if document is None:
            document = _Document()
            return document
        return _DROPPED if document.filling in streamed else {}

    with path.open("rb") as file:
        [value] = ijson.items(file, "", map_type=new_object, use_float=True)
    if not isinstance(value, _Document):
        return value
    return {
        name: Records(path, name, len(section))
        if name in streamed and isinstance(section, list)
        else section
        for name, section in value.items()
    }
