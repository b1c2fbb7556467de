# The Memory Console. `make run` starts it on the embedded default; `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench install install-test lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'

## Start the console on SQLite, Celery tasks in process, demo data loaded (DEBUG on, local only).
run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py seed_demo --json
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

## Run the whole test suite (set DATABASE_URL and REDIS_URL to use PostgreSQL and Redis).
test: install-test
	$(BIN)/pytest $(PYTEST_ARGS)

## Run every benchmark and print figures and ratios.
bench: install-test
	$(BIN)/python bench/run_all.py

## ruff, and the import contracts of pyproject.toml ([tool.importlinter]).
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) db.sqlite3 test-artifacts
