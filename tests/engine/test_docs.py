"""Every public docstring example in engine/ runs and says what it shows."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import sys
from pathlib import Path

import pytest

import engine

MODULES = ["engine", *(f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.failed == 0


def test_examples_exist_where_the_api_is():
    tested = sum(doctest.testmod(importlib.import_module(m)).attempted for m in MODULES)
    assert tested >= 15


def test_engine_imports_under_a_bare_interpreter():
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    code = (
        "import sys; sys.path.insert(0, '.'); import engine, engine.bot, engine.text;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] not in sys.stdlib_module_names"
        " and m != '__main__'))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], cwd=repo, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    imported = eval(out.stdout)  # a printed list of module names
    assert all(name == "engine" or name.startswith("engine.") for name in imported)


def test_engine_source_imports_only_the_standard_library_and_itself():
    # Read, not run: an import inside a function body, or one by name through
    # importlib, would escape the bare-interpreter test above until it is called.
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = [node.module.split(".")[0]]
            else:
                by_name = isinstance(node, ast.Call) and (
                    ast.unparse(node.func) in ("importlib.import_module", "__import__")
                )
                assert not by_name, f"{path.name}:{node.lineno} imports a module by name"
                continue
            for root in roots:
                assert root == "engine" or root in sys.stdlib_module_names, (
                    f"{path.name}:{node.lineno} imports {root}"
                )
