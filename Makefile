# Two commands: `make lab` (open the lessons) and `make test` (run every test).
# Both create .venv on first use and are fast when nothing changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP_RUNTIME := $(VENV)/.installed-runtime
STAMP_TEST    := $(VENV)/.installed-test

.PHONY: lab test test-fast bench clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "minigrad-kit needs Python >= 3.10"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUNTIME): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP_RUNTIME) $@

lab: $(STAMP_RUNTIME)
	$(BIN)/jupyter lab notebooks/

test: $(STAMP_TEST)
	$(BIN)/python -m pytest -n 2 --dist loadfile

test-fast: $(STAMP_TEST)
	$(BIN)/python -m pytest -x -q tests/core

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
