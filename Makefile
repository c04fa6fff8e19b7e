# The two commands the README opens with:
#   make run    installs the locked versions into .venv, starts the main job (the web tables on SQLite)
#   make test   installs the locked versions and the test extras, Debian's chromium, redis-server and
#               postgresql, runs make lint, then the whole suite
# Every Python package both install comes from uv.lock (made by uv, whose own version is pinned below):
#   make lock         refreshes uv.lock from the ranges in pyproject.toml (the newest versions they allow)
#   make test-latest  installs the newest versions the ranges allow into .venv-latest and runs lint and the suite
#   make test-random  the suite in a random order (pytest-randomly; its seed is printed at the top)
#   make lint         ruff and mypy, with the configuration in pyproject.toml
PYTHON ?= python3
UV_VERSION := 0.13.8
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
BIN := $(VENV)/bin
LATEST := .venv-latest
# uv uses the machine's Python (never a downloaded one) and installs into .venv
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON := $(PYTHON)
export UV_PROJECT_ENVIRONMENT := $(VENV)
# Python keeps the bytecode it compiles (__pycache__, ignored by git) even where the machine's environment says
# not to (PYTHONDONTWRITEBYTECODE=1 on the CI machines): otherwise every process compiled each module it imports
# from source again (the app and its libraries: 3 s of CPU a process; a test worker's collection: 15 s, 6 s from
# bytecode), and the suite starts dozens of Python processes (workers, servers, Ray workers)
unexport PYTHONDONTWRITEBYTECODE
# the extras each command installs (all of them are in the lock)
RUN_EXTRAS := --extra postgres
TEST_EXTRAS := --extra test --extra postgres --extra ray
# One test worker more than the machine has cores: many tests wait (for a browser, a server, a computer
# player's pace) while others compute, and a third worker fills those waits (WORKERS=N to choose)
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST := -m pytest -n $(WORKERS) -q --durations=25 -p no:randomly
# apt-get waits up to 10 minutes for another install to release the package lock instead of failing at once
APT := apt-get -o DPkg::Lock::Timeout=600

.PHONY: run test lint install install-test system-test-deps lock test-latest test-random play clean

# uv itself, at the pinned version, in a small virtual environment of its own
$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet uv==$(UV_VERSION)

# --locked: install exactly uv.lock, and stop with an error if pyproject.toml no longer matches it
install: $(UV)
	$(UV) sync --locked --quiet $(RUN_EXTRAS)

install-test: $(UV)
	$(UV) sync --locked --quiet $(TEST_EXTRAS)

lock: $(UV)
	$(UV) lock --upgrade

# the web tables: open the address it prints (NINES_SERVE_ARGS="--port 9000" to change it)
run: install
	$(BIN)/nines serve $(NINES_SERVE_ARGS)

# a match of Le Neuf in the terminal
play: install
	$(BIN)/nines play neuf

# The browser tests drive Debian's Chromium (never a downloaded browser); the pub/sub and outage tests
# start a private redis-server; the server tests run on SQLite and on a private PostgreSQL cluster (Debian's
# postgresql: initdb and pg_ctl, run as the postgres user when the tests run as root).  All are installed
# with apt-get when missing, so no test is ever skipped.
system-test-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
		$$sudo $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $$sudo $(APT) install -y -qq $$missing; \
	fi

# the code-health gate: ruff over the whole tree and mypy --strict over src/ (configured in pyproject.toml)
lint: install-test
	$(BIN)/ruff check
	$(BIN)/mypy src/

# the code-health gate first (prerequisites run in order): a finding fails the run before the suite starts
test: install-test system-test-deps lint
	$(BIN)/python $(PYTEST)

# SEED=N repeats an order; without it a seed is drawn, and printed first
test-random: install-test system-test-deps
	@seed=$${SEED:-$$($(PYTHON) -c 'import random; print(random.randrange(10**6))')}; \
	echo "random order: --randomly-seed=$$seed (make test-random SEED=$$seed repeats it)"; \
	$(BIN)/python -m pytest -n $(WORKERS) -q --durations=10 -p randomly --randomly-seed=$$seed

# the newest versions the ranges in pyproject.toml allow, in an environment of their own (the lock is untouched)
test-latest: $(UV) system-test-deps
	$(UV) venv --quiet --allow-existing $(LATEST)
	VIRTUAL_ENV=$(LATEST) $(UV) pip install --quiet --upgrade --reinstall-package nines -e '.[test,postgres,ray]'
	mkdir -p build && VIRTUAL_ENV=$(LATEST) $(UV) pip list --format freeze > build/latest-versions.txt
	$(LATEST)/bin/ruff check
	$(LATEST)/bin/mypy src/
	$(LATEST)/bin/python $(PYTEST)

clean:
	rm -rf $(VENV) $(LATEST) $(TOOLS) build src/*.egg-info
