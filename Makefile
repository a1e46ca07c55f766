# The two commands of the README: `make run` (the site on the embedded default) and
# `make test` (the whole suite on real PostgreSQL, Redis, a Celery worker and Chromium,
# the fault tests included: YT_FAULTS=1, with ESLint and the JavaScript unit tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The browser client's checks (ESLint, node's test runner) come from package-lock.json.
NODE_STAMP := node_modules/.installed-stamp
ESLINT := node_modules/.bin/eslint
JS_TESTS := node --test tests/js/*.test.js
HOST ?= 127.0.0.1
# The suite runs on two pytest-xdist workers, each with its own test database, Redis
# prefixes, servers and Celery worker (tests/settings.py): much of a test's time is spent
# waiting on servers and browsers, so two share two cores well. `TEST_WORKERS=0` runs it in
# one process.
TEST_WORKERS ?= 2
PORT ?= 8000

.PHONY: run test lint production bench msgfmt

# The translations are compiled here from locale/*/LC_MESSAGES/django.po; the .mo files are
# build products and never committed.
COMPILEMESSAGES := $(BIN)/python manage.py compilemessages --ignore=.venv --ignore=tests -v0

# The install builds the compiled core (setup.py, games/csrc): a change to it reinstalls.
$(STAMP): pyproject.toml setup.py $(wildcard games/csrc/*.c games/csrc/*.h)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

$(NODE_STAMP): package-lock.json
	@node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' \
	  || { echo "Node.js 20.19 or newer (with npm) is needed for the client's checks"; exit 1; }
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

run: $(STAMP) msgfmt
	$(COMPILEMESSAGES)
	$(BIN)/python manage.py migrate --noinput
	@echo "Your Trumps is starting at http://$(HOST):$(PORT)/"
	$(BIN)/daphne -b $(HOST) -p $(PORT) yourtrumps_site.asgi:application

test: $(STAMP) $(NODE_STAMP) msgfmt
	scripts/ensure-test-services
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(ESLINT) .
	$(JS_TESTS)
	$(COMPILEMESSAGES)
	# Every model change has its migration (checked against no database: it reads none).
	DATABASE_URL=sqlite://:memory: $(BIN)/python manage.py makemigrations --check --dry-run
	YT_FAULTS=1 $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --durations=40

# compilemessages needs msgfmt: Debian's gettext package, installed only if it is missing.
msgfmt:
	@if ! command -v msgfmt >/dev/null 2>&1; then \
	  echo "Installing gettext (Debian's package)..."; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq gettext >/dev/null; \
	fi

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(ESLINT) .
	$(JS_TESTS)

# The production topology on one machine: two daphne processes, a Celery worker for each
# queue (the default one for the AI's moves, the slow one, the outbound one for e-mail and
# push) and beat, on PostgreSQL and Redis
# (see README).
production: $(STAMP)
	scripts/run-production-local

bench: $(STAMP)
	$(BIN)/python -m games.rules bench
