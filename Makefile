# `make run` and `make test` do all the set-up on a fresh machine: a .venv with the pinned dependencies.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test lint format bench clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Arena needs Python 3.11 or newer; run: make $(MAKECMDGOALS) PYTHON=python3.11 (or newer)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@echo "Compiling the /deck optimizer's kernels (about 20 s, once per install; kept in rules/deck/__pycache__)"
	$(PY) -c "from rules.deck.fast import compile_kernels; compile_kernels()"
	touch $@

run: $(VENV)/.installed
	$(PY) bot.py

# With coverage of lines and branches (pyproject.toml): the untested lines are listed, and under the floor it fails.
test: $(VENV)/.installed
	$(PY) -m pytest --cov --cov-report=term-missing:skip-covered

# ruff (lint and format) and pyright (strict on the product, basic on tests and benchmarks), as configured in pyproject.toml.
lint: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pyright

format: $(VENV)/.installed
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# Every benchmark runs; the run fails at the end if any missed its target (each exits 1 then) or broke.
bench: $(VENV)/.installed
	@missed=""; for b in benchmarks/[!_]*.py; do name=$$(basename $$b .py); echo "== benchmarks.$$name"; \
		$(PY) -m benchmarks.$$name || missed="$$missed $$name"; done; \
	if [ -n "$$missed" ]; then echo "missed a target or failed:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) .pytest_cache
