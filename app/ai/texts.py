"""The assistant page's words in the rider's language (docs/rider-app.md: en, ar, ur, ku)."""

from __future__ import annotations

TEXTS = {
    "en": {
        "title": "Assistant",
        "intro": (
            "Ask a question about your work. Answers come from the training team's "
            "documents and your courses."
        ),
        "label": "Your question",
        "ask": "Ask",
        "answer": "Answer",
        "note": "This answer is written by AI and can be wrong.",
        "unconfigured": "The assistant is not available: AI is not configured.",
        "failed": (
            "The answer stopped: the assistant is not available right now. Please try again later."
        ),
        "limit": (
            "You have asked {limit} questions in the last hour. You can ask the next "
            "one in {minutes} minutes."
        ),
        "required": "Write your question.",
        "too_long": "Your question is too long (at most {max} characters).",
        "back": "Back to your training",
        "waiting": "Writing…",
    },
    "ar": {
        "title": "المساعد",
        "intro": "اسأل سؤالاً عن عملك. تأتي الإجابات من مستندات فريق التدريب ومن دوراتك.",
        "label": "سؤالك",
        "ask": "اسأل",
        "answer": "الإجابة",
        "note": "يكتب الذكاء الاصطناعي هذه الإجابة وقد تكون خاطئة.",
        "unconfigured": "المساعد غير متاح: لم يتم إعداد الذكاء الاصطناعي.",
        "failed": "توقفت الإجابة: المساعد غير متاح الآن. يرجى المحاولة لاحقاً.",
        "limit": (
            "لقد طرحت {limit} سؤالاً في الساعة الأخيرة. يمكنك طرح السؤال التالي بعد {minutes} دقيقة."
        ),
        "required": "اكتب سؤالك.",
        "too_long": "سؤالك طويل جداً (الحد الأقصى {max} حرف).",
        "back": "العودة إلى تدريبك",
        "waiting": "جارٍ الكتابة…",
    },
    "ur": {
        "title": "معاون",
        "intro": (
            "اپنے کام کے بارے میں سوال پوچھیں۔ جوابات ٹریننگ ٹیم کی دستاویزات اور آپ کے "
            "کورسز سے آتے ہیں۔"
        ),
        "label": "آپ کا سوال",
        "ask": "پوچھیں",
        "answer": "جواب",
        "note": "یہ جواب AI لکھتا ہے اور غلط ہو سکتا ہے۔",
        "unconfigured": "معاون دستیاب نہیں: AI ترتیب نہیں دیا گیا۔",
        "failed": "جواب رک گیا: معاون اس وقت دستیاب نہیں۔ براہ کرم بعد میں دوبارہ کوشش کریں۔",
        "limit": (
            "آپ نے پچھلے ایک گھنٹے میں {limit} سوال پوچھے ہیں۔ آپ اگلا سوال {minutes} "
            "منٹ بعد پوچھ سکتے ہیں۔"
        ),
        "required": "اپنا سوال لکھیں۔",
        "too_long": "آپ کا سوال بہت لمبا ہے (زیادہ سے زیادہ {max} حروف)۔",
        "back": "اپنی ٹریننگ پر واپس جائیں",
        "waiting": "لکھا جا رہا ہے…",
    },
    "ku": {
        "title": "یاریدەدەر",
        "intro": (
            "پرسیارێک دەربارەی کارەکەت بکە. وەڵامەکان لە بەڵگەنامەکانی تیمی ڕاهێنان و "
            "خولەکانتەوە دێن."
        ),
        "label": "پرسیارەکەت",
        "ask": "بپرسە",
        "answer": "وەڵام",
        "note": "ئەم وەڵامە زیرەکی دەستکرد دەینووسێت و لەوانەیە هەڵە بێت.",
        "unconfigured": "یاریدەدەر بەردەست نییە: زیرەکی دەستکرد ڕێکنەخراوە.",
        "failed": "وەڵامەکە وەستا: یاریدەدەر ئێستا بەردەست نییە. تکایە دواتر هەوڵ بدەرەوە.",
        "limit": (
            "لە یەک کاتژمێری ڕابردوودا {limit} پرسیارت کردووە. دەتوانیت پرسیاری داهاتوو "
            "دوای {minutes} خولەک بکەیت."
        ),
        "required": "پرسیارەکەت بنووسە.",
        "too_long": "پرسیارەکەت زۆر درێژە (زۆرترین {max} پیت).",
        "back": "گەڕانەوە بۆ ڕاهێنانەکەت",
        "waiting": "دەنووسرێت…",
    },
}


def texts(language: str) -> dict[str, str]:
    return TEXTS.get(language, TEXTS["en"])
