#!/bin/sh
# Run a command chrooted in an arm64 root on the build host (QEMU user emulation through
# binfmt_misc, see binfmt.sh), with /proc, /dev and /sys and the root's /boot/firmware as a
# mount point, all in a private mount namespace: the mounts go away with the command, however
# it ends. Debian's raspi-firmware hooks only fill /boot/firmware when it is a mount point.
#
# usage: in-root.sh ROOT COMMAND [ARG...]
set -eu

[ $# -ge 2 ] || { echo "usage: in-root.sh ROOT COMMAND [ARG...]" >&2; exit 2; }
root=$1
[ -x "$root/bin/sh" ] || { echo "in-root: $root is not a root file system" >&2; exit 2; }
# shellcheck disable=SC2016 # the inner script's own variables
exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 TMPDIR=/tmp DEBIAN_FRONTEND=noninteractive ${PIP_CERT:+PIP_CERT=$PIP_CERT} \
    ${INSTALL_APP_NO_COMPILE:+INSTALL_APP_NO_COMPILE=$INSTALL_APP_NO_COMPILE} \
    ${INSTALL_APP_OFFLINE:+INSTALL_APP_OFFLINE=$INSTALL_APP_OFFLINE} \
    unshare --mount --propagation private --fork -- sh -c '
        set -e; r=$1; shift
        mount -t proc proc "$r/proc"
        mount --rbind /dev "$r/dev"
        mount -t sysfs -o ro sysfs "$r/sys"
        mkdir -p "$r/boot/firmware"
        mount --bind "$r/boot/firmware" "$r/boot/firmware"
        exec chroot "$r" "$@"' sh "$@"
