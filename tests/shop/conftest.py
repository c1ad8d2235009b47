"""Builders for shop data, loaded through the shop's own load-data sections."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.loader import load_document
from app.shop import PACKAGE

IMPORT = {"api-key": "test-import-key"}
ORDERS = {"api-key": "test-orders-key"}


async def load(db, **sections: list[dict[str, Any]]) -> None:
    await load_document(db, sections, PACKAGE.sections, PACKAGE.after_load)


def product(id: int, name: str | None = None, **fields: Any) -> dict[str, Any]:
    return {
        "id": id,
        "product_name": name or f"Product {id}",
        "category_name": "Gear",
        "is_branded": False,
        "available": True,
        "deleted": False,
        "partners": [],
        **fields,
    }


def user(id: int, partner: str = "Fleet", **fields: Any) -> dict[str, Any]:
    return {
        "id": id,
        "email": f"user{id}@example.com",
        "ridehail_id": 1000 + id,
        "agency_id": None,
        "first_name": "First",
        "last_name": "Last",
        "partner_name": partner,
        "active": 1,
        **fields,
    }


def unit(
    id: int,
    user_id: int,
    product_id: int,
    assigned_at: str | None = "2026-01-01T10:00:00Z",
    channel: str | None = "app",
    **fields: Any,
) -> dict[str, Any]:
    return {
        "id": id,
        "user_id": user_id,
        "product_id": product_id,
        "assigned_at": assigned_at,
        "channel": channel,
        **fields,
    }


def kit_entry(user_id: int, product_id: int, quantity: int = 1, mandatory: bool = True) -> dict:
    return {
        "user_id": user_id,
        "product_id": product_id,
        "quantity": quantity,
        "mandatory": mandatory,
    }


def address(kind: str = "shipping", country: str = "PL", city: str = "Warszawa") -> dict[str, Any]:
    return {
        "type": kind,
        "first_name": "Ana",
        "last_name": "Silva",
        "country": country,
        "zip": "00-001",
        "city": city,
        "street": "Long",
        "house_number": "5",
        "floor": "2",
        "door": "B",
        "phone": "+48100200300",
    }


def order(order_id: int, **fields: Any) -> dict[str, Any]:
    """An order with an exchange request, created at 2026-01-01 + order_id minutes."""
    minute = order_id % 1000
    return {
        "order_id": order_id,
        "created_at": f"2026-01-01T{minute // 60:02d}:{minute % 60:02d}:00Z",
        "driver_id": f"D{order_id}",
        "order_type": "normal",
        "shipment": "standard",
        "currency": "EUR",
        "delivery_subsidization": "0",
        "addresses": [address()],
        "status_history": [{"status": "PROCESSING", "timestamp": "2026-01-02T00:00:00Z"}],
        "tracking_numbers": [],
        "items": [
            {
                "product_id": 1,
                "quantity": 1,
                "unit_price": "10.00",
                "has_bag": True,
                "subsidization": "0",
                "wyb_discount": "0",
            }
        ],
        "payment": {"plan": "one_time"},
        "subscription_status": "",
        "subscription_overdue": False,
        "delivery_failures": [],
        "exchange": {
            "status": "pending",
            "products": [
                {
                    "product_id": 1,
                    "wrong_size": 1,
                    "warranty": 0,
                    "lost": 0,
                    "other": 0,
                    "reason": "Too small",
                    "timestamp": "2026-01-05T00:00:00Z",
                    "images": [],
                }
            ],
        },
        **fields,
    }


@pytest.fixture
async def shop(db):
    """Two partners and three products; product 3 is not available."""
    await load(
        db,
        partners=[{"name": "Fleet"}, {"name": "Other"}],
        products=[
            product(1, "Bag", partners=["Fleet"]),
            product(2, "Jacket", partners=["Fleet", "Other"]),
            product(3, "Old", available=False),
        ],
    )
    return db
