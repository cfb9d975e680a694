# `make run` serves the game on the embedded default; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup services chromium bench lint

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

test: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python bench/engine_bench.py

lint: setup
	$(BIN)/ruff check .
