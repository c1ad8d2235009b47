"""Four languages: the catalogue is complete, pages are right-to-left for ar/ur/ku, the
rider's language by default, `?lang=` switches and is remembered, and course content comes
from its translation when there is one."""

import re
import string

import pytest

from app.rider.texts import COUNTED_BY, PLURAL_RULES, TEXTS, translator
from app.training.languages import LANGUAGES
from tests.rider.rows import (
    RIGHT,
    add_rider,
    add_translation,
    course_for,
    form,
    sign_in,
    signed_in,
)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(set(TEXTS) - set(COUNTED_BY)))
def test_every_string_exists_in_the_four_languages_with_the_same_placeholders(key):
    assert set(TEXTS[key]) == set(LANGUAGES)
    english = _fields(TEXTS[key]["en"])
    for language in LANGUAGES:
        assert TEXTS[key][language].strip(), language
        assert _fields(TEXTS[key][language]) == english, language


# Each language's categories of 0, 1, 2, 3, 11 and 100 (CLDR): Arabic's 3-10 are "few",
# 11-99 "many", 100 "other"; English, Urdu and Sorani tell one from the rest.
CATEGORIES = {
    "en": ["other", "one", "other", "other", "other", "other"],
    "ar": ["zero", "one", "two", "few", "many", "other"],
    "ur": ["other", "one", "other", "other", "other", "other"],
    "ku": ["other", "one", "other", "other", "other", "other"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_plural_rules_of_the_four_languages(language):
    counts = [0, 1, 2, 3, 11, 100]
    assert [PLURAL_RULES[language](n) for n in counts] == CATEGORIES[language]
    assert PLURAL_RULES["ar"](103) == "few" and PLURAL_RULES["ar"](111) == "many"


@pytest.mark.parametrize("key", COUNTED_BY)
def test_every_counted_string_has_each_plural_form_of_each_language(key):
    assert set(TEXTS[key]) == set(LANGUAGES)
    english = _fields(TEXTS[key]["en"]["other"])
    assert COUNTED_BY[key] in english
    for language in LANGUAGES:
        forms = TEXTS[key][language]
        assert set(forms) == set(CATEGORIES[language]), language
        # A form may say its count in words (Arabic "two days"), never with another value.
        assert all(_fields(text) <= english for text in forms.values()), language
        assert _fields(forms["other"]) == english, language


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        (
            "en",
            [
                "0 of 0 courses",
                "0 of 1 course passed",
                "0 of 2 courses",
                "0 of 3 courses",
                "0 of 11 courses",
                "0 of 100 courses",
            ],
        ),
        (
            "ar",
            ["من 0 دورة", "من دورة واحدة", "من دورتين", "من 3 دورات", "من 11 دورةً", "من 100 دورة"],
        ),
        (
            "ur",
            [
                "0 میں سے 0 کورس",
                "1 میں سے 0 کورس",
                "2 میں سے 0 کورس",
                "3 میں سے 0 کورس",
                "11 میں سے 0 کورس",
                "100 میں سے 0 کورس",
            ],
        ),
        (
            "ku",
            ["0 لە 0 خول", "0 لە 1 خول", "0 لە 2 خول", "0 لە 3 خول", "0 لە 11 خول", "0 لە 100 خول"],
        ),
    ],
)
def test_the_progress_line_counts_courses_in_each_language(language, shown):
    t = translator(language)
    for total, text in zip([0, 1, 2, 3, 11, 100], shown, strict=True):
        assert text in t("progress", done=0, total=total), (language, total)


def _html_tag(page: str) -> str:
    return re.search(r"<html[^>]*>", page).group(0)


async def test_the_riders_own_language_is_the_default(client):
    await add_rider(client, language="ar")
    rider = await signed_in(client)
    page = await (await rider.get("/training")).text()
    assert _html_tag(page) == '<html lang="ar" dir="rtl">'
    assert "تدريبي" in page and "تسجيل الخروج" in page


@pytest.mark.parametrize(
    ("language", "direction", "text"),
    [
        ("en", "ltr", "Sign out"),
        ("ar", "rtl", "تسجيل الخروج"),
        ("ur", "rtl", "سائن آؤٹ"),
        ("ku", "rtl", "چوونەدەرەوە"),
    ],
)
async def test_lang_switches_and_is_remembered(client, language, direction, text):
    await add_rider(client)
    rider = await signed_in(client)
    switched = await (await rider.get(f"/training?lang={language}")).text()
    assert _html_tag(switched) == f'<html lang="{language}" dir="{direction}">'
    assert text in switched
    later = await (await rider.get("/training")).text()
    assert _html_tag(later) == f'<html lang="{language}" dir="{direction}">'
    ignored = await (await rider.get("/training?lang=fr")).text()
    assert _html_tag(ignored) == f'<html lang="{language}" dir="{direction}">'


async def test_the_sign_in_page_in_kurdish_signs_in_in_kurdish(client):
    await add_rider(client)
    page = await (await client.get("/?lang=ku")).text()
    assert _html_tag(page) == '<html lang="ku" dir="rtl">'
    assert "ناسنامەی شۆفێر" in page and 'name="lang" value="ku"' in page
    response = await sign_in(client, pin="0000", lang="ku")
    assert response.status == 401
    assert "ناسنامەی شۆفێر یان ژمارەی نهێنی هەڵەیە" in await response.text()
    await sign_in(client, lang="ku")
    training = await (await client.get("/training")).text()
    assert _html_tag(training) == '<html lang="ku" dir="rtl">'


async def test_course_content_comes_from_the_translation_marked_machine_made(client, db):
    await add_rider(client, language="ar")
    course_id = await course_for(db)
    await add_translation(db, course_id, "ar")
    rider = await signed_in(client)
    page = await (await rider.get(f"/training/courses/{course_id}")).text()
    assert "سلامة الغذاء" in page and "الدرس 1" in page
    assert "هذه الترجمة آلية." in page
    quiz = await (await rider.get(f"/training/courses/{course_id}/quiz")).text()
    assert "سؤال 0" in quiz and "خيار 1" in quiz
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert await db.fetchval("SELECT language FROM course_results") == "ar"
    # Urdu has no translation: the interface is in Urdu, the course in English.
    page = await (await rider.get(f"/training/courses/{course_id}?lang=ur")).text()
    assert "Food safety" in page and "اسباق" in page
    assert "مشین" not in page
    # The language of the first pass stays on the record.
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert await db.fetchval("SELECT language FROM course_results") == "ar"


async def test_a_translation_that_no_longer_fits_is_shown_and_recorded_in_english(client, db):
    await add_rider(client, language="ar")
    course_id = await course_for(db)
    await add_translation(db, course_id, "ar")
    # The course got a third lesson after it was translated.
    await db.execute(
        "UPDATE courses SET content = jsonb_set(content, '{lessons}', content -> 'lessons'"
        ' || \'[{"title": "Lesson 3", "body": "New."}]\') WHERE course_id = $1',
        course_id,
    )
    rider = await signed_in(client)
    page = await (await rider.get(f"/training/courses/{course_id}/lessons/3")).text()
    assert "Lesson 3" in page and "Food safety" in page and "سلامة الغذاء" not in page
    assert await db.fetchval("SELECT language FROM course_results") == "en"


async def test_a_reviewed_translation_is_not_marked_machine_made(client, db):
    await add_rider(client, language="ar")
    course_id = await course_for(db)
    await add_translation(db, course_id, "ar", state="reviewed")
    rider = await signed_in(client)
    page = await (await rider.get(f"/training/courses/{course_id}/lessons/1")).text()
    assert "نص الدرس 1" in page and "هذه الترجمة آلية." not in page


def _marked_english(page: str) -> list[str]:
    """The texts of the elements inside the page marked English and left-to-right."""
    body = page[page.index("<body") :]
    return re.findall(r'<(\w+)[^>]* lang="en" dir="ltr">\s*(.*?)\s*</\1>', body, re.S)


async def test_an_untranslated_course_in_an_arabic_page_is_marked_english(client, db):
    await add_rider(client, language="ar")
    course_id = await course_for(db)
    rider = await signed_in(client)
    training = await (await rider.get("/training")).text()
    assert ("a", "Food safety") in _marked_english(training)
    # The path's title has no translation: English inside the Arabic page, marked so.
    assert ("span", "Starter") in _marked_english(training)
    page = await (await rider.get(f"/training/courses/{course_id}")).text()
    assert _html_tag(page) == '<html lang="ar" dir="rtl">'
    marked = _marked_english(page)
    assert ("h1", "Food safety") in marked
    assert any(tag == "ol" and "Lesson 1" in text for tag, text in marked)
    assert "لم تُترجم هذه الدورة إلى لغتك بعد، لذلك تُعرض باللغة الإنجليزية." in page
    assert "هذه الترجمة آلية." not in page
    # The interface around it stays Arabic and unmarked.
    assert "تسجيل الخروج" not in "".join(text for _, text in marked)
    lesson = await (await rider.get(f"/training/courses/{course_id}/lessons/1")).text()
    assert any(tag == "article" and "lesson 1" in text for tag, text in _marked_english(lesson))
    quiz = await (await rider.get(f"/training/courses/{course_id}/quiz")).text()
    assert ("span", "Helmet") in _marked_english(quiz)
    # The same course in Urdu says so in Urdu; in English nothing is marked.
    urdu = await (await rider.get(f"/training/courses/{course_id}?lang=ur")).text()
    assert "اس لیے یہ انگریزی میں دکھایا گیا ہے" in urdu
    english = await (await rider.get(f"/training/courses/{course_id}?lang=en")).text()
    assert not _marked_english(english) and "shown in English" not in english


async def test_a_translated_course_is_not_marked_english(client, db):
    await add_rider(client, language="ar")
    course_id = await course_for(db)
    await add_translation(db, course_id, "ar")
    rider = await signed_in(client)
    for path in (
        "/training",
        f"/training/courses/{course_id}",
        f"/training/courses/{course_id}/quiz",
    ):
        page = await (await rider.get(path)).text()
        # Only the path's title (paths have no translations) is English.
        assert _marked_english(page) == ([("span", "Starter")] if path == "/training" else []), path
