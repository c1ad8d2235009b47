"""OpenAPI descriptions of the shop endpoints: the decisions a client can rely on."""

from app.shop.schemas import MAX_IMPORT

IMPORT = (
    f"`users` holds 1 to {MAX_IMPORT} records, else 422. Each record needs `email` (a valid "
    "address, stored lower-cased), `first_name`, `last_name`, `partner_name` and `active` "
    "(0 or 1); `id`, `ridehail_id` (an integer or a string of digits) and `agency_id` are "
    "optional. A record with `id` updates that user; an omitted `ridehail_id`/`agency_id` "
    'keeps the stored value, an explicit null (or `""`: as in Laravel, an empty string '
    "counts as null) clears it. Records are saved in request order, "
    "each in its own savepoint, so a later record sees (and can conflict with) an earlier one "
    "of the same request. A record's `error` is the first problem in this order: field "
    "validation (Laravel text, e.g. `The email field is required.`), `Partner not found: "
    "<name>.`, `User not found for id: <id>.`, `Email already belongs to a different user.`, "
    "`ridehail_id already belongs to a different user.`, `agency_id already belongs to a "
    "different user.` `failed` entries repeat the record's `id`, `ridehail_id` (string) and "
    "`email` as sent. `success` is true whenever the batch was processed, even if every "
    "record failed. A body that is not valid JSON answers 400. A concurrent import that takes "
    "the same email, ridehail_id or agency_id first gives the other record the same conflict "
    "text; when two concurrent imports deadlock on each other's rows, one of them answers 409 "
    "as a whole and can be resent."
)


PRODUCTS = (
    "Only products flagged available and not deleted. With `partner_name` (exact), "
    "only the products linked to that partner; an unknown partner gives `[]`."
)


KIT = (
    "With FEATURE_USER_PRODUCT_KIT=1 each user has an own kit; with 0 the user's kit is their "
    "partner's kit. Entries are ordered by `product_id`. `channel` is the channel of the user's "
    "most recently assigned unit of the product, null when none is assigned."
)


KIT_WRITE = (
    KIT + " One call upserts one product: an existing entry takes the new `quantity` "
    "(integer 1–1000) and `mandatory` (boolean); `product_id` must be an existing, not "
    "deleted product (`The selected product id is invalid.`). An unknown user (a non-numeric "
    "`{user}` too) answers 404 before the body is validated. While per-user kits are switched "
    "off the user's kit is their partner's, which this endpoint does not change: it answers "
    "409 and writes nothing."
)


USERS_LIST = (
    "Active users with a `ridehail_id` and/or an `agency_id`, ordered by `id`. `kit` is the "
    "whole kit; an entry is in `existing_kit` (with `channel`) when the user owns (units "
    "assigned) at least the required quantity, else in `available_kit`. `limit` out of 1–200 "
    "is clamped and one that is not an integer means 200; a `page` below 1 means 1; a `page` "
    "beyond 2^62 is read as 2^62 (an empty page). `email` matches case-insensitively. Booleans "
    "take 1/true/0/false. A non-integer value of `page`, `id` or a product id, another boolean "
    "value or a parameter given "
    "twice answers 422 naming it. Page URLs are absolute, built from the request's own scheme "
    "and `Host` header (behind a proxy, forward `Host`), and keep every query parameter but "
    "`page`; `from`/`to` are null on an empty page. An empty parameter counts as not sent."
)


EXCHANGE_ORDERS = (
    "Orders that have an exchange request, ordered by `order_timestamp` then `order_id`. "
    "`*_from`/`*_to` are inclusive UNIX seconds (a `*_to` bound includes its whole second). "
    "`country` matches the shipping address country case-insensitively, `city` is a "
    "case-insensitive substring of the shipping city, `tracking` matches any tracking number "
    "the order ever had. `limit` 1–200 (default 200), `page` from 1; with `skip` (which "
    "requires `limit`) the offset is `skip` and `page` is ignored. An invalid value answers "
    "422. Amounts are 2-decimal strings over items with a bag, rounded half away from zero; "
    '`paid_in_eur` is `""` when the currency has no rate. With FEATURE_TIER_DISCOUNT=0, '
    '`loyalty_discount_percent` and `total_savings` are `""` and `ridehail_tier` is `-`; a '
    "tier without a name in the tier table shows its raw code. `shipment` is always "
    "`Standard`; the `shipment` filter reads the order's stored shipment type."
)


REVIEW = (
    "A pending exchange becomes approved or denied; an order without an exchange request "
    "answers 404 like an unknown order. Sending the same decision again "
    "answers 200 and changes nothing; the opposite decision answers 409. Of two "
    "concurrent opposite reviews exactly one wins."
)
