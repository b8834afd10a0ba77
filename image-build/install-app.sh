#!/bin/sh
# Install the kiosk app into its own virtual environment, from wheels only, without the
# network: the wheel built from this repository, every dependency's wheel for the image's
# Python (downloaded on the build host by image-build/debian/build-image.sh, never built on
# the Pi), pip's own wheel, and lgpio's (built for the image by lgpio-wheel.sh: the
# hardware buttons' way to /dev/gpiochip*; the app does not depend on it, so a desktop runs
# without it).
#
# usage: install-app.sh WHEEL_DIR [PREFIX]      (PREFIX default /opt/solitaire-kiosk)
#
# Runs inside the image's root under emulation (build-image.sh step 3); the arm64 root test
# (tests/platform/test_arm64_root.py) then runs the app it installed. Nothing inside the
# emulated root touches the network: pip's TLS under user emulation on a busy machine is
# slow enough for PyPI to reset it, and pip installs itself from its wheel along with the
# app instead of ensurepip installing and byte-compiling it a first time (20 minutes under
# emulation). The environment does not see the system's site-packages: everything it runs
# is in it.
# INSTALL_APP_NO_COMPILE=1 skips the bytecode (on the read-only root Python could not cache
# it, so the image keeps it).
set -eu

wheels=${1:?usage: install-app.sh WHEEL_DIR [PREFIX]}
prefix=${2:-/opt/solitaire-kiosk}
venv=$prefix/venv

one() {   # the one wheel of $1 in $wheels
    set -- "$1" "$wheels"/"$1"-*.whl
    [ -f "$2" ] || { echo "install-app: no $1 wheel in $wheels" >&2; exit 1; }
    [ $# -eq 2 ] || { shift; echo "install-app: several $1 wheels in $wheels: $*" >&2; exit 1; }
    echo "$2"
}
app=$(one solitaire_kiosk)
pip=$(one pip)
one lgpio >/dev/null

compile=--compile
[ -z "${INSTALL_APP_NO_COMPILE:-}" ] || compile=--no-compile

python3 -m venv --without-pip "$venv"
"$venv/bin/python" "$pip/pip" install --no-cache-dir --disable-pip-version-check "$compile" \
    --only-binary=:all: --no-index --find-links "$wheels" "$app" pip lgpio
ln -sf "$venv/bin/kiosk" /usr/local/bin/kiosk
"$venv/bin/kiosk" --version
# gpiozero's pin factory on the image: its binding loads and its C library answers
"$venv/bin/python" -c 'import lgpio; print(lgpio.get_module_version(), lgpio.error_text(-79))'
