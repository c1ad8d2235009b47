"""The demo courses' content: section 10's course documents, with an Arabic translation of the
first one (a `machine` translation, as the AI would leave it for review)."""

from __future__ import annotations


def _q(question: str, options: list[str], *correct: int) -> dict:
    return {"question": question, "options": options, "correct": list(correct)}


FOOD_SAFETY = {
    "title": "Food safety basics",
    "lessons": [
        {
            "title": "Keep food safe from pickup to door",
            "body": """\
Every order you carry is somebody's meal. Germs grow fastest between **5 °C and 60 °C**, so
the goal is simple: keep hot food hot, cold food cold, and keep everything closed.

- Check that bags are **sealed** before you leave the restaurant. If a seal is broken, ask the
  restaurant to repack the order; never open a bag yourself.
- Carry hot and cold items in **separate compartments** of your insulated bag.
- Go straight to the customer. Personal stops with food in the bag are not allowed.

If an order is spilled or damaged, do not deliver it: report it in the app so the customer
gets a replacement.""",
        },
        {
            "title": "Clean hands, clean bag",
            "body": """\
Your hands and your bag touch every order.

1. Wash your hands with soap for **20 seconds** at the start of a shift, after using the
   toilet, after eating and after handling cash. Keep hand sanitiser with you for the rest.
2. Wipe the inside of your delivery bag **every day** with a food-safe cleaner, and at once
   after any spill.
3. Never put helmets, raincoats or personal items in the food compartment.

If you feel ill (fever, vomiting, diarrhoea), do not work with food: tell your fleet manager.""",
        },
    ],
    "quiz": [
        _q(
            "In which temperature range do germs grow fastest?",
            ["Below 0 °C", "Between 5 °C and 60 °C", "Above 75 °C"],
            1,
        ),
        _q(
            "A bag's seal is broken when you pick it up. What do you do?",
            [
                "Tape it closed yourself",
                "Ask the restaurant to repack it",
                "Deliver it and tell the customer",
            ],
            1,
        ),
        _q(
            "When must you wash your hands? (choose all that apply)",
            [
                "At the start of a shift",
                "After handling cash",
                "After using the toilet",
                "Only when they look dirty",
            ],
            0,
            1,
            2,
        ),
        _q(
            "How often should you clean the inside of your delivery bag?",
            ["Once a month", "Every day, and at once after a spill", "Only when it smells"],
            1,
        ),
    ],
    "pass_mark": 75,
}

FOOD_SAFETY_AR = {
    "title": "أساسيات سلامة الغذاء",
    "lessons": [
        {
            "title": "حافظ على سلامة الطعام من الاستلام حتى الباب",
            "body": """\
كل طلب تحمله هو وجبة شخص ما. تنمو الجراثيم بأسرع ما يمكن بين **5 و60 درجة مئوية**، لذلك
الهدف بسيط: حافظ على الطعام الساخن ساخناً والبارد بارداً، وأبقِ كل شيء مغلقاً.

- تأكد من أن الأكياس **مختومة** قبل مغادرة المطعم. إذا كان الختم مكسوراً فاطلب من المطعم
  إعادة تغليف الطلب؛ لا تفتح كيساً بنفسك أبداً.
- احمل الأطعمة الساخنة والباردة في **أقسام منفصلة** من حقيبتك المعزولة.
- اذهب مباشرة إلى العميل. لا يُسمح بالتوقفات الشخصية والطعام في الحقيبة.

إذا انسكب الطلب أو تلف فلا تسلّمه: أبلغ عنه في التطبيق ليحصل العميل على بديل.""",
        },
        {
            "title": "يدان نظيفتان وحقيبة نظيفة",
            "body": """\
يداك وحقيبتك تلمسان كل طلب.

1. اغسل يديك بالصابون لمدة **20 ثانية** في بداية الوردية، وبعد استخدام المرحاض، وبعد الأكل،
   وبعد التعامل مع النقود. واحمل معك معقّم اليدين لبقية الوقت.
2. امسح داخل حقيبة التوصيل **كل يوم** بمنظّف آمن للطعام، وفوراً بعد أي انسكاب.
3. لا تضع الخوذة أو معطف المطر أو أغراضك الشخصية في قسم الطعام.

إذا شعرت بالمرض (حمى أو قيء أو إسهال) فلا تعمل مع الطعام: أخبر مدير الأسطول.""",
        },
    ],
    "quiz": [
        {
            "question": "في أي نطاق حرارة تنمو الجراثيم بأسرع ما يمكن؟",
            "options": ["تحت 0 درجة مئوية", "بين 5 و60 درجة مئوية", "فوق 75 درجة مئوية"],
        },
        {
            "question": "ختم الكيس مكسور عند استلامه. ماذا تفعل؟",
            "options": [
                "أغلقه بشريط لاصق بنفسك",
                "أطلب من المطعم إعادة تغليفه",
                "أسلّمه وأخبر العميل",
            ],
        },
        {
            "question": "متى يجب أن تغسل يديك؟ (اختر كل ما ينطبق)",
            "options": [
                "في بداية الوردية",
                "بعد التعامل مع النقود",
                "بعد استخدام المرحاض",
                "فقط عندما تبدوان متسختين",
            ],
        },
        {
            "question": "كم مرة يجب أن تنظف داخل حقيبة التوصيل؟",
            "options": ["مرة في الشهر", "كل يوم، وفوراً بعد أي انسكاب", "فقط عندما تفوح منها رائحة"],
        },
    ],
}

SAFE_RIDING = {
    "title": "Safe riding in traffic",
    "lessons": [
        {
            "title": "Before you ride",
            "body": """\
A two-minute check before every shift prevents most breakdowns and many crashes.

- **Tyres**: no cuts, enough tread, pressure as marked on the bike.
- **Brakes**: both brakes stop the bike firmly at walking speed.
- **Lights and indicators**: all working, lens clean.
- **Helmet**: fastened every ride, visor clean, no cracks. A helmet that took a hit must be
  replaced, even if it looks fine.

Wear bright or reflective clothing, and never ride tired: a short break is faster than an
accident.""",
        },
        {
            "title": "On the road",
            "body": """\
Drivers often do not see riders. Ride as if you are invisible.

- Keep **three seconds** of distance to the vehicle in front; double it in rain or sand.
- Stay out of blind spots of trucks and buses: if you cannot see the driver in their mirror,
  they cannot see you.
- **Never use your phone while moving.** Stop in a safe place to read an order or the map.
- Obey every signal and speed limit. No delivery is worth a red light.

Lane splitting between moving cars is the most common cause of rider crashes: wait in line.""",
        },
    ],
    "quiz": [
        _q(
            "What distance should you keep to the vehicle in front in dry weather?",
            ["One second", "Three seconds", "As close as traffic allows"],
            1,
        ),
        _q(
            "Your helmet fell on the road but looks fine. What do you do?",
            ["Keep using it", "Replace it", "Tape over the scratches"],
            1,
        ),
        _q(
            "You need to check the next address. When may you use the phone?",
            ["At a red light", "While riding slowly", "Only when stopped in a safe place"],
            2,
        ),
        _q(
            "Which checks belong to the pre-ride check? (choose all that apply)",
            ["Tyres", "Brakes", "Lights", "Radio volume"],
            0,
            1,
            2,
        ),
    ],
    "pass_mark": 75,
}

CUSTOMER_SERVICE = {
    "title": "Customer service at the door",
    "lessons": [
        {
            "title": "The handover",
            "body": """\
The handover is the only moment most customers meet us. Make it count.

1. **Greet** the customer by name and smile.
2. **Check** the order number with them before you hand it over.
3. **Hand over** the bag upright, with both hands.
4. **Thank** them and wish them a good meal.

Respect the customer's instructions: "leave at the door", "do not ring" and building rules
come first. Never enter a home, even if invited.""",
        },
        {
            "title": "When something goes wrong",
            "body": """\
Late, missing items, a spilled drink: problems happen. How you handle them matters more.

- **Stay calm and polite**, even if the customer is not.
- **Apologise** for the trouble without blaming the restaurant or the customer.
- **Do not promise** refunds or discounts yourself: open the order's help screen in the app so
  support can resolve it.
- If you feel unsafe, leave and report it in the app. Your safety comes first.""",
        },
    ],
    "quiz": [
        _q(
            "What should you check before handing over the order?",
            ["The customer's ID card", "The order number", "The payment receipt"],
            1,
        ),
        _q(
            "A customer complains that a drink is missing. What do you do?",
            [
                "Promise a refund",
                "Apologise and open the order's help screen in the app",
                "Tell them it is the restaurant's fault",
            ],
            1,
        ),
        _q(
            "The customer invites you inside to wait. What do you do?",
            ["Go in", "Politely stay at the door", "Leave the order on the floor inside"],
            1,
        ),
    ],
    "pass_mark": 70,
}

CASH_AND_CARDS = {
    "title": "Handling cash and cards",
    "lessons": [
        {
            "title": "Cash orders",
            "body": """\
- Check the amount due in the app before you knock, and carry **small change**.
- Count the money **in front of the customer** and give change the same way.
- Keep cash in a closed wallet, never visible on the bike.
- Deposit cash as your market's rules say; never carry more than the limit in the app.""",
        },
        {
            "title": "Card payments and disputes",
            "body": """\
Card orders are paid in the app: never take card details, PINs or photos of cards.

If a customer refuses to pay or the amount is disputed, do not argue: mark the issue in the
app and let support handle it. Keep the order until support tells you what to do.""",
        },
    ],
    "quiz": [],
    "pass_mark": 70,
}

RIDER_APP = {
    "title": "Using the rider app",
    "lessons": [
        {
            "title": "Your shift in the app",
            "body": """\
1. **Go online** when you are ready at your starting zone.
2. **Accept** orders from the order screen; the timer shows how long you have to decide.
3. **Swipe to confirm** pickup only once the restaurant handed you every item.
4. **Swipe to confirm** delivery at the door, after the handover.

Go offline before any break, so orders go to riders who can take them.""",
        },
        {
            "title": "Getting help",
            "body": """\
The **Help** button on every order connects you to support. Use it for a closed restaurant,
a wrong address, an unreachable customer or an accident. In an emergency, call the local
emergency number first.""",
        },
    ],
    "quiz": [],
    "pass_mark": 70,
}

HEAT_SAFETY = {
    "title": "Heat safety in summer",
    "lessons": [
        {
            "title": "Know the danger",
            "body": """\
Summer temperatures in the Gulf pass **45 °C**. Heat exhaustion can turn into heat stroke,
which can kill, within minutes.

Warning signs: headache, dizziness, heavy sweating **or** no sweating at all, confusion,
nausea. If you notice them, **stop riding**, get into shade or air conditioning, drink water
and ask for help. Confusion or fainting is an emergency: call the emergency number.""",
        },
        {
            "title": "Stay safe in the heat",
            "body": """\
- Drink water **before** you are thirsty: about one cup every 20 minutes.
- Use the rider rest points and take breaks in the shade during the hottest hours.
- Wear light, breathable clothing under your gear and a cooling towel if you have one.
- Respect your market's midday work ban: the app blocks orders during it.""",
        },
    ],
    "quiz": [
        _q(
            "Which are warning signs of heat illness? (choose all that apply)",
            ["Dizziness", "Confusion", "Feeling hungry", "Headache"],
            0,
            1,
            3,
        ),
        _q(
            "When should you drink water?",
            ["Only when thirsty", "Regularly, before you are thirsty", "Only after the shift"],
            1,
        ),
        _q(
            "A colleague is confused and stops sweating. What is this?",
            ["Normal tiredness", "A possible heat stroke: call the emergency number"],
            1,
        ),
    ],
    "pass_mark": 80,
}

EQUIPMENT_CARE = {
    "title": "Equipment care",
    "lessons": [
        {
            "title": "Your kit",
            "body": """\
Your bag, helmet, jacket and phone holder are part of your safety and of the customer's
experience. Clean your bag daily, dry it open overnight, and report broken zips, straps or
insulation in the app: replacements are free for wear and tear.""",
        },
        {
            "title": "Your vehicle",
            "body": """\
Follow the service schedule of your vehicle, keep the chain oiled and check tyre pressure
weekly. A rattle or a soft brake is a reason to stop riding until it is fixed.""",
        },
    ],
    "quiz": [],
    "pass_mark": 70,
}

ON_TIME = {
    "title": "Delivering on time",
    "lessons": [
        {
            "title": "Plan the trip",
            "body": """\
Being on time starts before you accept an order: stay in busy zones, keep your phone charged
and your vehicle fuelled. Read the whole address and the customer's notes **at pickup**, while
you are stopped, so you do not search while riding.""",
        },
        {
            "title": "When you will be late",
            "body": """\
Traffic and slow restaurants happen. If you will be more than 10 minutes late, tell the
customer through the app's message button (while stopped). Never cancel an accepted order to
avoid a late delivery: cancellations hurt customers more than a short delay.""",
        },
    ],
    "quiz": [
        _q(
            "When should you read the address and the customer's notes?",
            ["At pickup, while stopped", "While riding to the customer", "At the door"],
            0,
        ),
        _q(
            "You will be 15 minutes late. What do you do?",
            [
                "Cancel the order",
                "Message the customer through the app while stopped",
                "Ride faster than the limit",
            ],
            1,
        ),
        _q(
            "What helps you stay on time? (choose all that apply)",
            ["A charged phone", "A fuelled vehicle", "Skipping the pre-ride check"],
            0,
            1,
        ),
    ],
    "pass_mark": 70,
}

COURSES = (
    FOOD_SAFETY,
    SAFE_RIDING,
    CUSTOMER_SERVICE,
    CASH_AND_CARDS,
    RIDER_APP,
    HEAT_SAFETY,
    EQUIPMENT_CARE,
    ON_TIME,
)
TRANSLATIONS = {"Food safety basics": {"ar": FOOD_SAFETY_AR}}
