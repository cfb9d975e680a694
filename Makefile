# `make run` serves the game on the embedded default; `make test` runs the whole suite.
# Both set everything up first (virtualenv, packages, database, translations, Chromium).
# The virtualenv's Python: the distribution's 3.11 where it can make one (Debian's links its
# interpreter statically, without going through a shared libpython as pyenv's default build does:
# the same engine games take 15 % fewer instructions under callgrind, and the suite's Python-only
# folders 17 % less CPU, 96 against 116 s in two pairs taken in turns); python3 otherwise.
# A .venv that exists is kept, whichever Python made it.
PYTHON ?= $(shell /usr/bin/python3.11 -c "import ensurepip, venv" >/dev/null 2>&1 && echo /usr/bin/python3.11 || echo python3)
# Python keeps each module's compiled bytecode (__pycache__, ignored by git) unless this is set,
# as some machines set it for every process: then every process compiled the project's modules
# again, and pytest rewrote every test module's asserts again (5.5 s of CPU to collect the suite
# instead of 3.2, in each of pytest's five processes, and 0.3 s more for each server the tests start).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST ?= 127.0.0.1
PORT ?= 8000
# Served on this machine only, the site is at localhost, and pages asked for at 127.0.0.1 are sent
# there: a passkey needs a domain name, and WebAuthn refuses an IP address. Set SEVN_CANONICAL_HOST
# (empty: no redirect) to change it; on any other HOST nobody is redirected.
ifneq ($(filter 127.0.0.1 localhost,$(HOST)),)
SEVN_CANONICAL_HOST ?= localhost:$(PORT)
endif
SITE_URL := http://$(or $(SEVN_CANONICAL_HOST),$(HOST):$(PORT))/

.PHONY: run test screenshots chromium setup system messages services migrate bench bench-service lint

# The virtualenv's pip installs uv, and uv installs the project and its packages: the same versions
# pip resolves, in 3-5 s where pip took 25-40 s on a fresh clone (20 s of CPU with its cache warm).
# Where uv cannot be had, pip does the install itself.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	if $(BIN)/pip install --quiet --disable-pip-version-check uv; then \
		$(BIN)/uv pip install --quiet --python $(BIN)/python -e ".[test]"; \
	else \
		$(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e ".[test]"; \
	fi
	touch $(STAMP)

# Debian packages the project needs: gettext (msgfmt) and a C compiler always, Chromium for
# the browser tests.
system:
	@command -v msgfmt >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq gettext)
	@command -v $(CC) >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq gcc)

# The hard Sevens bot's hot loops in C (game/games/sevens/bots/native.py loads them with ctypes).
NATIVE := game/games/sevens/bots/_native.so
# Floating point exactly as Python's (no fused multiply-add), so both pick the same deals.
NATIVE_FLAGS := -O2 -ffp-contract=off -Wall -Werror -shared -fPIC $(if $(filter x86_64,$(shell uname -m)),-mpopcnt)
$(NATIVE): game/games/sevens/bots/native.c | system
	$(CC) $(NATIVE_FLAGS) -o $@.new $< && mv $@.new $@

setup: $(STAMP) system messages $(NATIVE)

messages: $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=$(VENV) -v0

migrate: setup
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py collectstatic --noinput -v0

run: migrate
	@echo "SEVN is at $(SITE_URL)"
	SEVN_CANONICAL_HOST=$(SEVN_CANONICAL_HOST) $(BIN)/python -m daphne -b $(HOST) -p $(PORT) sevn_site.asgi:application

services:
	.ci/services

# Debian's Chromium and its headless shell, for the browser tests.
chromium:
	@(command -v chromium && command -v chromium-headless-shell) >/dev/null || \
		($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-headless-shell)

test: setup services lint chromium
	$(BIN)/python -m pytest

# The browser tests again, keeping every screenshot they take under artifacts/screenshots/ (to be
# looked at: desktop and phone, every language). `make test` takes none: nothing asserts on them.
screenshots: setup services chromium
	$(BIN)/python -m pytest tests/browser --screenshots

bench: setup
	$(BIN)/python bench/engine_bench.py

# The README's scale-out stack under load: 100 tables behind nginx, two Daphne, PostgreSQL, Redis.
bench-service: setup services
	$(BIN)/python bench/service_load.py

# Lint: ruff (with the complexity rule), ruff's formatter, mypy on the pure engines and the
# architecture's import contracts (pyproject.toml's [tool.importlinter]); part of `make test`.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo --no-cache
