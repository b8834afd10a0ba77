#!/bin/sh
# Install the kiosk app into its own virtual environment, from the wheel built from this
# repository; the dependencies come as binary wheels from PyPI (never built on the Pi).
#
# usage: install-app.sh WHEEL_DIR [PREFIX]      (PREFIX default /opt/solitaire-kiosk)
#
# Runs inside the image's chroot (stage-kiosk/02-app) and inside the CI's emulated arm64 root
# (tests/platform/test_arm64_root.py): one script, so CI installs what the image installs.
# The environment sees the system's site-packages for lgpio only (python3-lgpio from the
# Raspberry Pi archive; PyPI has no cp313 aarch64 wheel); every dependency of the app is
# installed in the environment itself (--ignore-installed), whatever the system has.
# INSTALL_APP_NO_COMPILE=1 skips the bytecode (CI under emulation only: on the read-only Pi
# root Python could not cache it, so the image keeps it).
# INSTALL_APP_OFFLINE=1: WHEEL_DIR holds every dependency too, pip's own wheel included (the
# Debian build downloads them on its host with a native pip), and nothing is fetched from
# inside the root: pip's TLS under user emulation on a busy machine is slow enough for PyPI
# to reset it. pip then installs itself from its wheel along with the app, instead of
# ensurepip installing and byte-compiling it a first time (20 minutes under emulation).
set -eu

wheels=${1:?usage: install-app.sh WHEEL_DIR [PREFIX]}
prefix=${2:-/opt/solitaire-kiosk}
venv=$prefix/venv


set -- "$wheels"/solitaire_kiosk-*.whl
[ -f "$1" ] || { echo "install-app: no solitaire_kiosk wheel in $wheels" >&2; exit 1; }
[ $# -eq 1 ] || { echo "install-app: several wheels in $wheels: $*" >&2; exit 1; }

compile=--compile
[ -z "${INSTALL_APP_NO_COMPILE:-}" ] || compile=--no-compile

if [ -n "${INSTALL_APP_OFFLINE:-}" ]; then
    app=$1
    set -- "$wheels"/pip-*.whl
    [ -f "$1" ] || { echo "install-app: no pip wheel in $wheels (INSTALL_APP_OFFLINE)" >&2; exit 1; }
    python3 -m venv --system-site-packages --without-pip "$venv"
    "$venv/bin/python" "$1/pip" install --no-cache-dir --disable-pip-version-check "$compile" \
        --only-binary=:all: --ignore-installed --no-index --find-links "$wheels" "$app" pip
else
    python3 -m venv --system-site-packages "$venv"
    "$venv/bin/python" -m pip install --no-cache-dir --disable-pip-version-check "$compile" \
        --only-binary=:all: --ignore-installed "$1"
fi
ln -sf "$venv/bin/kiosk" /usr/local/bin/kiosk
"$venv/bin/kiosk" --version
