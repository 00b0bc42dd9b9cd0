# Two commands: `make run` serves the site, `make test` runs every test. Nothing but Python 3.11+
# and make is needed; everything else is installed into .venv.
SHELL := /bin/bash
HOST ?= 127.0.0.1
PORT ?= 8000

# Django 6 needs Python 3.12+: take the newest Python on the machine that has it (pyenv's too),
# else fall back to python3 (a 3.11 machine then gets Django 5.2 LTS, see pyproject.toml).
PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 $$HOME/.pyenv/versions/3.1[2-9]*/bin/python3 python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then echo $$p; exit; fi; done; echo python3)
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test bench worker lint typecheck messages clean-db help

help:
	@echo "make run    - install, migrate, create the demo club, serve http://$(HOST):$(PORT)"
	@echo "make test   - install test extras and run the whole suite"
	@echo "make bench  - measure speeds and write bench/RESULTS.md"
	@echo "make worker - a Celery worker (with REDIS_URL set)"

$(VENV)/.base: pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	@touch $@

$(VENV)/.test: $(VENV)/.base
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

$(VENV)/.bench: $(VENV)/.base
	$(PY) -m pip install -q -e '.[test,bench]'
	@touch $@

messages: $(VENV)/.base
	@$(PY) scripts/compilemessages.py

run: $(VENV)/.base messages
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py seed_demo --base-url http://$(HOST):$(PORT)
	$(PY) -m daphne -b $(HOST) -p $(PORT) config.asgi:application

test: $(VENV)/.test messages
	$(PY) -m pytest

bench: $(VENV)/.bench
	$(PY) bench/run.py

# Only for the Redis mode: without REDIS_URL a worker would run on an in-memory broker of its own
# and never see a table's clock (found by an audit). -l warning: the sweep every two seconds
# would log about 90 lines a minute at info.
worker: $(VENV)/.base
	@test -n "$$REDIS_URL" || { echo "make worker: export REDIS_URL (and DATABASE_URL) first, as for the Daphne processes; make run needs no worker" >&2; exit 2; }
	$(PY) -m celery -A config worker -B -l warning --concurrency 2

lint: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m mypy

clean-db:
	rm -f db.sqlite3 db.sqlite3-wal db.sqlite3-shm
