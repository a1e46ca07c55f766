"""The rating history as a server-rendered SVG line chart: geometry here, markup in
`templates/accounts/partials/rating_chart.html`. No JavaScript and no CDN."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 48
PAD_RIGHT = 12
PAD_TOP = 12
PAD_BOTTOM = 28


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: float
    y: float
    rating: int
    at: datetime


@dataclass(frozen=True, slots=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    points: list[ChartPoint]
    polyline: str  # the `points` attribute of the <polyline>
    y_ticks: list[Tick]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    low: int
    high: int


def _nice_step(span: float) -> int:
    """A round step (10, 20, 25, 50, 100, ...) giving about four grid lines."""
    raw = max(span / 4, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return max(int(factor * magnitude), 1)
    return int(10 * magnitude)


def rating_chart(history: Sequence[tuple[datetime, float]]) -> Chart | None:
    """Geometry of the chart, the games evenly spaced from left (oldest) to right; None for
    an empty history."""
    if not history:
        return None
    ratings = [round(rating) for _, rating in history]
    low, high = min(ratings), max(ratings)
    step = _nice_step(max(high - low, 40))
    axis_low = (low // step) * step
    axis_high = -(-high // step) * step
    if axis_high == axis_low:
        axis_high += step
    left, right = PAD_LEFT, WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - PAD_BOTTOM

    def y_of(value: float) -> float:
        return bottom - (value - axis_low) / (axis_high - axis_low) * (bottom - top)

    count = len(history)
    points = []
    for i, ((at, _), rating) in enumerate(zip(history, ratings, strict=True)):
        x = (left + right) / 2 if count == 1 else left + i * (right - left) / (count - 1)
        points.append(ChartPoint(x=round(x, 1), y=round(y_of(rating), 1), rating=rating, at=at))
    ticks = [
        Tick(pos=round(y_of(value), 1), label=str(value))
        for value in range(axis_low, axis_high + 1, step)
    ]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        y_ticks=ticks,
        plot_left=left,
        plot_right=right,
        plot_top=top,
        plot_bottom=bottom,
        low=low,
        high=high,
    )
