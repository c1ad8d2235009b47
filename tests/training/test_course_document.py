"""The course document's rules (docs/api-training.md#course-content) and a translation's fit to its
course."""

import pytest
from marshmallow import ValidationError

from app.training.course_document import (
    CourseDocumentSchema,
    TranslationSchema,
    translation_mismatch,
)


def document(**fields):
    return {
        "title": "Road safety",
        "lessons": [
            {"title": "Before you ride", "body": "Check the **brakes**."},
            {"title": "On the road", "body": "Keep three seconds of distance."},
        ],
        "quiz": [
            {"question": "Distance?", "options": ["1 s", "3 s", "none"], "correct": [1]},
            {"question": "Checks?", "options": ["Tyres", "Radio"], "correct": [0]},
        ],
        **fields,
    }


def question(**fields):
    return {"question": "Q?", "options": ["a", "b", "c"], "correct": [0], **fields}


def first_error(data, schema=CourseDocumentSchema) -> dict:
    with pytest.raises(ValidationError) as error:
        schema().load(data)
    return error.value.messages


def test_a_valid_document_is_trimmed_and_gets_the_defaults():
    loaded = CourseDocumentSchema().load(
        {"title": "  Road safety ", "lessons": [{"title": " Intro ", "body": "\nText\n"}]}
    )
    assert loaded == {
        "title": "Road safety",
        "lessons": [{"title": "Intro", "body": "Text"}],
        "quiz": [],
        "pass_mark": 70,
    }


def test_several_correct_options_and_a_pass_mark_are_kept():
    loaded = CourseDocumentSchema().load(
        document(
            quiz=[question(options=["a", "b", "c", "d", "e", "f"], correct=[5, 0, 2])], pass_mark=0
        )
    )
    assert (loaded["quiz"][0]["correct"], loaded["pass_mark"]) == ([5, 0, 2], 0)


LONG = "x" * 201


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        ({"title": None}, {"title": ["Field may not be null."]}),
        ({"title": "   "}, {"title": ["Length must be between 1 and 200."]}),
        ({"title": LONG}, {"title": ["Length must be between 1 and 200."]}),
        ({"title": "a\x00b"}, {"title": ["Text must not contain the NUL character (U+0000)."]}),
        ({"title": 5}, {"title": ["Not a valid string."]}),
        ({"lessons": []}, {"lessons": ["Length must be between 1 and 30."]}),
        (
            {"lessons": [{"title": "t", "body": "b"}] * 31},
            {"lessons": ["Length must be between 1 and 30."]},
        ),
        (
            {"lessons": [{"title": "t"}]},
            {"lessons": {0: {"body": ["Missing data for required field."]}}},
        ),
        (
            {"lessons": [{"body": "b"}]},
            {"lessons": {0: {"title": ["Missing data for required field."]}}},
        ),
        (
            {"lessons": [{"title": "t", "body": " "}]},
            {"lessons": {0: {"body": ["Length must be between 1 and 20000."]}}},
        ),
        (
            {"lessons": [{"title": "t", "body": "b" * 20_001}]},
            {"lessons": {0: {"body": ["Length must be between 1 and 20000."]}}},
        ),
        ({"quiz": [question()] * 31}, {"quiz": ["Longer than maximum length 30."]}),
        (
            {"quiz": [question(options=["only"])]},
            {"quiz": {0: {"options": ["Length must be between 2 and 6."]}}},
        ),
        (
            {"quiz": [question(options=list("abcdefg"))]},
            {"quiz": {0: {"options": ["Length must be between 2 and 6."]}}},
        ),
        (
            {"quiz": [question(options=["a", ""])]},
            {"quiz": {0: {"options": {1: ["Length must be between 1 and 500."]}}}},
        ),
        (
            {"quiz": [question(question="")]},
            {"quiz": {0: {"question": ["Length must be between 1 and 1000."]}}},
        ),
        (
            {"quiz": [question(correct=[])]},
            {"quiz": {0: {"correct": ["Shorter than minimum length 1."]}}},
        ),
        (
            {"quiz": [question(correct=[3])]},
            {"quiz": {0: {"correct": ["option indexes go from 0 to 2"]}}},
        ),
        (
            {"quiz": [question(correct=[-1])]},
            {"quiz": {0: {"correct": ["option indexes go from 0 to 2"]}}},
        ),
        (
            {"quiz": [question(correct=[1, 1])]},
            {"quiz": {0: {"correct": ["an option index appears twice"]}}},
        ),
        (
            {"quiz": [question(correct=["1"])]},
            {"quiz": {0: {"correct": {0: ["Not a valid integer."]}}}},
        ),
        (
            {"quiz": [question(correct=[True])]},
            {"quiz": {0: {"correct": {0: ["Not a valid integer."]}}}},
        ),
        (
            {"quiz": [question(correct=None)]},
            {"quiz": {0: {"correct": ["Field may not be null."]}}},
        ),
        (
            {"pass_mark": 101},
            {"pass_mark": ["Must be greater than or equal to 0 and less than or equal to 100."]},
        ),
        (
            {"pass_mark": -1},
            {"pass_mark": ["Must be greater than or equal to 0 and less than or equal to 100."]},
        ),
        ({"pass_mark": "70"}, {"pass_mark": ["Not a valid integer."]}),
        ({"pass_mark": 70.5}, {"pass_mark": ["Not a valid integer."]}),
        ({"level": "easy"}, {"level": ["Unknown field."]}),
    ],
)
def test_every_rule_of_the_document(fields, errors):
    assert first_error(document(**fields)) == errors


def test_lessons_are_required():
    data = document()
    del data["lessons"]
    assert first_error(data) == {"lessons": ["Missing data for required field."]}


def translation(**fields):
    return {
        "title": "السلامة على الطريق",
        "lessons": [
            {"title": "قبل الركوب", "body": "افحص **المكابح**."},
            {"title": "على الطريق", "body": "حافظ على مسافة ثلاث ثوانٍ."},
        ],
        "quiz": [
            {"question": "المسافة؟", "options": ["1 ث", "3 ث", "لا شيء"]},
            {"question": "الفحوص؟", "options": ["الإطارات", "الراديو"], "correct": [0]},
        ],
        **fields,
    }


def fit(data):
    course = CourseDocumentSchema().load(document())
    return translation_mismatch(course, TranslationSchema().load(data))


def test_a_translation_in_the_course_shape_fits_with_or_without_correct_answers():
    assert fit(translation()) is None
    stored = TranslationSchema().load(translation())
    assert "correct" not in stored["quiz"][1]


@pytest.mark.parametrize(
    ("change", "mismatch"),
    [
        ({"lessons": translation()["lessons"][:1]}, ("lessons", "the course has 2 lessons")),
        ({"quiz": translation()["quiz"][:1]}, ("quiz", "the course has 2 questions")),
        (
            {"quiz": [{"question": "?", "options": ["a", "b"]}, translation()["quiz"][1]]},
            ("quiz[0].options", "the question has 3 options"),
        ),
        (
            {
                "quiz": [
                    translation()["quiz"][0],
                    {"question": "?", "options": ["a", "b"], "correct": [1]},
                ]
            },
            ("quiz[1].correct", "must be the course's correct options"),
        ),
    ],
)
def test_a_translation_out_of_the_course_shape_is_named(change, mismatch):
    assert fit(translation(**change)) == mismatch


def test_a_translation_has_the_document_rules_without_pass_mark():
    assert first_error(translation(pass_mark=70), TranslationSchema) == {
        "pass_mark": ["Unknown field."]
    }
    assert first_error(translation(lessons=[]), TranslationSchema) == {
        "lessons": ["Length must be between 1 and 30."]
    }
    assert first_error(
        translation(quiz=[{"question": "?", "options": ["a", "b"], "correct": [2]}]),
        TranslationSchema,
    ) == {"quiz": {0: {"correct": ["option indexes go from 0 to 1"]}}}
