"""`{% sparkline values %}`: the leaderboard's small trend line, inline SVG."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from arena.web.charts import sparkline_points

register = template.Library()


@register.simple_tag
def sparkline(values: Sequence[float], label: str = "Recent Elo trend") -> SafeString:
    points = sparkline_points(list(values or []))
    if not points:
        return format_html('<span class="muted small">{}</span>', "—")
    direction = "down" if values[-1] < values[0] else "up"
    return format_html(
        '<svg class="sparkline sparkline--{}" viewBox="0 0 96 24" preserveAspectRatio="none" '
        'role="img" aria-label="{}: {} to {}"><polyline points="{}"/></svg>',
        direction,
        label,
        f"{values[0]:.0f}",
        f"{values[-1]:.0f}",
        points,
    )
