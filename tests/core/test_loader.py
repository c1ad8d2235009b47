"""The load-data framework, with two small sections writing into a table the test creates."""

import orjson
import pytest
from marshmallow import Schema, fields, validate

from app.core.loader import (
    LoadError,
    RecordError,
    Section,
    Staging,
    load_document,
    read_document,
    record_rows,
    schema_loader,
    schema_validator,
    staged,
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


STAGED_COLOURS = Staging(
    "CREATE TEMPORARY TABLE staged_colours (ord int, name text, hue int) ON COMMIT DROP",
    "staged_colours",
    ("ord", "name", "hue"),
    # The hue stands for what a section takes from the settings (the riders' PIN pepper).
    lambda records, settings: record_rows(
        schema_loader(ColourSchema), lambda index, r: (index, r["name"], settings.port)
    )(records, settings),
    (
        "SELECT ord, 'name' AS field, 'duplicate name ' || name AS message FROM ("
        " SELECT ord, name, row_number() OVER (PARTITION BY name ORDER BY ord) AS seen"
        " FROM staged_colours) s WHERE seen > 1 ORDER BY ord LIMIT 1",
    ),
)


async def write_staged_colours(conn, count):
    await conn.execute("INSERT INTO colours (name, hue) SELECT name, hue FROM staged_colours")


STAGED = [staged("colours", STAGED_COLOURS, write_staged_colours), SECTIONS[1]]


async def _load_file(conn, path, document):
    path.write_bytes(orjson.dumps(document))
    streamed = {section.name: section.looked_up for section in STAGED if section.streamed}
    read = read_document(path, streamed)
    return await load_document(
        conn, read, STAGED, source=path.name, settings=make_settings(PORT="9123")
    )


async def test_a_staged_section_is_read_from_its_file_and_written_from_its_table(colours, tmp_path):
    document = {"colours": [{"name": "red", "hue": 0}, {"name": "blue", "hue": 1}]}
    assert await _load_file(colours, tmp_path / "f.json", document) == {"colours": 2}
    assert await colours.fetch("SELECT name, hue FROM colours ORDER BY name") == [
        ("blue", 9123),
        ("red", 9123),
    ]


@pytest.mark.parametrize(
    ("colours_section", "where"),
    [
        ([{"name": "red", "hue": 0}, {"name": "blue"}], "colours[1].hue: Missing data"),
        (
            [{"name": "red", "hue": 0}, {"name": "red", "hue": 1}],
            "colours[1].name: duplicate name red",
        ),
    ],
)
async def test_a_staged_sections_first_bad_record_is_named_and_nothing_written(
    colours, tmp_path, colours_section, where
):
    with pytest.raises(LoadError) as error:
        await _load_file(colours, tmp_path / "f.json", {"colours": colours_section})
    assert str(error.value).startswith(f"f.json: {where}")
    assert await _count(colours) == 0


async def test_a_later_sections_failure_rolls_back_a_staged_one(colours, tmp_path):
    document = {"colours": [{"name": "red", "hue": 0}], "shades": [{"colour": "green"}]}
    with pytest.raises(LoadError, match=r"shades\[0\]\.colour: unknown colour 'green'"):
        await _load_file(colours, tmp_path / "f.json", document)
    assert await _count(colours) == 0
