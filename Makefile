# The two commands the README opens with:
#   make run    creates .venv, installs everything, starts the main job
#   make test   installs what the tests need, runs make lint, then the whole suite
#   make lint   ruff and mypy, with the configuration in pyproject.toml
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint install install-test system-test-deps play clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'

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
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

# the code-health gate: ruff over the whole tree and mypy --strict over src/ (configured in pyproject.toml)
lint: install-test
	$(BIN)/ruff check
	$(BIN)/mypy src/

# the code-health gate first (prerequisites run in order): a finding fails the run before the suite starts
test: install-test system-test-deps lint
	$(BIN)/python -m pytest -n auto -q --durations=25

clean:
	rm -rf $(VENV) build src/*.egg-info
