#!/bin/sh
# The wheel of lgpio (gpiozero's pin factory, the hardware buttons' way to /dev/gpiochip*)
# for the image's Python. PyPI has aarch64 wheels of lgpio 0.2.2.0 only for CPython 3.9 to
# 3.12, trixie's Python is 3.13, and Debian has no python3-lgpio: so the wheel is built here
# from PyPI's sdist, which holds lgpio's C library too (PYPI=1 links it into the module, so
# no liblgpio is needed beside it), and SWIG makes the binding. The compiler never reaches
# the image: the build runs in a throwaway arm64 root of the same suite that mmdebstrap
# makes with gcc, python3-dev and swig, and deletes again (--format=null).
#
# The wheel is cached in $KIOSK_CACHE (as root.sh's root) under a key of what decides it:
# this recipe's version, the sdist's hash (gpio-requirements.txt), the Python version, the
# suite and the mirror. A cached build needs neither the network nor emulation.
# KIOSK_FRESH=1 builds it again. Prints the wheel's path.
#
# usage: lgpio-wheel.sh PYTHON_VERSION      (the image root's, e.g. 3.13)
#
# Needs root, mmdebstrap, on a non-arm64 machine QEMU user emulation (binfmt.sh), and for a
# build the network (PyPI for the sdist, fetched by the host's pip; Debian's archive).
# About 10-20 minutes under emulation on a 2-core machine.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
pyver=${1:?usage: lgpio-wheel.sh PYTHON_VERSION}
python=${PYTHON:-python3}
suite=${KIOSK_SUITE:-trixie}
mirror=${KIOSK_DEBIAN_MIRROR:-${SOLITAIRE_KIOSK_DEBIAN_MIRROR:-http://deb.debian.org/debian}}
cache=${KIOSK_CACHE:-${SOLITAIRE_KIOSK_TEST_CACHE:-/var/cache/solitaire-kiosk-tests}}
requirements=$here/gpio-requirements.txt
# the builder's packages: a C compiler, Python's headers, SWIG, and pip with setuptools
builder=gcc,libc6-dev,python3-dev,swig,python3-pip,python3-setuptools,python3-wheel

case $pyver in
3.[0-9] | 3.[0-9][0-9]) ;;
*) echo "lgpio-wheel: $pyver is not a Python version like 3.13" >&2; exit 2 ;;
esac
pin=$(sed -n 's/^\(lgpio==[^ ]*\) .*--hash=sha256:\([0-9a-f]\{64\}\).*/\1 \2/p' "$requirements")
[ -n "$pin" ] || { echo "lgpio-wheel: no 'lgpio==VERSION --hash=sha256:...' in $requirements" >&2; exit 2; }
version=${pin%% *}
version=${version#lgpio==}
sha=${pin##* }
# raise when the build below changes what it makes
recipe=1
key=$(printf '%s\n' "recipe $recipe" "lgpio $version $sha" "cp$pyver" "$builder" "$suite $mirror" \
    | sha256sum | cut -c1-12)
abi=cp$(echo "$pyver" | tr -d .)
wheel_name=lgpio-$version-$abi-$abi-linux_aarch64.whl
dir=$cache/lgpio-$key
mkdir -p "$cache"

exec 8>"$cache/.lgpio.lock"
flock 8
if [ -s "$dir/$wheel_name" ] && [ -z "${KIOSK_FRESH:-}" ]; then
    echo "lgpio-wheel: cached $dir/$wheel_name" >&2
    echo "$dir/$wheel_name"
    exit 0
fi
command -v mmdebstrap >/dev/null || { echo "lgpio-wheel: mmdebstrap is missing" >&2; exit 1; }
"$here/binfmt.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "lgpio-wheel: building lgpio $version for CPython $pyver aarch64 ($suite)" >&2
start=$(date +%s)
# the sdist, by the host's pip, checked against the pinned hash
PIP_CONFIG_FILE=/dev/null "$python" -m pip download --quiet --disable-pip-version-check \
    --no-deps --no-binary :all: --require-hashes -r "$requirements" --dest "$work/sdist" >&2
set -- "$work"/sdist/lgpio-*.tar.gz
[ -f "$1" ] || { echo "lgpio-wheel: pip fetched no lgpio sdist" >&2; exit 1; }
sdist=$1
# --no-build-isolation --no-index: the builder's own setuptools, nothing fetched in the
# emulated root (pip's TLS under emulation is what PyPI reset in the image's first builds)
build="chroot \"\$1\" env PYPI=1 HOME=/tmp PIP_CONFIG_FILE=/dev/null python3 -m pip wheel"
build="$build --no-deps --no-build-isolation --no-index --disable-pip-version-check"
build="$build --wheel-dir /tmp/lgpio/out /tmp/lgpio/${sdist##*/}"
# shellcheck disable=SC2016 # the hooks' "$1" is mmdebstrap's root
mmdebstrap --arch=arm64 --variant=apt --format=null \
    --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
    --include="$builder" \
    --customize-hook='mkdir -p "$1/tmp/lgpio/out"' \
    --customize-hook="copy-in $sdist /tmp/lgpio" \
    --customize-hook="$build" \
    --customize-hook="copy-out /tmp/lgpio/out $work" \
    "$suite" /dev/null "$mirror" >&2
[ -s "$work/out/$wheel_name" ] || {
    echo "lgpio-wheel: the build made no $wheel_name: $(ls "$work/out")" >&2
    exit 1
}
rm -rf "$dir.partial"
mkdir "$dir.partial"
cp "$work/out/$wheel_name" "$dir.partial/"
rm -rf "$dir"
mv "$dir.partial" "$dir"
# wheels of other keys are of no further use
find "$cache" -maxdepth 1 -name 'lgpio-*' ! -name "${dir##*/}" -exec rm -rf {} +
echo "lgpio-wheel: built in $(( $(date +%s) - start )) s: $dir/$wheel_name" >&2
echo "$dir/$wheel_name"
