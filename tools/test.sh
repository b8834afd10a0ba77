#!/usr/bin/env bash
# The README's test command runs this: install everything the tests need, lint, run them all.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
tools/install.sh test
"$VENV/bin/ruff" check .
# the type checker: its files and the parts it leaves out are in pyproject.toml ([tool.mypy])
"$VENV/bin/mypy"

# The SD-card image is built beside the suite, from the start: its build (mostly arm64 code
# under user emulation, one core) is the longest path of the run, and its tests (the arm64
# root: tests/platform/test_arm64_root.py; the boots in QEMU: test_boot_image.py) wait for
# it. It needs root (chroot, mounts); elsewhere those tests are skipped and say why.
# SOLITAIRE_KIOSK_NO_IMAGE=1 (`make test-fast`) or an image given in SOLITAIRE_KIOSK_IMAGE
# leave it out.
image=build/test-image
if [ -z "${SOLITAIRE_KIOSK_NO_IMAGE:-}" ] && [ -z "${SOLITAIRE_KIOSK_IMAGE:-}" ] \
        && [ "$(id -u)" = 0 ]; then
    rm -rf "$image"
    mkdir -p "$image"
    export SOLITAIRE_KIOSK_IMAGE_BUILD=$image
    if ! reason=$(image-build/debian/binfmt.sh 2>&1); then
        # a machine that cannot run arm64 programs (no binfmt_misc in a container): the
        # image's tests are skipped with the reason
        echo "the image is not built: ${reason:-aarch64 programs cannot run here}" > "$image/skip"
    else
        # The run's throwaway keys (docs/updates.md): the image trusts keys/ca.cert.pem and
        # the build signs its own update bundle with keys/signing.key.pem; other-keys/ is
        # another office's, whose bundles the kiosk must refuse.
        image-build/signing-keys.sh "$image/keys" "Solitaire kiosk test run" > /dev/null
        image-build/signing-keys.sh "$image/other-keys" "Another office" > /dev/null
        # its own process group, so that the whole build stops with the run
        # shellcheck disable=SC2016 # the inner script's own arguments
        setsid env KIOSK_KEEP_ROOT="$image/root" KIOSK_WORK="$image/work" \
            KIOSK_KEYRING="$image/keys/ca.cert.pem" KIOSK_BUNDLE="$image/update.raucb" \
            KIOSK_SIGNING_KEY="$image/keys/signing.key.pem" \
            KIOSK_SIGNING_CERT="$image/keys/signing.cert.pem" \
            PYTHON="$VENV/bin/python" sh -c '
                image-build/debian/build-image.sh "$1/solitaire-kiosk-arm64.img" \
                    > "$1/build.log" 2>&1
                echo $? > "$1/status.part"; mv "$1/status.part" "$1/status"' sh "$image" &
        builder=$!
        trap 'kill -- "-$builder" 2>/dev/null || true' EXIT
    fi
fi

# One worker per core (PYTEST_WORKERS overrides; 0 runs in this process). Whole files go to
# one worker (loadfile): a module's costly fixture (a booted image) is made once. (xdist's
# loadgroup does not group with pytest 9.2: its node-id suffix is ignored.)
status=0
"$VENV/bin/python" -m pytest -n "${PYTEST_WORKERS:-auto}" --dist loadfile "$@" || status=$?
exit "$status"
