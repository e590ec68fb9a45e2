# The README's two commands: `make run` and `make test`. Everything installs into .venv.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 1805
export PORT
export REFLEX_USE_NPM := 1
export REFLEX_CHECK_LATEST_VERSION := false
export REFLEX_TELEMETRY_ENABLED := false
export NEXT_TELEMETRY_DISABLED := 1
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run run-cluster dev test test-dates test-split unit coverage e2e install browser e2e-tools migrate seed lint bench bench-lighthouse bench-lunch bench-click bench-pay clean

run: install migrate seed ## install, migrate, load demo data, serve on http://localhost:$(PORT)/parent/
	@echo "Serving on http://localhost:$(PORT)/parent/  (API: http://localhost:$(PORT)/api/v1/health)"
	@echo "Demo login: parent@example.com / Lunch@2026"
	$(BIN)/python -m hotmeals.serve run --env prod --single-port --backend-port $(PORT)

run-cluster: install ## the scale-out profile: PostgreSQL (database created when missing), Redis, WORKERS backend workers (2)
	WORKERS=$(or $(WORKERS),2) bash scripts/run-cluster.sh

dev: install migrate seed ## Reflex dev mode with hot reload: UI on :3000/parent/, API on :8000
	$(BIN)/reflex run --env dev --frontend-port 3000 --backend-port 8000

test: install browser e2e-tools ## the whole suite: the non-browser tests on 2 xdist workers, then e2e (scripts/run_tests.py)
	$(BIN)/python scripts/run_tests.py $(PYTEST_ARGS)

test-dates: install browser e2e-tools ## the whole suite once per date that breaks date-bound tests (scripts/test_dates.py; DATES="winter-break june-30")
	$(BIN)/python scripts/test_dates.py $(DATES) $(PYTEST_ARGS)

test-split: install browser e2e-tools ## the same suite as two processes at once (scripts/run_suite.py)
	$(BIN)/python scripts/run_suite.py $(PYTEST_ARGS)

unit: install ## everything but the browser tests (2 xdist workers)
	$(BIN)/pytest -n $${TEST_WORKERS:-2} --dist loadfile --ignore=tests/e2e $(PYTEST_ARGS)

coverage: install ## line coverage of hotmeals/ by the non-browser tests (2 xdist workers; README "Test suite")
	$(BIN)/pytest -n $${TEST_WORKERS:-2} --dist loadfile --ignore=tests/e2e --cov=hotmeals --cov-report=term $(PYTEST_ARGS)

e2e: install browser e2e-tools ## only the browser tests
	$(BIN)/pytest tests/e2e $(PYTEST_ARGS)

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

browser: ## Debian's Chromium for the e2e tests (never a downloaded browser)
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing Debian's chromium for the e2e tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "The e2e tests need Debian's Chromium at /usr/bin/chromium: run 'sudo apt-get install chromium'"; \
	    exit 1; \
	  fi; \
	fi

e2e-tools: tests/e2e/node_modules/axe-core/axe.min.js ## axe-core from the npm registry

tests/e2e/node_modules/axe-core/axe.min.js: tests/e2e/package.json tests/e2e/package-lock.json | install
	cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error

migrate: install
	$(BIN)/python -m hotmeals.cli migrate

seed: install
	$(BIN)/python -m hotmeals.cli seed

lint: install ## ruff (lint and format) and mypy
	$(BIN)/ruff check hotmeals tests bench
	$(BIN)/ruff format --check hotmeals tests bench
	$(BIN)/mypy

bench: install ## req/s, p50/p99 and server CPU of GetChilds, GetUserDetails, get_city, health beside /ping, and GetMenu beside its hand-written floor (bench/floor_app.py)
	@if ! command -v wrk >/dev/null && [ "$$(id -u)" = "0" ]; then \
	  echo "Installing Debian's wrk for the bench"; \
	  apt-get install -y -qq wrk >/dev/null 2>&1 || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null) || true; \
	fi
	$(BIN)/python bench/api_bench.py

bench-lighthouse: install ## Lighthouse mobile performance of the first screens
	cd bench && npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python bench/lighthouse_bench.py

bench-lunch: install ## lunch rush: N parents sign in, book 5 meals and pay at once (SQLite; PostgreSQL + 2 workers + Redis)
	$(BIN)/python bench/lunch_rush.py $(BENCH_ARGS)

bench-click: install browser ## Chromium: click 'Add to cart' on Book meal -> header cart count shown, p50/p95 at 390 and 1280 px
	$(BIN)/python bench/click_bench.py $(BENCH_ARGS)

bench-pay: install browser ## Chromium: Pay on the order summary -> payment window on screen, a session's first Pay and the later ones
	$(BIN)/python bench/pay_bench.py $(BENCH_ARGS)

clean:
	rm -rf .web .states test-results
