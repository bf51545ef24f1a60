"""Links between the pages of a paginated list, keeping the list's other filters."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def page_url(context: template.Context, number: int) -> str:
    """`?…&page=N` with every other query parameter (search, sort) kept as it was."""
    query = context["request"].GET.copy()
    query["page"] = number
    return f"?{query.urlencode()}"
