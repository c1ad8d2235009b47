"""The rider patterns of the OpenAPI document trim the same whitespace as the server:
str.strip()'s, spelled out, since a pattern's `\\s` means another set in a JSON Schema
validator (ECMA-262) than in Python."""

import re

import pytest

from app.training.riders import RowError, parse_rider
from app.training.schemas import SPACE
from tests.training.test_limits import documented, documented_valid  # noqa: F401 - a fixture

EVERY_CHARACTER = "".join(map(chr, range(0x110000)))
# ECMA-262's WhiteSpace and LineTerminator, what `\s` means to a JSON Schema validator.
ECMA_SPACE = "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
ECMA_SPACE += "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def test_the_documents_space_is_what_strip_removes():
    assert set(re.findall(f"[{SPACE}]", EVERY_CHARACTER)) == {
        char for char in EVERY_CHARACTER if char.isspace()
    }


def test_no_pattern_relies_on_an_engines_shorthand(documented):  # noqa: F811
    properties = documented["Rider"]["properties"]
    patterns = [
        pattern
        for prop in properties.values()
        for pattern in [prop.get("pattern"), *(p["pattern"] for p in prop.get("allOf", ()))]
        if pattern
    ]
    assert len(patterns) >= 8
    for pattern in patterns:
        # `[\s\S]` is any character in every engine; a lone \s, \S, \w, \d or \b is not.
        assert not re.search(r"\\[sSwWdDbB]", pattern.replace(r"[\s\S]", "")), pattern


def _accepted(row: dict) -> bool:
    try:
        parse_rider(row)
    except RowError:
        return False
    return True


@pytest.mark.parametrize(
    "space", sorted(set(ECMA_SPACE) | {c for c in EVERY_CHARACTER[:0x3001] if c.isspace()})
)
def test_a_name_of_whitespace_is_judged_alike(documented, space):  # noqa: F811
    properties = documented["Rider"]["properties"]
    for name in (f"{space}  ", f" {space}Amal{space} ", f"{space}"):
        row = {"riderId": "R-1", "name": name, "market": f"{space}AE "}
        valid = documented_valid(properties["name"], name) and documented_valid(
            properties["market"], row["market"]
        )
        assert valid is _accepted(row), (hex(ord(space)), name)
