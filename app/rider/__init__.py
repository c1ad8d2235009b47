"""The rider app (`/`, docs/rider-app.md): sign-in (and a new PIN for a rider who forgot theirs),
one-tap links, the rider's training (course player, quizzes, proofs), the public verification
of proof codes and the web app manifest; one route table a page group, in the riders' four
languages; and the riders' AI assistant."""

from app.core.errors import HTML_ERRORS
from app.core.package import Package
from app.rider import (
    assistant,
    forgot_pin,
    install,
    kept_courses,
    offline,
    one_tap,
    quiz_form,
    sign_in,
    store,
    training,
    verify,
)
from app.rider.guard import guard

PAGE_GROUPS = (sign_in, forgot_pin, one_tap, training, assistant, verify, install, offline)

PACKAGE = Package(
    routes=[route for group in PAGE_GROUPS for route in group.routes],
    # `/` itself is a page of the default (HTML) shape: as a prefix it would also claim
    # unknown paths under `/api`, whose errors are JSON.
    prefixes=("/sign-in", "/sign-out", "/forgot-pin", "/t/", "/training", "/verify/", "/offline"),
    errors=HTML_ERRORS,
    middlewares=[guard],
    contexts=[kept_courses.context, quiz_form.context],
    plan_ahead=store.plan_ahead,
)
