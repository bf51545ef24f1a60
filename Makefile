# OneCard Arena: `make run` to play, `make test` to check. See README.md.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# Installs are redone when pyproject.toml changes.
DEPS   := $(shell cksum < pyproject.toml | cut -d' ' -f1)
STAMP  := $(VENV)/.installed-$(DEPS)

.PHONY: run test lint format typecheck bench clean venv

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@rm -f $(VENV)/.installed-*
	@touch $@

venv: $(STAMP)

run: $(STAMP)
	$(PY) manage.py runarena

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# The bench extra (OpenSpiel beside our engine) on top of the test install.
BENCH_STAMP := $(VENV)/.bench-$(DEPS)

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	@rm -f $(VENV)/.bench-*
	@touch $@

bench: $(BENCH_STAMP)
	$(PY) benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
