"""Every string of the rider app's interface in its four languages (docs/rider-app.md#languages):
English, Arabic, Urdu and Sorani Kurdish (Arabic script). Course content comes from the course and
its translations, not from here.

Templates call `t("key", name=value)`; a text with `{name}` placeholders is filled with
`str.format`. A text that counts something (`COUNTED_BY`) has a form for each CLDR plural
category of the language (`PLURAL_RULES`), chosen by the count; a form may leave the count
out where the language says it in words (Arabic "يومين", two days).
`tests/rider/test_languages.py` checks that every key has all four languages and the same
placeholders in each (and every plural form of each).
"""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

from app.training.languages import LANGUAGES, OWN_NAMES, RIGHT_TO_LEFT

# CLDR's plural categories of whole numbers in each language: Arabic's "few" (3-10) takes
# the plural, its "many" (11-99) the singular accusative, "other" (100, 101, ...) the singular.
PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "en": lambda n: "one" if n == 1 else "other",
    "ar": lambda n: (
        {0: "zero", 1: "one", 2: "two"}.get(n)
        or ("few" if 3 <= n % 100 <= 10 else "many" if 11 <= n % 100 <= 99 else "other")
    ),
    "ur": lambda n: "one" if n == 1 else "other",
    "ku": lambda n: "one" if n == 1 else "other",
}

# The texts with a form for each plural category, and the value that chooses the form.
COUNTED_BY = {
    "too_many_new_pins": "minutes",
    "due_in_days": "days",
    "overdue_by_days": "days",
    "progress": "total",
    "too_many_attempts": "minutes",
    "too_many_checks": "minutes",
}

TEXTS: dict[str, dict[str, str | dict[str, str]]] = {
    "app_name": {
        "en": "Rider training",
        "ar": "تدريب السائقين",
        "ur": "رائیڈر ٹریننگ",
        "ku": "ڕاهێنانی شۆفێران",
    },
    "language": {
        "en": "Language",
        "ar": "اللغة",
        "ur": "زبان",
        "ku": "زمان",
    },
    "sign_in": {
        "en": "Sign in",
        "ar": "تسجيل الدخول",
        "ur": "سائن ان",
        "ku": "چوونەژوورەوە",
    },
    "sign_in_hint": {
        "en": "Use the rider ID and PIN your training team gave you, or the link in your "
        "training messages.",
        "ar": "استخدم رقم السائق والرمز السري اللذين أعطاك إياهما فريق التدريب، أو الرابط في "
        "رسائل التدريب.",
        "ur": "وہ رائیڈر آئی ڈی اور پن استعمال کریں جو آپ کی ٹریننگ ٹیم نے دیا ہے، یا ٹریننگ "
        "پیغامات میں موجود لنک۔",
        "ku": "ناسنامەی شۆفێر و ژمارەی نهێنی بەکاربهێنە کە تیمی ڕاهێنان پێی داویت، یان "
        "بەستەرەکەی ناو نامەکانی ڕاهێنان.",
    },
    "rider_id": {
        "en": "Rider ID",
        "ar": "رقم السائق",
        "ur": "رائیڈر آئی ڈی",
        "ku": "ناسنامەی شۆفێر",
    },
    "pin": {
        "en": "PIN",
        "ar": "الرمز السري",
        "ur": "پن",
        "ku": "ژمارەی نهێنی",
    },
    "field_required": {
        "en": "This field is required.",
        "ar": "هذا الحقل مطلوب.",
        "ur": "یہ خانہ ضروری ہے۔",
        "ku": "ئەم خانەیە پێویستە.",
    },
    "wrong_credentials": {
        "en": "Wrong rider ID or PIN",
        "ar": "رقم السائق أو الرمز السري غير صحيح",
        "ur": "رائیڈر آئی ڈی یا پن غلط ہے",
        "ku": "ناسنامەی شۆفێر یان ژمارەی نهێنی هەڵەیە",
    },
    "not_active": {
        "en": "Your account is not active",
        "ar": "حسابك غير نشط",
        "ur": "آپ کا اکاؤنٹ فعال نہیں ہے",
        "ku": "هەژمارەکەت چالاک نییە",
    },
    "too_many_attempts": {
        "en": {
            "one": "Too many sign-in attempts. Try again in {minutes} minute.",
            "other": "Too many sign-in attempts. Try again in {minutes} minutes.",
        },
        "ar": {
            "zero": "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد {minutes} دقيقة.",
            "one": "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد دقيقة واحدة.",
            "two": "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد دقيقتين.",
            "few": "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد {minutes} دقائق.",
            "many": "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد {minutes} دقيقةً.",
            "other": "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد {minutes} دقيقة.",
        },
        "ur": {
            "one": "سائن ان کی بہت زیادہ کوششیں۔ {minutes} منٹ بعد دوبارہ کوشش کریں۔",
            "other": "سائن ان کی بہت زیادہ کوششیں۔ {minutes} منٹ بعد دوبارہ کوشش کریں۔",
        },
        "ku": {
            "one": "هەوڵی چوونەژوورەوە زۆر بوون. دوای {minutes} خولەک دووبارە هەوڵ بدەرەوە.",
            "other": "هەوڵی چوونەژوورەوە زۆر بوون. دوای {minutes} خولەک دووبارە هەوڵ بدەرەوە.",
        },
    },
    "sign_in_unavailable": {
        "en": "Sign-in is not available right now",
        "ar": "تسجيل الدخول غير متاح الآن",
        "ur": "سائن ان اس وقت دستیاب نہیں ہے",
        "ku": "چوونەژوورەوە ئێستا بەردەست نییە",
    },
    "forgot_pin_link": {
        "en": "Forgot your PIN?",
        "ar": "نسيت الرمز السري؟",
        "ur": "اپنا پن بھول گئے؟",
        "ku": "ژمارەی نهێنیت لەبیر چووە؟",
    },
    "forgot_pin_title": {
        "en": "Get a new PIN",
        "ar": "الحصول على رمز سري جديد",
        "ur": "نیا پن حاصل کریں",
        "ku": "وەرگرتنی ژمارەی نهێنیی نوێ",
    },
    "forgot_pin_hint": {
        "en": "Enter your rider ID. A new PIN is sent by message to the phone number your "
        "training team has for you.",
        "ar": "أدخل رقم السائق. يُرسل رمز سري جديد في رسالة إلى رقم الهاتف المسجّل لدى فريق التدريب.",
        "ur": "اپنی رائیڈر آئی ڈی درج کریں۔ نیا پن پیغام کے ذریعے اس فون نمبر پر بھیجا جاتا ہے "
        "جو آپ کی ٹریننگ ٹیم کے پاس ہے۔",
        "ku": "ناسنامەی شۆفێر بنووسە. ژمارەی نهێنیی نوێ بە نامە دەنێردرێت بۆ ئەو ژمارە "
        "مۆبایلەی کە لای تیمی ڕاهێنانە.",
    },
    "send_new_pin": {
        "en": "Send a new PIN",
        "ar": "أرسل رمزًا سريًا جديدًا",
        "ur": "نیا پن بھیجیں",
        "ku": "ناردنی ژمارەی نهێنیی نوێ",
    },
    "new_pin_asked": {
        "en": "If this rider ID belongs to an active rider, a new PIN is on its way to their "
        "phone by message. The old PIN keeps working until you sign in with the new one.",
        "ar": "إذا كان رقم السائق هذا لسائق نشط، فإن رمزًا سريًا جديدًا في طريقه إلى هاتفه في "
        "رسالة. يبقى الرمز السري القديم صالحًا حتى تسجّل الدخول بالرمز الجديد.",
        "ur": "اگر یہ رائیڈر آئی ڈی کسی فعال رائیڈر کی ہے تو نیا پن پیغام کے ذریعے اس کے فون پر "
        "بھیجا جا رہا ہے۔ پرانا پن تب تک کام کرتا رہے گا جب تک آپ نئے پن سے سائن ان نہ کریں۔",
        "ku": "ئەگەر ئەم ناسنامەیە هی شۆفێرێکی چالاک بێت، ژمارەی نهێنیی نوێ بە نامە بۆ "
        "مۆبایلەکەی دەنێردرێت. ژمارە نهێنییە کۆنەکە کار دەکات تا بە نوێیەکە دەچیتە ژوورەوە.",
    },
    "new_pin_message": {
        "en": "Rider training: your new PIN is {pin}. It works for 24 hours; your old PIN "
        "works until you sign in with the new one. Sign in: {link}",
        "ar": "تدريب السائقين: رمزك السري الجديد هو {pin}. يبقى صالحًا 24 ساعة، ويبقى رمزك "
        "القديم صالحًا حتى تسجّل الدخول بالرمز الجديد. تسجيل الدخول: {link}",
        "ur": "رائیڈر ٹریننگ: آپ کا نیا پن {pin} ہے۔ یہ 24 گھنٹے کام کرے گا؛ آپ کا پرانا پن "
        "نئے پن سے سائن ان کرنے تک کام کرتا رہے گا۔ سائن ان: {link}",
        "ku": "ڕاهێنانی شۆفێران: ژمارەی نهێنیی نوێت: {pin}. بۆ 24 کاتژمێر کار دەکات؛ ژمارە "
        "کۆنەکەت کار دەکات تا بە نوێیەکە دەچیتە ژوورەوە. چوونەژوورەوە: {link}",
    },
    "back_to_sign_in": {
        "en": "Back to sign-in",
        "ar": "العودة إلى تسجيل الدخول",
        "ur": "سائن ان پر واپس",
        "ku": "گەڕانەوە بۆ چوونەژوورەوە",
    },
    "too_many_new_pins": {
        "en": {
            "one": "Too many requests for a new PIN. Try again in {minutes} minute.",
            "other": "Too many requests for a new PIN. Try again in {minutes} minutes.",
        },
        "ar": {
            "zero": "طلبات كثيرة جدًا لرمز سري جديد. حاول مرة أخرى بعد {minutes} دقيقة.",
            "one": "طلبات كثيرة جدًا لرمز سري جديد. حاول مرة أخرى بعد دقيقة واحدة.",
            "two": "طلبات كثيرة جدًا لرمز سري جديد. حاول مرة أخرى بعد دقيقتين.",
            "few": "طلبات كثيرة جدًا لرمز سري جديد. حاول مرة أخرى بعد {minutes} دقائق.",
            "many": "طلبات كثيرة جدًا لرمز سري جديد. حاول مرة أخرى بعد {minutes} دقيقةً.",
            "other": "طلبات كثيرة جدًا لرمز سري جديد. حاول مرة أخرى بعد {minutes} دقيقة.",
        },
        "ur": {
            "one": "نئے پن کی بہت زیادہ درخواستیں۔ {minutes} منٹ بعد دوبارہ کوشش کریں۔",
            "other": "نئے پن کی بہت زیادہ درخواستیں۔ {minutes} منٹ بعد دوبارہ کوشش کریں۔",
        },
        "ku": {
            "one": "داواکاریی زۆر بۆ ژمارەی نهێنیی نوێ. دوای {minutes} خولەک دووبارە هەوڵ بدەرەوە.",
            "other": "داواکاریی زۆر بۆ ژمارەی نهێنیی نوێ. دوای {minutes} خولەک دووبارە هەوڵ "
            "بدەرەوە.",
        },
    },
    "sign_out": {
        "en": "Sign out",
        "ar": "تسجيل الخروج",
        "ur": "سائن آؤٹ",
        "ku": "چوونەدەرەوە",
    },
    "hello": {
        "en": "Hi {name}",
        "ar": "مرحبًا {name}",
        "ur": "السلام علیکم {name}",
        "ku": "سڵاو {name}",
    },
    "my_training": {
        "en": "My training",
        "ar": "تدريبي",
        "ur": "میری ٹریننگ",
        "ku": "ڕاهێنانەکانم",
    },
    "open_training": {
        "en": "Open training",
        "ar": "التدريب المفتوح",
        "ur": "جاری ٹریننگ",
        "ku": "ڕاهێنانی کراوە",
    },
    "no_open_training": {
        "en": "You have no open training. Well done!",
        "ar": "ليس لديك تدريب مفتوح. أحسنت!",
        "ur": "آپ کی کوئی ٹریننگ باقی نہیں ہے۔ شاباش!",
        "ku": "هیچ ڕاهێنانێکی کراوەت نییە. دەستت خۆش!",
    },
    "due_in_days": {
        "en": {"one": "Due in {days} day", "other": "Due in {days} days"},
        "ar": {
            "zero": "الموعد النهائي بعد {days} يوم",
            "one": "الموعد النهائي بعد يوم واحد",
            "two": "الموعد النهائي بعد يومين",
            "few": "الموعد النهائي بعد {days} أيام",
            "many": "الموعد النهائي بعد {days} يومًا",
            "other": "الموعد النهائي بعد {days} يوم",
        },
        "ur": {"one": "آخری تاریخ {days} دن میں", "other": "آخری تاریخ {days} دن میں"},
        "ku": {"one": "دوا وادە {days} ڕۆژی ماوە", "other": "دوا وادە {days} ڕۆژی ماوە"},
    },
    "due_within_a_day": {
        "en": "Due within a day",
        "ar": "الموعد النهائي خلال يوم",
        "ur": "آخری تاریخ ایک دن کے اندر",
        "ku": "دوا وادە لە ماوەی یەک ڕۆژدا",
    },
    "overdue_by_days": {
        "en": {"one": "Overdue by {days} day", "other": "Overdue by {days} days"},
        "ar": {
            "zero": "متأخر {days} يوم",
            "one": "متأخر يومًا واحدًا",
            "two": "متأخر يومين",
            "few": "متأخر {days} أيام",
            "many": "متأخر {days} يومًا",
            "other": "متأخر {days} يوم",
        },
        "ur": {"one": "{days} دن کی تاخیر", "other": "{days} دن کی تاخیر"},
        "ku": {"one": "{days} ڕۆژ دواکەوتووە", "other": "{days} ڕۆژ دواکەوتووە"},
    },
    "overdue_by_a_day": {
        "en": "Overdue by 1 day",
        "ar": "متأخر يومًا واحدًا",
        "ur": "ایک دن کی تاخیر",
        "ku": "یەک ڕۆژ دواکەوتووە",
    },
    "continue_training": {
        "en": "Continue",
        "ar": "متابعة",
        "ur": "جاری رکھیں",
        "ku": "بەردەوام بە",
    },
    "ask_assistant": {
        "en": "Ask the assistant",
        "ar": "اسأل المساعد",
        "ur": "معاون سے پوچھیں",
        "ku": "پرسیار لە یاریدەدەر بکە",
    },
    "wrong_questions": {
        "en": "Questions answered wrong",
        "ar": "الأسئلة التي أجبت عنها خطأ",
        "ur": "جن سوالات کے جواب غلط تھے",
        "ku": "ئەو پرسیارانەی بە هەڵە وەڵامت داونەتەوە",
    },
    "progress": {
        "en": {
            "one": "{done} of {total} course passed",
            "other": "{done} of {total} courses passed",
        },
        "ar": {
            "zero": "اجتزت {done} من {total} دورة",
            "one": "اجتزت {done} من دورة واحدة",
            "two": "اجتزت {done} من دورتين",
            "few": "اجتزت {done} من {total} دورات",
            "many": "اجتزت {done} من {total} دورةً",
            "other": "اجتزت {done} من {total} دورة",
        },
        "ur": {"one": "{total} میں سے {done} کورس پاس", "other": "{total} میں سے {done} کورس پاس"},
        "ku": {
            "one": "{done} لە {total} خول تێپەڕێنراوە",
            "other": "{done} لە {total} خول تێپەڕێنراوە",
        },
    },
    "finished_training": {
        "en": "Finished training",
        "ar": "التدريب المكتمل",
        "ur": "مکمل ٹریننگ",
        "ku": "ڕاهێنانی تەواوکراو",
    },
    "finished_on": {
        "en": "Finished {date}",
        "ar": "اكتمل في {date}",
        "ur": "{date} کو مکمل",
        "ku": "لە {date} تەواو بوو",
    },
    "passed": {
        "en": "Passed",
        "ar": "ناجح",
        "ur": "پاس",
        "ku": "تێپەڕیوە",
    },
    "not_available": {
        "en": "Not available yet",
        "ar": "غير متاح بعد",
        "ur": "ابھی دستیاب نہیں",
        "ku": "هێشتا بەردەست نییە",
    },
    "machine_translation": {
        "en": "This translation was made by a machine.",
        "ar": "هذه الترجمة آلية.",
        "ur": "یہ ترجمہ مشین نے کیا ہے۔",
        "ku": "ئەم وەرگێڕانە بە ئامێر کراوە.",
    },
    "shown_in_english": {
        "en": "This course is not translated into your language yet, so it is shown in English.",
        "ar": "لم تُترجم هذه الدورة إلى لغتك بعد، لذلك تُعرض باللغة الإنجليزية.",
        "ur": "اس کورس کا ابھی آپ کی زبان میں ترجمہ نہیں ہوا، اس لیے یہ انگریزی میں دکھایا گیا ہے۔",
        "ku": "ئەم خولە هێشتا بۆ زمانەکەت وەرنەگێڕدراوە، بۆیە بە ئینگلیزی پیشان دەدرێت.",
    },
    "no_lessons": {
        "en": "This course has no lessons in the app yet. Your training team will tell you "
        "how to take it.",
        "ar": "لا تحتوي هذه الدورة على دروس في التطبيق بعد. سيخبرك فريق التدريب بكيفية إكمالها.",
        "ur": "اس کورس کے اسباق ابھی ایپ میں نہیں ہیں۔ آپ کی ٹریننگ ٹیم بتائے گی کہ اسے کیسے کریں۔",
        "ku": "ئەم خولە هێشتا وانەی لە ئەپەکەدا نییە. تیمی ڕاهێنان پێت دەڵێت چۆن تەواوی بکەیت.",
    },
    "lessons": {
        "en": "Lessons",
        "ar": "الدروس",
        "ur": "اسباق",
        "ku": "وانەکان",
    },
    "start": {
        "en": "Start the first lesson",
        "ar": "ابدأ الدرس الأول",
        "ur": "پہلا سبق شروع کریں",
        "ku": "یەکەم وانە دەست پێبکە",
    },
    "continue": {
        "en": "Continue with lesson {n}",
        "ar": "تابع الدرس {n}",
        "ur": "سبق {n} جاری رکھیں",
        "ku": "بەردەوام بە لە وانەی {n}",
    },
    "lesson_of": {
        "en": "Lesson {n} of {total}",
        "ar": "الدرس {n} من {total}",
        "ur": "سبق {n} از {total}",
        "ku": "وانەی {n} لە {total}",
    },
    "previous": {
        "en": "Previous",
        "ar": "السابق",
        "ur": "پچھلا",
        "ku": "پێشوو",
    },
    "next": {
        "en": "Next",
        "ar": "التالي",
        "ur": "اگلا",
        "ku": "دواتر",
    },
    "back_to_course": {
        "en": "Back to the course",
        "ar": "العودة إلى الدورة",
        "ur": "کورس پر واپس",
        "ku": "گەڕانەوە بۆ خولەکە",
    },
    "back_to_training": {
        "en": "Back to my training",
        "ar": "العودة إلى تدريبي",
        "ur": "میری ٹریننگ پر واپس",
        "ku": "گەڕانەوە بۆ ڕاهێنانەکانم",
    },
    "quiz": {
        "en": "Quiz",
        "ar": "الاختبار",
        "ur": "کوئز",
        "ku": "تاقیکردنەوە",
    },
    "take_quiz": {
        "en": "Take the quiz",
        "ar": "ابدأ الاختبار",
        "ur": "کوئز دیں",
        "ku": "تاقیکردنەوەکە بکە",
    },
    "pass_mark": {
        "en": "Pass mark: {mark}%",
        "ar": "درجة النجاح: {mark}%",
        "ur": "پاس ہونے کے نمبر: {mark}%",
        "ku": "نمرەی دەرچوون: {mark}%",
    },
    "attempts": {
        "en": "Attempts: {count}",
        "ar": "المحاولات: {count}",
        "ur": "کوششیں: {count}",
        "ku": "هەوڵەکان: {count}",
    },
    "best_score": {
        "en": "Best score: {score}%",
        "ar": "أفضل نتيجة: {score}%",
        "ur": "بہترین اسکور: {score}%",
        "ku": "باشترین نمرە: {score}%",
    },
    "question_of": {
        "en": "Question {n} of {total}",
        "ar": "السؤال {n} من {total}",
        "ur": "سوال {n} از {total}",
        "ku": "پرسیاری {n} لە {total}",
    },
    "choose_one": {
        "en": "Choose one answer.",
        "ar": "اختر إجابة واحدة.",
        "ur": "ایک جواب چنیں۔",
        "ku": "یەک وەڵام هەڵبژێرە.",
    },
    "choose_all": {
        "en": "Choose every right answer.",
        "ar": "اختر كل الإجابات الصحيحة.",
        "ur": "تمام درست جوابات چنیں۔",
        "ku": "هەموو وەڵامە ڕاستەکان هەڵبژێرە.",
    },
    "answer_required": {
        "en": "Choose an answer.",
        "ar": "اختر إجابة.",
        "ur": "ایک جواب چنیں۔",
        "ku": "وەڵامێک هەڵبژێرە.",
    },
    "answer_invalid": {
        "en": "Choose one of the answers shown.",
        "ar": "اختر إحدى الإجابات المعروضة.",
        "ur": "دکھائے گئے جوابات میں سے ایک چنیں۔",
        "ku": "یەکێک لە وەڵامە پیشاندراوەکان هەڵبژێرە.",
    },
    "quiz_mismatch": {
        "en": "These answers do not fit this quiz. Please answer the questions below.",
        "ar": "هذه الإجابات لا تناسب هذا الاختبار. يرجى الإجابة عن الأسئلة أدناه.",
        "ur": "یہ جوابات اس کوئز کے مطابق نہیں ہیں۔ براہ کرم نیچے دیے گئے سوالات کے جواب دیں۔",
        "ku": "ئەم وەڵامانە لەگەڵ ئەم تاقیکردنەوەیە ناگونجێن. تکایە وەڵامی پرسیارەکانی خوارەوە "
        "بدەرەوە.",
    },
    "submit_answers": {
        "en": "Submit answers",
        "ar": "إرسال الإجابات",
        "ur": "جوابات جمع کریں",
        "ku": "ناردنی وەڵامەکان",
    },
    "your_score": {
        "en": "Your score: {score}%",
        "ar": "نتيجتك: {score}%",
        "ur": "آپ کا اسکور: {score}%",
        "ku": "نمرەکەت: {score}%",
    },
    "quiz_passed": {
        "en": "You passed!",
        "ar": "لقد نجحت!",
        "ur": "آپ پاس ہو گئے!",
        "ku": "دەرچوویت!",
    },
    "quiz_failed": {
        "en": "Not passed yet. Read the lessons again and retake the quiz.",
        "ar": "لم تنجح بعد. اقرأ الدروس مرة أخرى وأعد الاختبار.",
        "ur": "ابھی پاس نہیں ہوئے۔ اسباق دوبارہ پڑھیں اور کوئز دوبارہ دیں۔",
        "ku": "هێشتا دەرنەچوویت. وانەکان دووبارە بخوێنەرەوە و تاقیکردنەوەکە دووبارە بکەرەوە.",
    },
    "retake_quiz": {
        "en": "Retake the quiz",
        "ar": "أعد الاختبار",
        "ur": "کوئز دوبارہ دیں",
        "ku": "تاقیکردنەوەکە دووبارە بکەرەوە",
    },
    "complete_course": {
        "en": "Complete the course",
        "ar": "أكمل الدورة",
        "ur": "کورس مکمل کریں",
        "ku": "خولەکە تەواو بکە",
    },
    "open_every_lesson": {
        "en": "Open every lesson first, up to the last one.",
        "ar": "افتح كل الدروس أولًا حتى آخر درس.",
        "ur": "پہلے آخری سبق تک تمام اسباق کھولیں۔",
        "ku": "سەرەتا هەموو وانەکان تا دوایین وانە بکەرەوە.",
    },
    "course_completed": {
        "en": "Course completed",
        "ar": "اكتملت الدورة",
        "ur": "کورس مکمل ہو گیا",
        "ku": "خولەکە تەواو بوو",
    },
    "view_proof": {
        "en": "View your proof of completion",
        "ar": "اعرض شهادة الإتمام",
        "ur": "تکمیل کا ثبوت دیکھیں",
        "ku": "بەڵگەی تەواوکردن ببینە",
    },
    "proof_title": {
        "en": "Proof of completion",
        "ar": "شهادة إتمام",
        "ur": "تکمیل کا ثبوت",
        "ku": "بەڵگەی تەواوکردن",
    },
    "course": {
        "en": "Course",
        "ar": "الدورة",
        "ur": "کورس",
        "ku": "خول",
    },
    "rider": {
        "en": "Rider",
        "ar": "السائق",
        "ur": "رائیڈر",
        "ku": "شۆفێر",
    },
    "completed_on": {
        "en": "Completed on",
        "ar": "تاريخ الإتمام",
        "ur": "تکمیل کی تاریخ",
        "ku": "ڕێکەوتی تەواوکردن",
    },
    "proof_code": {
        "en": "Proof code",
        "ar": "رمز التحقق",
        "ur": "تصدیقی کوڈ",
        "ku": "کۆدی بەڵگە",
    },
    "score": {
        "en": "Score",
        "ar": "النتيجة",
        "ur": "اسکور",
        "ku": "نمرە",
    },
    "anyone_can_check": {
        "en": "Anyone can check this proof at:",
        "ar": "يمكن لأي شخص التحقق من هذه الشهادة على:",
        "ur": "کوئی بھی اس ثبوت کی تصدیق یہاں کر سکتا ہے:",
        "ku": "هەر کەسێک دەتوانێت ئەم بەڵگەیە لێرە بپشکنێت:",
    },
    "verify_title": {
        "en": "Check a proof of completion",
        "ar": "التحقق من شهادة إتمام",
        "ur": "تکمیل کے ثبوت کی تصدیق",
        "ku": "پشکنینی بەڵگەی تەواوکردن",
    },
    "verify_valid": {
        "en": "Valid: this course was completed.",
        "ar": "صالحة: تم إتمام هذه الدورة.",
        "ur": "درست: یہ کورس مکمل کیا گیا۔",
        "ku": "دروستە: ئەم خولە تەواو کراوە.",
    },
    "verify_unknown": {
        "en": "Not valid: no proof of completion has this code.",
        "ar": "غير صالحة: لا توجد شهادة إتمام بهذا الرمز.",
        "ur": "غلط: اس کوڈ کا کوئی تکمیلی ثبوت نہیں ہے۔",
        "ku": "نادروستە: هیچ بەڵگەیەکی تەواوکردن ئەم کۆدەی نییە.",
    },
    "too_many_checks": {
        "en": {
            "one": "Too many checks from your network. Try again in {minutes} minute.",
            "other": "Too many checks from your network. Try again in {minutes} minutes.",
        },
        "ar": {
            "zero": "عمليات تحقق كثيرة جدًا من شبكتك. حاول مرة أخرى بعد {minutes} دقيقة.",
            "one": "عمليات تحقق كثيرة جدًا من شبكتك. حاول مرة أخرى بعد دقيقة واحدة.",
            "two": "عمليات تحقق كثيرة جدًا من شبكتك. حاول مرة أخرى بعد دقيقتين.",
            "few": "عمليات تحقق كثيرة جدًا من شبكتك. حاول مرة أخرى بعد {minutes} دقائق.",
            "many": "عمليات تحقق كثيرة جدًا من شبكتك. حاول مرة أخرى بعد {minutes} دقيقةً.",
            "other": "عمليات تحقق كثيرة جدًا من شبكتك. حاول مرة أخرى بعد {minutes} دقيقة.",
        },
        "ur": {
            "one": "آپ کے نیٹ ورک سے بہت زیادہ تصدیقیں۔ {minutes} منٹ بعد دوبارہ کوشش کریں۔",
            "other": "آپ کے نیٹ ورک سے بہت زیادہ تصدیقیں۔ {minutes} منٹ بعد دوبارہ کوشش کریں۔",
        },
        "ku": {
            "one": "پشکنینی زۆر لە تۆڕەکەتەوە. دوای {minutes} خولەک دووبارە هەوڵ بدەرەوە.",
            "other": "پشکنینی زۆر لە تۆڕەکەتەوە. دوای {minutes} خولەک دووبارە هەوڵ بدەرەوە.",
        },
    },
    "offline_line": {
        "en": "You are offline: this is the copy kept on this phone.",
        "ar": "أنت غير متصل: هذه هي النسخة المحفوظة على هذا الهاتف.",
        "ur": "آپ آف لائن ہیں: یہ اس فون پر محفوظ کاپی ہے۔",
        "ku": "ئۆفلاینیت: ئەمە ئەو کۆپییەیە کە لەسەر ئەم مۆبایلە هەڵگیراوە.",
    },
    "offline_title": {
        "en": "You are offline",
        "ar": "أنت غير متصل",
        "ur": "آپ آف لائن ہیں",
        "ku": "ئۆفلاینیت",
    },
    "offline_not_kept": {
        "en": "This page is not kept on this phone. Your open training is kept each time you "
        "open My training online.",
        "ar": "هذه الصفحة غير محفوظة على هذا الهاتف. يُحفظ تدريبك المفتوح كلما فتحت تدريبي "
        "وأنت متصل.",
        "ur": "یہ صفحہ اس فون پر محفوظ نہیں ہے۔ جب بھی آپ آن لائن میری ٹریننگ کھولتے ہیں، آپ کی "
        "جاری ٹریننگ محفوظ ہو جاتی ہے۔",
        "ku": "ئەم پەڕەیە لەسەر ئەم مۆبایلە هەڵنەگیراوە. ڕاهێنانە کراوەکانت هەڵدەگیرێن هەر "
        "جارێک بە ئۆنلاین ڕاهێنانەکانم بکەیتەوە.",
    },
    "answers_saved_title": {
        "en": "Answers saved",
        "ar": "تم حفظ الإجابات",
        "ur": "جوابات محفوظ ہو گئے",
        "ku": "وەڵامەکان هەڵگیران",
    },
    "answers_saved": {
        "en": "Your answers are saved on this phone and will be sent when you are online.",
        "ar": "تم حفظ إجاباتك على هذا الهاتف وسيتم إرسالها عندما تكون متصلًا.",
        "ur": "آپ کے جوابات اس فون پر محفوظ ہیں اور آن لائن ہوتے ہی بھیج دیے جائیں گے۔",
        "ku": "وەڵامەکانت لەسەر ئەم مۆبایلە هەڵگیران و کاتێک ئۆنلاین بوویت دەنێردرێن.",
    },
    "answers_waiting": {
        "en": "Answers waiting to be sent: {count}",
        "ar": "إجابات تنتظر الإرسال: {count}",
        "ur": "بھیجے جانے کے منتظر جوابات: {count}",
        "ku": "وەڵامی چاوەڕێی ناردن: {count}",
    },
    "answers_sent": {
        "en": "Your answers were sent.",
        "ar": "تم إرسال إجاباتك.",
        "ur": "آپ کے جوابات بھیج دیے گئے۔",
        "ku": "وەڵامەکانت نێردران.",
    },
    "answers_sign_in": {
        "en": "Answers kept on this phone: {count}. Sign in to send them.",
        "ar": "إجابات محفوظة على هذا الهاتف: {count}. سجّل الدخول لإرسالها.",
        "ur": "اس فون پر محفوظ جوابات: {count}۔ انہیں بھیجنے کے لیے سائن ان کریں۔",
        "ku": "وەڵامی هەڵگیراو لەسەر ئەم مۆبایلە: {count}. بچۆ ژوورەوە بۆ ناردنیان.",
    },
    "answers_not_yours_title": {
        "en": "Answers of another rider",
        "ar": "إجابات سائق آخر",
        "ur": "کسی دوسرے رائیڈر کے جوابات",
        "ku": "وەڵامی شۆفێرێکی تر",
    },
    "answers_not_yours": {
        "en": "These answers were given on this phone by another rider, so they were not "
        "counted for you.",
        "ar": "هذه الإجابات أعطاها سائق آخر على هذا الهاتف، لذلك لم تُحتسب لك.",
        "ur": "یہ جوابات اس فون پر کسی دوسرے رائیڈر نے دیے تھے، اس لیے انہیں آپ کے لیے شمار "
        "نہیں کیا گیا۔",
        "ku": "ئەم وەڵامانە شۆفێرێکی تر لەسەر ئەم مۆبایلە دای، بۆیە بۆ تۆ هەژمار نەکران.",
    },
    "sign_out_unsent": {
        "en": "Answers not sent yet: {count}. They stay on this phone and are sent the next "
        "time you sign in here. Sign out anyway?",
        "ar": "إجابات لم تُرسل بعد: {count}. ستبقى على هذا الهاتف وتُرسل عند تسجيل دخولك هنا "
        "في المرة القادمة. هل تريد تسجيل الخروج على أي حال؟",
        "ur": "ابھی نہ بھیجے گئے جوابات: {count}۔ یہ اس فون پر رہیں گے اور اگلی بار یہاں سائن "
        "ان کرنے پر بھیجے جائیں گے۔ پھر بھی سائن آؤٹ کریں؟",
        "ku": "وەڵامی نەنێردراو: {count}. لەسەر ئەم مۆبایلە دەمێننەوە و جاری داهاتوو کە لێرە "
        "چوویتە ژوورەوە دەنێردرێن. هەر دەتەوێت بچیتە دەرەوە؟",
    },
}


def translator(language: str) -> Callable[..., str]:
    """`t(key, **values)` in `language` (English for a language the app does not have)."""
    chosen = language if language in LANGUAGES else "en"

    def t(key: str, **values: object) -> str:
        text = TEXTS[key][chosen]
        if key in COUNTED_BY:
            text = text[PLURAL_RULES[chosen](int(values[COUNTED_BY[key]]))]
        if any(isinstance(value, Markup) for value in values.values()):
            return escape(text).format(**values)  # escapes the values that are no markup
        return text.format(**values) if values else text

    return t


def isolated(text: str) -> Markup:
    """A name inside a sentence, isolated (`<bdi>`): its direction is its own (a Latin name in
    an Arabic sentence, an Arabic name in an English one) and leaves the sentence's alone."""
    return Markup("<bdi>{}</bdi>").format(text)


def page_language(language: str) -> dict:
    """What every rider page's template needs for its language: `lang`, `dir`, `t`, and the
    languages of the switch."""
    chosen = language if language in LANGUAGES else "en"
    return {
        "lang": chosen,
        "dir": "rtl" if chosen in RIGHT_TO_LEFT else "ltr",
        "t": translator(chosen),
        "bdi": isolated,
        "languages": OWN_NAMES,
    }
