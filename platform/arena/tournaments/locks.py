"""The one place where a Tournament row is locked."""

from __future__ import annotations

from .models import Tournament


def tournament_lock(*, tournament_id: int) -> Tournament | None:
    """Lock one tournament row (select_for_update); None when it is gone.
    Needs an open transaction."""
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()
