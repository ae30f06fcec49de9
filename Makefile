# `make run` and `make test` do all the set-up on a fresh machine: a .venv with the pinned dependencies.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test bench clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Arena needs Python 3.11 or newer; run: make $(MAKECMDGOALS) PYTHON=python3.11 (or newer)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

run: $(VENV)/.installed
	$(PY) bot.py

test: $(VENV)/.installed
	$(PY) -m pytest

bench: $(VENV)/.installed
	for b in benchmarks/[!_]*.py; do $(PY) -m benchmarks.$$(basename $$b .py) || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache
