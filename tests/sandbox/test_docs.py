"""Every docstring example in sandbox/ runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import sandbox
import sandbox.backends

MODULES = [
    "sandbox",
    *(f"sandbox.{m.name}" for m in pkgutil.iter_modules(sandbox.__path__)),
    *(f"sandbox.backends.{m.name}" for m in pkgutil.iter_modules(sandbox.backends.__path__)),
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    assert doctest.testmod(importlib.import_module(name)).failed == 0
