#!/usr/bin/env bash
# Creates the virtual environment and installs the project with its test extras.
# System packages (SDL/GL libraries for a headless Kivy, Xvfb, fonts ...) come first when we
# can install them (root, or passwordless sudo); otherwise we say what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

tools/install-system-packages.sh

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e ".[test]"
