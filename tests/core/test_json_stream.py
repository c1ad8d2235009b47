"""read_document with streamed sections: the other sections whole, the streamed ones read again
from the file on every pass, and every error of the file found before anything is loaded."""

import orjson
import pytest

from app.core.json_stream import integers
from app.core.loader import LoadError, read_document


def written(tmp_path, text: bytes):
    path = tmp_path / "f.json"
    path.write_bytes(text)
    return path


def test_a_streamed_section_is_read_again_on_every_pass(tmp_path):
    records = [{"id": i, "tags": [{"label": "a"}], "size": 1.5} for i in range(3)]
    document = {"small": [{"k": {"v": [1]}}], "big": records, "after": [{"x": None}]}
    path = written(tmp_path, orjson.dumps(document))
    read = read_document(path, {"big": ()})
    assert read["small"] == document["small"]
    assert read["after"] == document["after"]
    assert len(read["big"]) == 3
    assert list(read["big"]) == records
    assert list(read["big"]) == records


def test_the_integers_of_the_keys_a_streamed_section_names_are_kept(tmp_path):
    records = [
        {"id": 7, "items": [{"id": 8, "other": 9}], "note": {"id": "10"}},
        {"id": 2**62, "flag": {"id": True}, "ids": [{"id": 1.0}]},
    ]
    path = written(tmp_path, orjson.dumps({"big": records}))
    read = read_document(path, {"big": ("id", "absent")})
    assert integers(read["big"], "id") == {7, 8, 2**62} == integers(records, "id")
    assert integers(read["big"], "absent") == set() == integers(records, "absent")


def test_a_streamed_section_that_is_no_array_is_left_for_the_loader_to_refuse(tmp_path):
    path = written(tmp_path, b'{"big": {"id": 1}, "small": {"k": 1}}')
    read = read_document(path, {"big": ()})
    assert not isinstance(read["big"], list) and not isinstance(read["small"], list)


@pytest.mark.parametrize(
    "text, message",
    [
        (b'{"big": [{"id": 1}], "small": [', "invalid JSON: parse error: premature EOF$"),
        (b'{"big": [{"id": 1}]} {}', "invalid JSON: parse error: trailing garbage near "),
        (b'{"big": [{"id": "\xff"}]}', "invalid JSON: lexical error: invalid bytes in UTF8"),
        (b"", "invalid JSON: parse error: premature EOF$"),
        (b"[1]", "the document must be a JSON object of sections$"),
    ],
)
def test_errors_anywhere_in_the_file_are_one_line_before_loading(tmp_path, text, message):
    with pytest.raises(LoadError, match=f"^{tmp_path / 'f.json'}: {message}") as error:
        read_document(written(tmp_path, text), {"big": ()})
    assert "\n" not in str(error.value)
