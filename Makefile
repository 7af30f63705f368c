# One venv, made from pyproject.toml; every target installs what it needs first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXAMPLE ?= examples/wine-removed-apis-2016/spec.yaml

.PHONY: setup example test lint typecheck unit clean kind-up kind-example kind-e2e kind-down eras past-proofs

$(STAMP): pyproject.toml runner-image/requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c runner-image/requirements.lock -e '.[dev,ml]'
	touch $(STAMP)

setup: $(STAMP)

## Set up, then modernize an example notebook (report in ./nbmod-runs/<name>/).
example: setup
	$(BIN)/nbmod modernize $(EXAMPLE)

## Set up, then run every check CI runs: lint, format, types, tests.
test: setup lint typecheck unit

lint:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck:
	$(BIN)/mypy

unit:
	$(BIN)/pytest

## The era environments (.eras/, from eras/*.lock), and the rules proven against them: records
## fixers/rules/past.json and regenerates docs/rules.md (issue #22).
eras:
	scripts/era-envs

past-proofs: setup eras
	$(BIN)/python -m nbmodernizer.fixers.rules.past --write
	$(BIN)/nbmod rules --markdown > docs/rules.md

## A local trial on kind (needs Docker and kind): docs/operator.md, "Try it on kind".
kind-up: setup
	scripts/kind-up

kind-example: setup
	scripts/kind-example $(EXAMPLE)

kind-e2e: setup
	scripts/kind-e2e

kind-down:
	scripts/kind-down

clean:
	rm -rf $(VENV) nbmod-runs .pytest_cache .mypy_cache .ruff_cache
