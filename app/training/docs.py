"""OpenAPI descriptions of the training endpoints: the decisions a client can rely on."""

from app.training.assignments import MAX_FILTER_VALUES, MAX_RIDER_IDS, MAX_VALUE_LENGTH

RIDERS = """\
Creates or updates riders, matched on the trimmed `riderId`, then runs the automatic rules
('auto-assign to every matching rider' and 'riders in onboarding status') for the riders it
created and those whose market, vehicle type, nationality or status it changed: no other rider
can newly match one, since every change of a path runs them for every rider.

* Each row is checked in the order of the Rider fields (riderId, name, market, phone, city,
  vehicleType, nationality, language, status, pin); the first problem is the row's `error`.
* `riderId` and `name` are trimmed; `city`, `vehicleType` and `nationality` too. Optional
  fields that are omitted, empty or only blanks keep the stored value; a field cannot be
  cleared. `null` is a type error (`Invalid input: expected string, received null`).
* `phone`: spaces, dashes and brackets are removed; the rest must be `+` and 7 to 15 digits.
* If a `riderId` appears more than once, the last valid row wins; rejected rows are reported
  and change nothing. `inserted` and `updated` count distinct riders; `updated` counts every
  existing rider the call names, one sent with the values already stored too (it is not
  written again: a re-sent unchanged rider costs little).
* Unknown fields are ignored. The PIN is stored hashed and never returned.
* A rider set `inactive`, or sent a PIN, is signed out of the rider app at once. Any PIN sent
  counts, the same one too: an integration that re-sends unchanged PINs signs those riders out.
* Saving and the rules are one transaction: a request saves all its valid rows or none.
  Concurrent calls that touch the same riders wait for each other (rows are written in
  `riderId` order, so they cannot deadlock); a clash PostgreSQL still reports answers 409.
* `enrollmentsCreated` counts the assignments the rules made in this call. The rules assign
  a path only to riders who never had it, never to inactive riders, and only active paths.
"""

RIDERS_EXAMPLE = {
    "riders": [
        {
            "riderId": "R-10001",
            "name": "Omar Haddad",
            "market": "Qatar",
            "phone": "+974 5512 3456",
            "city": "Doha",
            "vehicleType": "Motorbike",
            "nationality": "Jordanian",
            "language": "ar",
            "status": "onboarding",
            "pin": "4821",
        },
        {"riderId": "R-10002", "name": "Sara Khan", "market": "AE"},
    ]
}

FLAGS = """\
Saves the flag (source `api`), assigns every active path set to 'when a rider gets a flag'
for this type whose market, vehicle and nationality filters the rider matches (not to an
inactive rider, and not a path the rider has open now), then, with `notify` true and at least
one path assigned, sends or logs a one-tap link to the training.

* `riderId` is matched exactly as stored (untrimmed). `note` is optional, up to 1,000
  characters. `notify` must be a JSON boolean; it defaults to false.
* `notification`: null when `notify` was false or nothing was assigned; `sent` (delivered to
  the messaging cloud API), `failed` (the messaging service returned an error) or `logged`
  (not sent automatically).
* The body is checked before the rider is looked up: a bad body is 400 even for an unknown
  rider. Unknown fields are ignored.
* Not idempotent: repeating the call records another flag. The flag and its assignments are
  saved together; the notification step runs after they are saved.
"""

ASSIGNMENTS = f"""\
Assigns one learning path (why `api`, deadline now plus the path's days to complete) to the
riders that match every criterion given: in `riderIds` (when given), and for each filter given,
one of its values (matched exactly: market codes upper case, vehicle types lower case).

* `riderIds`, or at least one non-empty filter, is required. An empty filter array counts as
  not given; an empty `riderIds` is a list of no riders and assigns nobody (never "everyone
  matching the filters").
* Inactive riders are never assigned; unknown rider IDs are ignored; riders who have the path
  open are skipped; riders who finished it earlier get a new assignment. A rider who has
  already passed every course of the path gets an assignment that is completed at once.
* The path's own rule, filters and Active setting are ignored. No message is sent.
* Unknown fields are ignored; there is no city filter (the admin panel's is not available).
* Checked in this order: the body's shape (400), then that riderIds or a filter is given
  (400), then the path (404).
* One statement: the call assigns all matching riders or none. Up to {MAX_RIDER_IDS:,} `riderIds`
  (duplicates count once) of 1 to {MAX_VALUE_LENGTH} characters; up to {MAX_FILTER_VALUES}
  values in each filter, each 1 to {MAX_VALUE_LENGTH} characters; bodies up to 20 MiB.
"""

COMPLETIONS = """\
Passed-course records, one per rider per course, ordered by `completedAt` (then by rider and
course), oldest first, across all markets and rider statuses. Times are UTC,
`YYYY-MM-DDTHH:MM:SS.sssZ`.

* Page with `cursor` (the previous page's `nextCursor`): it neither skips nor repeats records,
  even when many share a completion time. When `cursor` is given, `since` is ignored; an empty
  `cursor=` counts as absent. A cursor is opaque and tied to this server, not to the API key
  that asked (any key of scope `training` continues it): a damaged or foreign cursor answers
  400, and after the server's secret changes, start again with `since`.
* `since`: an ISO 8601 date (midnight UTC) or date-time (no offset means UTC); records completed
  strictly after it (times are stored in whole milliseconds: the page starts at the next one).
  An empty `since=` counts as absent.
* `next` and `nextCursor` are set only when the page is full; null means nothing more for now.
  `next` is the last record's `completedAt`, kept for older integrations.
* To pick up later completions, start again with `since` set to the `completedAt` of the last
  stored record (that record may come again), then page with `cursor`. Store records by
  `proofCode`, or by `riderId` plus `courseId`.
* Uptime check: `GET /api/v1/completions?limit=1` answers 200 only when the database works.
"""

IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x20-\\x7e]+$"},
    "description": """\
Makes a retry safe (the IETF `Idempotency-Key` draft): 1 to 255 printable ASCII characters,
e.g. a UUID made once per logical request. The first request with a key runs and its answer
is kept for 24 hours; a repeat with the same key and the same body (byte for byte) answers
that status and body again with `Idempotent-Replayed: true` and changes nothing. The same key
with another body answers 422; a repeat while the first is still running answers 409
(`conflict`: retry after a moment). A 5xx answer is not kept: retry with the same key. Keys
are per operation and per API key. Without the header the request runs as before.""",
}

IDEMPOTENCY_ERRORS = {
    400: "`Idempotency-Key` is not 1 to 255 printable ASCII characters",
    409: "A request with the same `Idempotency-Key` is still running (`conflict`); retry",
    422: "`Idempotency-Key was used with another body` (`invalid_request`)",
}
