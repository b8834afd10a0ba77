# The two commands of README.md: `make run` starts the kiosk, `make test` installs what the
# tests need and runs them all. Everything else is a helper of these.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test test-fast lint bench clean

run: $(VENV)/.installed
	$(VENV)/bin/kiosk run $(ARGS)

test:
	tools/test.sh

test-fast:
	tools/test.sh -m "not slow"

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .

$(VENV)/.installed: pyproject.toml
	tools/install.sh
	touch $@

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache
