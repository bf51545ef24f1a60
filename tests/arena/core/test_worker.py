"""A real Celery worker process runs tasks sent through the configured broker."""

import pytest

from arena.core.tasks import probe
from tests.test_layout import _is_stdlib


@pytest.mark.slow
def test_task_completes_on_a_real_worker(celery_worker_process):
    result = probe.delay()
    info = result.get(timeout=60)
    assert _is_stdlib(info["platform_module"])
    assert info["python_version"]


def test_healthz_reports_database(client, db):
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"database": "ok"}
