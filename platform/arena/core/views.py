from django.http import JsonResponse
from django.views.decorators.http import require_GET

from .health import database_is_up


@require_GET
def healthz(request):
    """Liveness for load balancers and docker compose: 200 when the database answers."""
    ok = database_is_up()
    return JsonResponse({"database": "ok" if ok else "down"}, status=200 if ok else 503)
