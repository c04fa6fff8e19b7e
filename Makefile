# The two commands the README opens with:
#   make run    creates .venv, installs everything, starts the main job
#   make test   installs what the tests need and runs the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test play clean

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

test: install-test
	$(BIN)/python -m pytest -n auto -q

clean:
	rm -rf $(VENV) build src/*.egg-info
