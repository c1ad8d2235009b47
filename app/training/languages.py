"""The service's languages, in one table: a rider's language (the rider app speaks it), and
the languages a course is translated into from its English."""

from __future__ import annotations

from typing import NamedTuple


class Language(NamedTuple):
    code: str
    # On the training team's pages.
    name: str
    # In the rider app's language switch: each language in itself.
    own_name: str
    # In the AI provider's prompts, which must also know the script.
    described: str
    right_to_left: bool


TABLE = (
    Language("en", "English", "English", "English", False),
    Language("ar", "Arabic", "العربية", "Arabic", True),
    Language("ur", "Urdu", "اردو", "Urdu", True),
    Language("ku", "Kurdish (Sorani)", "کوردی", "Kurdish (Sorani, in Arabic script)", True),
)

LANGUAGES = tuple(language.code for language in TABLE)
# Courses are written in English and translated into the others.
TRANSLATION_LANGUAGES = LANGUAGES[1:]
RIGHT_TO_LEFT = frozenset(language.code for language in TABLE if language.right_to_left)
NAMES = {language.code: language.name for language in TABLE}
OWN_NAMES = {language.code: language.own_name for language in TABLE}
DESCRIBED = {language.code: language.described for language in TABLE}
