"""A load-data document read from its file without holding it: the sections a family marks as
streamed (arrays of hundreds of thousands of records) are read again from the file, a record at
a time, each time they are iterated; the other sections are read whole.

The file is parsed once to find its sections (and to find invalid JSON before anything is
loaded), then once more for each pass over a streamed section. While the sections are found,
the integer values of the keys a streamed section names (its records' IDs, say) are kept: what
its writer must look up before its first record. Parsed whole, a 113 MB file of 100,000 checks
took ~500 MB of Python objects on top of its bytes.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

import ijson


class Records:
    """The records of a streamed section: a sized iterable that reads them again from the file
    on every iteration. `integers[key]`: the integer values of `key` in its objects, at any
    depth, for each key the section named."""

    def __init__(self, path: Path, name: str, count: int, integers: dict[str, set[int]]):
        self.path, self.name, self.count, self.integers = path, name, count, integers

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        # The parser reads the file from its start; it stops at the section's last record,
        # not at the end of the file (the sections after it are not parsed again).
        with self.path.open("rb") as file:
            items = ijson.items(file, f"{self.name}.item", use_float=True)
            yield from itertools.islice(items, self.count)


class _Kept:
    """Stands for every object inside a streamed section while the sections are found: of
    what is set into it, only the integer values of the keys asked for are kept, so memory
    does not grow with the section's objects."""

    __slots__ = ("integers",)

    def __init__(self, keys: Collection[str]):
        self.integers: dict[str, set[int]] = {key: set() for key in keys}

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self.integers and type(value) is int:
            self.integers[key].add(value)


def integers(records: Any, key: str) -> set[int]:
    """The integer values of `key` in the objects of a section, at any depth: kept while the
    file's sections were found (Records), or found in a section given whole (a list)."""
    if isinstance(records, Records):
        return records.integers[key]
    found: set[int] = set()
    pending = list(records)
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            if type(value.get(key)) is int:
                found.add(value[key])
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return found


class _Document(dict):
    """The top-level object; it knows which section the parser is filling."""

    filling: str | None = None

    def __setitem__(self, key: str, value: Any) -> None:
        self.filling = key
        super().__setitem__(key, value)


def read_sections(path: Path, streamed: Mapping[str, Collection[str]]) -> Any:
    """The document in `path`: a dict of sections, where an array named in `streamed` is its
    Records (keeping the integers of the keys `streamed` names for it); or whatever else the
    file holds (the caller refuses it). Raises OSError and ijson.JSONError."""
    document: _Document | None = None
    kept = {name: _Kept(keys) for name, keys in streamed.items()}
    counts = dict.fromkeys(streamed, 0)

    def new_object() -> Any:
        # The parser makes each object before it sets it into its parent, the first one being
        # the document; the section being filled is known once its array is set. A streamed
        # section's array holds only the records since the last object began: they are
        # counted and let go, so that the pass holds no more than one record's worth.
        nonlocal document
        if document is None:
            document = _Document()
            return document
        filling = document.filling
        if filling in kept:
            array = document[filling]
            if isinstance(array, list):
                counts[filling] += len(array)
                array.clear()
            return kept[filling]
        return {}

    with path.open("rb") as file:
        [value] = ijson.items(file, "", map_type=new_object, use_float=True)
    if not isinstance(value, _Document):
        return value
    return {
        name: Records(path, name, counts[name] + len(section), kept[name].integers)
        if name in streamed and isinstance(section, list)
        else section
        for name, section in value.items()
    }
