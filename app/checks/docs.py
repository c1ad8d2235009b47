"""OpenAPI descriptions of the checks family's endpoints (the rules a client relies on)."""

CHECKS = (
    "All checks matching every given filter (AND), ordered by `ID` ascending; with no "
    "filter, every check. Parameter names are case-sensitive and unknown parameters are "
    "ignored. A malformed value (an ID that is not a bigint written in digits, a date not "
    "written `YYYY-MM-DD`, a boolean other than true/false/1/0 in any case, an empty value) "
    "or a parameter given twice answers 400 `invalid_request` naming it (`rider_id must be "
    "given at most once`); with several bad parameters the first in the documented order is "
    "named. IDs take an optional sign, but no spaces, `1.0` or `1_000`.\n\n"
    "`check_date_from`/`check_date_to` compare the date part of the local `Check_date`, "
    "both inclusive; a range whose start is after its end matches nothing.\n\n"
    "`Rider_ID`, `Recorder_ID` are numbers; `ID_validation`, `License_plate` are 1/0; "
    "`Check_date` is the local wall-clock time (`YYYY-MM-DD HH:MM:SS`) and `Timezone` its "
    "UTC offset label (`UTC+04:00`); `Country_code` and `Timezone` are always present, "
    "null when unknown. `Questioner` is ordered by `question_id` and keeps the question's "
    "text, category and image as they were when the check was recorded (later catalogue "
    "changes, even deleting the question, do not change past checks). `Reported_item` is "
    "returned exactly as loaded (any JSON array, or null).\n\n"
    "The response is streamed (chunked transfer encoding) in constant server memory. If "
    "the server fails after the first byte, it closes the connection: a body that is not "
    "a complete JSON array is an error, never a partial result. A stream holds one of the "
    "server's database connections (10, shared by every API) until it ends: read it "
    "promptly rather than hold a full-list stream open."
)

QUESTIONER = (
    "Every question of the catalogue, ordered by `question_id`; with `country_id=N`, "
    "exactly the questions of country N (a question belongs to one country). The name is "
    "case-sensitive and unknown parameters are ignored; a malformed `country_id` answers "
    "400 `invalid_request`."
)
