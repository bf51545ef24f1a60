"""The leaderboard of a competition: sortable, paginated, searchable."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from arena.matches.selectors import competition_list
from arena.ratings.selectors import LEADERBOARD_ORDERINGS, leaderboard_queryset, leaderboard_rows
from arena.web.selectors import competition_for_page

PAGE_SIZE = 25
# The columns a visitor can sort by, with the direction a first click sorts in.
SORTABLE = {
    "rank": "rank",
    "name": "name",
    "games": "-games",
    "win_rate": "-win_rate",
    "last_played": "-last_played",
}


def _sort_links(current: str) -> dict[str, dict[str, str]]:
    """Per column: the ordering its header link asks for and its aria-sort state."""
    links = {}
    for column, first in SORTABLE.items():
        active = current.lstrip("-") == column
        if active:
            target = current[1:] if current.startswith("-") else f"-{current}"
            ascending = not current.startswith("-")
            # Rank 1 is the highest Elo: "rank" ascending means Elo descending.
            state = "ascending" if ascending else "descending"
        else:
            target, state = first, "none"
        links[column] = {"ordering": target, "aria_sort": state}
    return links


@require_safe
def leaderboard(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    competition = competition_for_page(slug=slug)
    if competition is None:
        raise Http404("There is no competition yet.")
    # `search`, as the API's leaderboard calls it; `q` still works for old links.
    search = (request.GET.get("search") or request.GET.get("q", "")).strip()[:40]
    ordering = request.GET.get("sort", "rank")
    if ordering not in LEADERBOARD_ORDERINGS:
        ordering = "rank"
    ratings = leaderboard_queryset(competition=competition, search=search, ordering=ordering)
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = leaderboard_rows(competition=competition, ratings=list(page.object_list))
    return render(
        request,
        "web/leaderboard/leaderboard.html",
        {
            "nav": "leaderboard",
            "competition": competition,
            "competitions": list(competition_list()),
            "rows": rows,
            "page": page,
            "search": search,
            "ordering": ordering,
            "sort_links": _sort_links(ordering),
        },
    )
