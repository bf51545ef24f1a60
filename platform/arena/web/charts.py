"""Inline SVG charts, computed here so that pages need no chart library (and no CDN):
the rating history of a bot and the small trend lines of the leaderboard."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class RatingPoint(Protocol):
    after: float
    before: float
    version_number: int
    version_changed: bool


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class VersionMark:
    x: float
    label: str


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: str  # SVG polyline points
    ticks: list[Tick]
    marks: list[VersionMark]
    count: int
    description: str  # what a screen reader hears instead of the picture

    @property
    def x_end(self) -> int:
        return self.width - self.right

    @property
    def y_end(self) -> int:
        return self.height - self.bottom


def _nice_step(span: float, steps: int = 4) -> float:
    raw = max(span, 1.0) / steps
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def history_chart(
    points: Sequence[RatingPoint], *, width: int = 960, height: int = 260
) -> LineChart | None:
    """The Elo after every rated game, from the rating before the first one; a dashed
    line marks each game where a new version started to play."""
    if not points:
        return None
    values = [points[0].before] + [p.after for p in points]
    left, right, top, bottom = 44, 10, 18, 24
    low, high = min(values), max(values)
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = width - left - right, height - top - bottom

    def x_of(i: int) -> float:
        return left + plot_w * i / max(len(values) - 1, 1)

    def y_of(v: float) -> float:
        return top + plot_h * (1 - (v - low) / (high - low))

    coordinates = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(values))
    ticks = []
    value = low
    while value <= high + 1e-9:
        ticks.append(Tick(y=round(y_of(value), 1), label=f"{value:.0f}"))
        value += step
    # Game i of `points` runs from value i to value i + 1: the mark sits where the new
    # version's first game starts, so everything right of it is that version's.
    marks = [
        VersionMark(x=round(x_of(i), 1), label=f"v{p.version_number}")
        for i, p in enumerate(points)
        if p.version_changed
    ]
    description = (
        f"Elo over {len(points)} rated games: from {values[0]:.0f} to {values[-1]:.0f}, "
        f"lowest {min(values):.0f}, highest {max(values):.0f}; "
        f"versions started: {', '.join(m.label for m in marks) or 'none'}."
    )
    return LineChart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        points=coordinates,
        ticks=ticks,
        marks=marks,
        count=len(points),
        description=description,
    )


def sparkline_points(values: Sequence[float], *, width: int = 96, height: int = 24) -> str:
    """SVG polyline points for a trend line filling width x height (1px inset)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    inner_h = height - 2
    return " ".join(
        f"{width * i / (len(values) - 1):.1f},{1 + inner_h * (1 - (v - low) / span):.1f}"
        for i, v in enumerate(values)
    )
