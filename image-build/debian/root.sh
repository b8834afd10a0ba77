#!/bin/sh
# The Debian arm64 root of the kiosk (trixie, from Debian's archive only), as a tarball in a
# cache: built once, then reused by `make image` (image-build/debian/build-image.sh) and by
# the arm64 root test (tests/platform/test_arm64_root.py), which installs the app into a copy.
# The tarball's name carries a hash of everything that decides its content (the recipe's
# version, the package names, the suite, the mirror), so a changed list builds a new one.
# KIOSK_FRESH=1 builds it again even when cached. Prints the tarball's path.
#
# usage: root.sh        (cache: $KIOSK_CACHE, default /var/cache/solitaire-kiosk-tests)
#
# Needs root, mmdebstrap and, on a non-arm64 machine, QEMU user emulation (binfmt.sh).
# About 1.3 GB of tarball; 15-40 minutes under emulation on a 2-core machine.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
suite=${KIOSK_SUITE:-trixie}
mirror=${KIOSK_DEBIAN_MIRROR:-${SOLITAIRE_KIOSK_DEBIAN_MIRROR:-http://deb.debian.org/debian}}
cache=${KIOSK_CACHE:-${SOLITAIRE_KIOSK_TEST_CACHE:-/var/cache/solitaire-kiosk-tests}}
lists="$here/packages $here/packages-app $here/packages-system"

command -v mmdebstrap >/dev/null || { echo "root: mmdebstrap is missing (apt install mmdebstrap)" >&2; exit 1; }
"$here/binfmt.sh"
# shellcheck disable=SC2086 # the lists are paths without spaces
packages=$(sed 's/#.*//' $lists | tr -s ' \n' '\n' | sed '/^$/d' | sort -u | paste -sd, -)
# The key names what the root holds, not where its lists live: the recipe's version (raise it
# when the mmdebstrap call below changes what it makes), the packages, the suite, the mirror.
recipe=1
key=$(printf '%s\n' "recipe $recipe" "$packages" "$suite $mirror" | sha256sum | cut -c1-12)
tar=$cache/debian-root-$suite-arm64-$key.tar
mkdir -p "$cache"

# One build at a time: a second caller (the root test and the image in the same CI run)
# waits for the first and then reuses its tarball.
exec 9>"$cache/.root.lock"
flock 9
if [ -f "$tar" ] && [ -s "$tar" ] && [ -z "${KIOSK_FRESH:-}" ]; then
    echo "root: cached $tar" >&2
    echo "$tar"
    exit 0
fi
rm -rf "$tar.partial" "$tar"
echo "root: building $tar (mmdebstrap $suite arm64 from $mirror)" >&2
start=$(date +%s)
# No initramfs in the root: the kernel's postinst and initramfs-tools' trigger would each
# build one under emulation (2-3 minutes apiece), and build-image.sh builds the image's own
# with its hook anyway. update-initramfs is diverted to a no-op while the packages go in,
# and put back before the tarball is made.
# shellcheck disable=SC2016 # the hooks' "$1" is mmdebstrap's root
no_initramfs='set -e
    chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs
    printf "#!/bin/sh\nexit 0\n" > "$1/usr/sbin/update-initramfs"
    chmod 755 "$1/usr/sbin/update-initramfs"'
# shellcheck disable=SC2016
with_initramfs='set -e
    rm "$1/usr/sbin/update-initramfs"
    chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs
    ! ls "$1"/boot/initrd.img-* 2>/dev/null'
# /boot/firmware exists for raspi-firmware's hooks; build-image.sh runs them again with a
# mount point there (they skip a plain directory), once its files are in place.
# shellcheck disable=SC2016 # the hooks' "$1" is mmdebstrap's root
# --format=tar: mmdebstrap tells the format from the name, and "….tar.partial" made a
# directory, which the image's `tar -x` then could not read
# eatmydata: dpkg without fsync (mmdebstrap's own hook; it fetches eatmydata from the archive
# and takes it out again at the end): the root is a tarball, written once, not a live system.
mmdebstrap --arch=arm64 --variant=apt --format=tar --components=main,non-free-firmware \
    --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
    --include="$packages" \
    --setup-hook='mkdir -p "$1/boot/firmware"' \
    --essential-hook="$no_initramfs" \
    --customize-hook="$with_initramfs" \
    --customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname"' \
    "$suite" "$tar.partial" "$mirror" >&2
mv "$tar.partial" "$tar"
# older roots of other package lists are of no further use
find "$cache" -maxdepth 1 -name "debian-root-*-arm64-*.tar" ! -name "${tar##*/}" -exec rm -rf {} +
echo "root: built in $(( $(date +%s) - start )) s, $(du -h "$tar" | cut -f1)" >&2
echo "$tar"
