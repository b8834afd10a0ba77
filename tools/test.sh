#!/usr/bin/env bash
# The README's test command runs this: install everything the tests need, lint, run them all.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
tools/install.sh test
"$VENV/bin/ruff" check .
# One worker per core (PYTEST_WORKERS overrides; 0 runs in this process): the slow arm64
# root spends most of its time in emulation, so the rest of the suite runs beside it. Whole
# files go to one worker (loadfile): a module's costly fixture (the arm64 root) is built
# once. (xdist's loadgroup does not group with pytest 9.2: its node-id suffix is ignored.)
exec "$VENV/bin/python" -m pytest -n "${PYTEST_WORKERS:-auto}" --dist loadfile "$@"
