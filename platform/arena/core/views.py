from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from .health import database_is_up, sandbox_problem


@require_GET
def healthz(request):
    """Liveness for load balancers and docker compose: 200 when the database answers.

    `sandbox` says whether uploaded bots could run in this process's sandbox ("ok",
    or why not). It does not change the status: the web service needs no sandbox of
    its own (the workers run the bots), and a worker logs the same reason when it
    starts. With `?sandbox=required`, a missing sandbox answers 503 too: the check
    for a host that runs workers."""
    database = database_is_up()
    problem = sandbox_problem(
        backend=settings.ARENA_SANDBOX_BACKEND,
        image=settings.ARENA_SANDBOX_IMAGE,
        runtime=settings.ARENA_SANDBOX_RUNTIME,
    )
    ok = database and (problem is None or request.GET.get("sandbox") != "required")
    return JsonResponse(
        {"database": "ok" if database else "down", "sandbox": problem or "ok"},
        status=200 if ok else 503,
    )
