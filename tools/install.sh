#!/usr/bin/env bash
# Creates the virtual environment and installs the project.
#   tools/install.sh runtime   what running the kiosk needs (`make run`)
#   tools/install.sh test      that, the test extras and the test tool chain (`make test`,
#                              CI); the default
# System packages (SDL/GL libraries, libmtdev ...; for tests also qemu, debootstrap ...) come
# first when we can install them (root, or passwordless sudo); otherwise we say what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
set_name=${1:-test}
case "$set_name" in
    runtime) target="." ;;
    test) target=".[test]" ;;
    *) echo "install: unknown set '$set_name' (runtime or test)" >&2; exit 2 ;;
esac

tools/install-system-packages.sh "$set_name"

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e "$target"
