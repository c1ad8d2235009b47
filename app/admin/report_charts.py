"""The reports' rows as their SVG charts draw them (`admin/charts.html`): the shapes' places
in the chart's view box are worked out here, so that the template only writes them.

Every chart is WIDTH units wide, about a phone's column, and scales to its column; at 360 px
a unit is a little less than a pixel, so the text is drawn at 14 units to stay at 12 px or
more. Labels are never cut: a long one wraps onto more lines."""

from __future__ import annotations

import textwrap
from urllib.parse import urlencode

# The buckets of the distributions: attempts to pass 1…5 (5: five or more), score tenths.
ATTEMPT_BUCKETS = (1, 2, 3, 4, 5)
SCORE_BUCKETS = tuple(range(10))

WIDTH = 320
LINE_HEIGHT = 18
# About how wide a character of the charts' 14-unit text is at most (a digit is 9, "%" 13),
# for the room a value's text takes after its bar.
CHARACTER = 10
# A label's line: letters are narrower than digits on average.
LABEL_CHARACTERS = WIDTH // 8
BAR_HEIGHT = 16
ROW_GAP = 12


def riders_link(**filters: str) -> str:
    """The riders list with these filters."""
    return "/admin/riders?" + urlencode(filters)


def _overdue_link(market: str, city: str | None) -> str:
    """The riders list of that market and city with an overdue assignment (a rider without a
    city: the market's)."""
    return riders_link(market=market, **({"city": city} if city else {}), overdue="1")


def bars(rows: list[dict], top: float | None = None) -> dict:
    """Horizontal bars, one row each (`rows`: label, value, text, href optional): the label's
    lines above the bar, the value's text after it; `top` is the value of a full bar (else
    the largest). Returns the rows with their places, and the chart's height."""
    top = top or max([1, *(float(row["value"]) for row in rows)])
    longest = max([0, *(len(row["text"]) for row in rows)])
    full = WIDTH - 6 - CHARACTER * longest
    placed, y = [], 0
    for row in rows:
        lines = textwrap.wrap(row["label"], LABEL_CHARACTERS, break_long_words=True) or [""]
        width = round(full * float(row["value"]) / top, 1)
        bar_y = y + LINE_HEIGHT * len(lines) + 4
        placed.append(
            row
            | {
                "lines": [(text, y + LINE_HEIGHT * (n + 1) - 4) for n, text in enumerate(lines)],
                "bar_y": bar_y,
                "width": max(width, 1) if row["value"] else 0,
                "text_x": width + 6,
                "text_y": bar_y + BAR_HEIGHT - 3,
            }
        )
        y = bar_y + BAR_HEIGHT + ROW_GAP
    return {"rows": placed, "height": max(y, 1)}


def ticks(top: int) -> list[int]:
    """Round values from 0 to at least `top`, four or five steps of 1, 2 or 5 × 10ⁿ."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor * 5 >= top:
                size = step * factor
                return list(range(0, (-(-max(top, 1) // size) + 1) * size, size))
        step *= 10


# The line chart's plot area in its view box: left (room for the axis' numbers), right, top
# and bottom (room for the weeks under it).
LEFT, RIGHT, TOP, BOTTOM = 52, WIDTH - 20, 12, 150
LINE_CHART_HEIGHT = 196


def line(points: list[tuple[str, int]]) -> dict:
    """One series over points in order ([(label, value)]), on a scale of its own: the
    polyline, the value axis' ticks and every other label under the plot (the last always)."""
    scale = ticks(max([0, *(value for _, value in points)]))
    top = scale[-1]
    step = (RIGHT - LEFT) / max(len(points) - 1, 1)

    def y(value: float) -> float:
        return round(BOTTOM - (BOTTOM - TOP) * value / top, 1)

    xs = [round(LEFT + n * step, 1) for n in range(len(points))]
    last = len(points) - 1
    return {
        "polyline": " ".join(f"{x},{y(value)}" for x, (_, value) in zip(xs, points, strict=True)),
        "dots": [(x, y(value)) for x, (_, value) in zip(xs, points, strict=True)],
        "ticks": [(f"{value:,}", y(value)) for value in scale],
        "labels": [
            (x, label)
            for n, (x, (label, _)) in enumerate(zip(xs, points, strict=True))
            if (last - n) % 2 == 0
        ],
        "left": LEFT,
        "right": RIGHT,
        "bottom": BOTTOM,
        "height": LINE_CHART_HEIGHT,
    }


def charts(paths, weeks, overdue) -> dict:
    """The reports page's rows as its charts draw them (admin/charts.html)."""
    overdue_rows = [
        {
            "label": f"{row['city'] or '(no city)'}, {row['market']}",
            "city": row["city"] or "(no city)",
            "market": row["market"],
            "value": row["overdue"],
            "text": f"{row['overdue']:,}",
            "href": _overdue_link(row["market"], row["city"]),
        }
        for row in overdue
    ]
    return {
        "paths_chart": bars(
            [
                {
                    "label": row["path"],
                    "value": row["completion_rate"],
                    "text": f"{row['completion_rate']}%",
                }
                for row in paths
            ],
            top=100,
        ),
        "weeks_charts": [
            (key, name, line([(row["week"][-3:], row[key]) for row in weeks]))
            for key, name in (("completions", "Completions"), ("assignments", "New assignments"))
        ],
        "overdue_rows": overdue_rows,
        "overdue_chart": bars(overdue_rows),
    }


def course_charts(report: dict) -> dict:
    """A course's item analysis as its charts draw it."""
    return {
        "questions_chart": bars(
            [
                {
                    "label": f"{row['question'] + 1}. {row['text']}",
                    "value": row["correct_rate"],
                    "text": f"{row['correct_rate']}%",
                }
                for row in report["questions"]
            ],
            top=100,
        ),
        "attempts_rows": (
            attempts := [
                {"label": f"{n}{'+' * (n == ATTEMPT_BUCKETS[-1])}", "value": c, "text": f"{c:,}"}
                for n, c in report["attempts"]
            ]
        ),
        "attempts_chart": bars(attempts),
        "scores_rows": (
            scores := [
                {
                    "label": f"{10 * n}–{10 * n + 9 + (n == SCORE_BUCKETS[-1])}",
                    "value": count,
                    "text": f"{count:,}",
                }
                for n, count in report["scores"]
            ]
        ),
        "scores_chart": bars(scores),
    }
