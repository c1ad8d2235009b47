"""The shop's part of the demo data: partners, products, kits, users with owned and owed
units, and a few hundred orders with exchanges in every state and every payment plan."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

DEMO_TABLES = ("shop_partners", "shop_products", "shop_users", "shop_orders")

PARTNERS = ("Fleet One", "Urban Riders", "Swift Couriers")
PRODUCTS = (  # name, category, branded
    ("Thermal bag", "Bags", True),
    ("Backpack", "Bags", True),
    ("Rain jacket", "Clothing", True),
    ("T-shirt", "Clothing", True),
    ("Helmet", "Safety", False),
    ("Gloves", "Safety", False),
    ("Phone holder", "Accessories", False),
    ("Power bank", "Accessories", False),
    ("Reflective vest", "Safety", True),
    ("Winter hat", "Clothing", True),
)
# The eight markets: (country, city, currency, phone prefix).
CITIES = (
    ("AE", "Dubai", "AED", "+971"),
    ("KW", "Kuwait City", "KWD", "+965"),
    ("QA", "Doha", "QAR", "+974"),
    ("BH", "Manama", "BHD", "+973"),
    ("OM", "Muscat", "OMR", "+968"),
    ("JO", "Amman", "JOD", "+962"),
    ("EG", "Cairo", "EGP", "+20"),
    ("IQ", "Baghdad", "IQD", "+964"),
)  # IQD has no rate on purpose: its orders show paid_in_eur ""
RATES = {
    "AED": "0.2510",
    "KWD": "3.0100",
    "QAR": "0.2530",
    "BHD": "2.4500",
    "OMR": "2.3950",
    "JOD": "1.3000",
    "EGP": "0.0190",
}
TIERS = (("gold", "Gold", "10"), ("silver", "Silver", "5"), ("bronze", "Bronze", "2.5"))
STATUS_PATHS = (
    ("PROCESSING",),
    ("PROCESSING", "PAID"),
    ("PROCESSING", "PAID", "FORWARDED"),
    ("PROCESSING", "PAID", "FORWARDED", "SENT"),
    ("PROCESSING", "PAID", "SENT", "DELIVERED"),
    ("PROCESSING", "PAID", "SENT", "MANUAL_DELIVERED"),
    ("PROCESSING", "CANCELLED"),
)
PAYMENTS = (
    {"plan": "one_time"},
    {"plan": "pay_later"},
    {"plan": "installments", "installments_total": 4, "installments_paid": 2, "failed": False},
    {"plan": "installments", "installments_total": 3, "installments_paid": 3, "failed": False},
    {"plan": "installments", "installments_total": 4, "installments_paid": 1, "failed": True},
)
EXCHANGE_STATES = ("pending", "approved", "denied")
USERS = 120
ORDERS = 300
START = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def _at(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def demo(rng: random.Random, _riders: int) -> dict[str, Any]:
    products = [
        {
            "id": i,
            "product_name": name,
            "category_name": category,
            "is_branded": branded,
            "available": i != 10,
            "deleted": False,
            "partners": [p for k, p in enumerate(PARTNERS) if (i + k) % 3 != 0],
        }
        for i, (name, category, branded) in enumerate(PRODUCTS, start=1)
    ]
    partner_kits = [
        {
            "partner_name": partner,
            "product_id": product,
            "quantity": rng.randint(1, 2),
            "mandatory": product <= 3,
        }
        for k, partner in enumerate(PARTNERS)
        for product in (1, 3, 5, 6 + k)
    ]
    users, user_kits, units = [], [], []
    for user_id in range(1, USERS + 1):
        users.append(
            {
                "id": user_id,
                "email": f"rider{user_id}@example.com",
                # Every tenth user has neither id and so is never listed; some have only one.
                "ridehail_id": (
                    None if user_id % 10 == 0 or user_id % 7 == 0 else 4_000_000 + user_id
                ),
                "agency_id": None if user_id % 10 == 0 or user_id % 3 else f"AG-{user_id:05d}",
                "first_name": rng.choice(("Ana", "Jan", "Lena", "Omar", "Piotr", "Zsofia")),
                "last_name": rng.choice(("Kowalski", "Nagy", "Novak", "Schmidt", "Popescu")),
                "partner_name": PARTNERS[user_id % len(PARTNERS)],
                "active": 0 if user_id % 17 == 0 else 1,
            }
        )
        for product_id in rng.sample(range(1, 10), rng.randint(2, 5)):
            quantity = rng.randint(1, 3)
            user_kits.append(
                {
                    "user_id": user_id,
                    "product_id": product_id,
                    "quantity": quantity,
                    "mandatory": rng.random() < 0.5,
                }
            )
            # Owned in full, partly, or not at all; some units are still waiting for assignment.
            for _ in range(rng.choice((0, quantity, quantity, max(0, quantity - 1)))):
                assigned = rng.random() < 0.85
                units.append(
                    {
                        "id": len(units) + 1,
                        "user_id": user_id,
                        "product_id": product_id,
                        "assigned_at": (
                            _at(START + timedelta(days=rng.randint(0, 200))) if assigned else None
                        ),
                        "channel": rng.choice(("app", "eshop", "oms")) if assigned else None,
                    }
                )
    orders = [_order(rng, order_id, users) for order_id in range(100_001, 100_001 + ORDERS)]
    for order in orders:
        if order.get("user_id") and order["items"]:
            units.append(
                {
                    "id": len(units) + 1,
                    "user_id": order["user_id"],
                    "product_id": order["items"][0]["product_id"],
                    "order_id": order["order_id"],
                    "assigned_at": order["created_at"],
                    "channel": "eshop",
                }
            )
    return {
        "partners": [{"name": name} for name in PARTNERS],
        "products": products,
        "partner_kits": partner_kits,
        "users": users,
        "user_kits": user_kits,
        "currency_rates": [{"currency": c, "eur_rate": r} for c, r in RATES.items()],
        "tiers": [{"ridehail_tier": t, "name": n, "discount_percent": d} for t, n, d in TIERS],
        "orders": orders,
        "user_products": units,
    }


def _order(rng: random.Random, order_id: int, users: list[dict[str, Any]]) -> dict[str, Any]:
    number = order_id - 100_001
    created = START + timedelta(hours=7 * number, minutes=rng.randint(0, 59))
    user = rng.choice(users) if number % 25 else None
    country, city, currency, phone_prefix = CITIES[number % len(CITIES)]
    path = STATUS_PATHS[number % len(STATUS_PATHS)]
    history = [
        {"status": status, "timestamp": _at(created + timedelta(days=step, hours=3))}
        for step, status in enumerate(path)
    ]
    address = {
        "first_name": user["first_name"] if user else "Guest",
        "last_name": "Rider",
        "country": country,
        "zip": f"{rng.randint(10000, 99999)}",
        "city": city,
        "street": "Main street",
        "house_number": str(rng.randint(1, 120)),
        "floor": "",
        "door": "",
        "phone": f"{phone_prefix}{rng.randint(10000000, 99999999)}",
    }
    items = [
        {
            "product_id": rng.randint(1, 9),
            "quantity": rng.randint(1, 3),
            "unit_price": f"{rng.randint(5, 80)}.{rng.choice(('00', '50', '99'))}",
            "has_bag": rng.random() < 0.8,
            "subsidization": rng.choice(("0", "2.50", "5")),
            "wyb_discount": rng.choice(("0", "1.25")),
        }
        for _ in range(rng.randint(1, 3))
    ]
    order: dict[str, Any] = {
        "order_id": order_id,
        "created_at": _at(created),
        "partner_name": user["partner_name"] if user else None,
        "driver_id": str(user["ridehail_id"] or f"D{order_id}") if user else f"D{order_id}",
        "ridehail_tier": rng.choice((None, "gold", "silver", "bronze", "platinum")),
        "order_type": "manual" if number % 9 == 0 else "normal",
        "shipment": ("standard", "door_to_door", "pickup")[number % 3],
        "currency": currency,
        "delivery_subsidization": rng.choice(("0", "4.99")),
        "addresses": [{"type": "shipping", **address}, {"type": "billing", **address}],
        "status_history": history,
        "tracking_numbers": [
            f"TRK{order_id}{k}" for k in range(len(path) > 2 and rng.randint(1, 2))
        ],
        "items": items,
        "payment": PAYMENTS[number % len(PAYMENTS)],
        "subscription_status": (
            "active" if PAYMENTS[number % len(PAYMENTS)]["plan"] == "installments" else ""
        ),
        "subscription_overdue": number % 23 == 0,
        "delivery_failures": (
            [{"timestamp": _at(created + timedelta(days=2)), "reason": "Nobody home"}]
            if number % 11 == 0
            else []
        ),
    }
    if user:
        order["user_id"] = user["id"]
    if number % 3 != 2:  # two orders in three ask for an exchange
        order["exchange"] = {
            "status": EXCHANGE_STATES[number % 4 % 3],
            "products": [
                {
                    "product_id": items[0]["product_id"],
                    "wrong_size": number % 2,
                    "warranty": number % 5 == 0,
                    "lost": number % 7 == 0,
                    "other": number % 2 == 0 and number % 5 != 0,
                    "reason": rng.choice(("Too small", "Zip broken", "Lost in transit")),
                    "timestamp": _at(created + timedelta(days=len(path) + 1)),
                    "images": [f"https://images.example.com/exchanges/{order_id}.jpg"],
                }
            ],
        }
    return order
