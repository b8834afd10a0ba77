#!/usr/bin/env bash
# The README's test command runs this: install everything the tests need, lint, run them all.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
tools/install.sh test
"$VENV/bin/ruff" check .
exec "$VENV/bin/python" -m pytest "$@"
