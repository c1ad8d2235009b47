"""The reports' rows as their SVG charts draw them (`admin/charts.html`): a label, a value
and its text a bar, and where a bar leads."""

from __future__ import annotations

from urllib.parse import urlencode

# The buckets of the distributions: attempts to pass 1…5 (5: five or more), score tenths.
ATTEMPT_BUCKETS = (1, 2, 3, 4, 5)
SCORE_BUCKETS = tuple(range(10))


def _riders_link(market: str, city: str | None) -> str:
    """The riders list of that market and city with an overdue assignment (a rider without a
    city: the market's)."""
    filters = {"market": market, **({"city": city} if city else {}), "overdue": "1"}
    return "/admin/riders?" + urlencode(filters)


def charts(paths, weeks, overdue) -> dict:
    """The reports page's rows as its charts draw them (admin/charts.html)."""
    return {
        "paths_chart": [
            {
                "label": row["path"],
                "value": row["completion_rate"],
                "text": f"{row['completion_rate']}% ({row['completed']} of {row['assigned']})",
            }
            for row in paths
        ],
        "weeks_chart": [
            {
                "label": row["week"][-3:],
                "values": {"completions": row["completions"], "assignments": row["assignments"]},
            }
            for row in weeks
        ],
        "weeks_top": max([1, *(max(row["completions"], row["assignments"]) for row in weeks)]),
        "overdue_chart": [
            {
                "label": f"{row['city'] or '(no city)'}, {row['market']}",
                "city": row["city"] or "(no city)",
                "market": row["market"],
                "value": row["overdue"],
                "text": str(row["overdue"]),
                "href": _riders_link(row["market"], row["city"]),
            }
            for row in overdue
        ],
    }


def course_charts(report: dict) -> dict:
    """A course's item analysis as its charts draw it."""
    return {
        "questions_chart": [
            {
                "label": f"{row['question'] + 1}. {row['text']}",
                "value": row["correct_rate"],
                "text": f"{row['correct_rate']}%",
            }
            for row in report["questions"]
        ],
        "attempts_chart": [
            {"label": f"{n}{'+' * (n == ATTEMPT_BUCKETS[-1])}", "value": count, "text": str(count)}
            for n, count in report["attempts"]
        ],
        "scores_chart": [
            {
                "label": f"{10 * n}–{10 * n + 9 + (n == SCORE_BUCKETS[-1])}",
                "value": count,
                "text": str(count),
            }
            for n, count in report["scores"]
        ],
    }
