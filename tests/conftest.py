"""Shared test plumbing.

Under CI=true a skipped test is reported as a failure: a skip there means a service
or tool that CI is supposed to install is missing, and hiding that would let a broken
install step land.
"""

from __future__ import annotations

import os

import pytest

from tests.support.worker import celery_worker_process  # noqa: F401  (fixture)

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped under CI=true, which counts as a failure: {reason}"
