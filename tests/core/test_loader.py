"""The load-data framework, with two small sections writing into a table the test creates."""

import orjson
import pytest
from marshmallow import Schema, fields, validate

from app.core.loader import (
    LoadError,
    RecordError,
    Section,
    load_document,
    read_document,
    schema_validator,
)
from tests.conftest import make_settings


class ColourSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1))
    hue = fields.Integer(required=True)
    tags = fields.List(fields.Nested(Schema.from_dict({"label": fields.String(required=True)})))


async def write_colours(conn, records):
    await conn.executemany(
        "INSERT INTO colours (name, hue) VALUES ($1, $2)"
        " ON CONFLICT (name) DO UPDATE SET hue = excluded.hue",
        [(r["name"], r["hue"]) for r in records],
    )


async def write_shades(conn, records):
    for index, record in enumerate(records):
        known = "SELECT EXISTS (SELECT FROM colours WHERE name = $1)"
        if not await conn.fetchval(known, record["colour"]):
            raise RecordError(index, "colour", f"unknown colour {record['colour']!r}")


SECTIONS = [
    Section("colours", schema_validator(ColourSchema), write_colours),
    Section(
        "shades",
        schema_validator(Schema.from_dict({"colour": fields.String(required=True)})),
        write_shades,
    ),
]


@pytest.fixture
async def colours(db):
    await db.execute("CREATE TABLE colours (name text PRIMARY KEY, hue int NOT NULL)")
    return db


async def _count(conn):
    return await conn.fetchval("SELECT count(*) FROM colours")


async def test_loads_sections_and_counts(colours):
    document = {"colours": [{"name": "red", "hue": 0}, {"name": "blue", "hue": 240}]}
    assert await load_document(colours, document, SECTIONS) == {"colours": 2}
    assert await _count(colours) == 2


async def test_loading_twice_changes_nothing(colours):
    document = {"colours": [{"name": "red", "hue": 0}]}
    await load_document(colours, document, SECTIONS)
    await load_document(colours, document, SECTIONS)
    assert await colours.fetch("SELECT name, hue FROM colours") == [("red", 0)]


async def test_invalid_record_names_section_index_and_field(colours):
    document = {"colours": [{"name": "red", "hue": 0}, {"name": "blue", "hue": "high"}]}
    with pytest.raises(LoadError) as error:
        await load_document(colours, document, SECTIONS, source="f.json")
    assert str(error.value) == "f.json: colours[1].hue: Not a valid integer."
    assert await _count(colours) == 0


async def test_nested_field_is_named_with_its_path(colours):
    document = {"colours": [{"name": "red", "hue": 0, "tags": [{"label": "a"}, {}]}]}
    with pytest.raises(LoadError, match=r"colours\[0\]\.tags\[1\]\.label: Missing data"):
        await load_document(colours, document, SECTIONS)


async def test_failure_in_a_later_section_writes_nothing(colours):
    document = {"colours": [{"name": "red", "hue": 0}], "shades": [{"colour": "green"}]}
    with pytest.raises(LoadError, match=r"shades\[0\]\.colour: unknown colour 'green'"):
        await load_document(colours, document, SECTIONS)
    assert await _count(colours) == 0


async def test_what_the_database_refuses_is_one_line_and_writes_nothing(colours):
    # The schema lets U+0000 through; PostgreSQL cannot store it.
    document = {"colours": [{"name": "red", "hue": 0}, {"name": "bl\u0000ue", "hue": 240}]}
    with pytest.raises(LoadError, match=r"^f\.json: the database refused the file: "):
        await load_document(colours, document, SECTIONS, source="f.json")
    assert await _count(colours) == 0


async def test_unknown_section_is_refused(colours):
    with pytest.raises(LoadError, match="unknown section 'colors'"):
        await load_document(colours, {"colors": []}, SECTIONS)


async def test_section_must_be_an_array(colours):
    with pytest.raises(LoadError, match="section colours must be an array"):
        await load_document(colours, {"colours": {"name": "red"}}, SECTIONS)


def test_read_document_errors(tmp_path):
    with pytest.raises(LoadError, match="cannot read file"):
        read_document(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"colours": [')
    with pytest.raises(LoadError, match="broken.json: invalid JSON"):
        read_document(broken)
    array = tmp_path / "array.json"
    array.write_bytes(orjson.dumps([1]))
    with pytest.raises(LoadError, match="must be a JSON object of sections"):
        read_document(array)


def _hue_from_settings(records, settings):
    # Stands for what a section takes from the configuration (the riders' PIN pepper).
    return [{**record, "hue": settings.port} for record in records]


async def test_a_sections_prepare_reads_the_settings_before_the_write(colours):
    section = Section(
        "colours", schema_validator(ColourSchema), write_colours, prepare=_hue_from_settings
    )
    document = {"colours": [{"name": "red", "hue": 0}]}
    settings = make_settings(PORT="9123")
    await load_document(colours, document, [section], settings=settings)
    assert await colours.fetch("SELECT name, hue FROM colours") == [("red", 9123)]
