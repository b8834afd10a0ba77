#!/usr/bin/env bash
# Build the kiosk's SD-card image from Debian's own archive (no Docker, no Raspberry Pi
# archive): a trixie arm64 root with Debian's kernel and the Pi's boot firmware, laid out as
# Debian's own Raspberry Pi images are, with the kiosk's units, users, sysctl, read-only root
# and app installed by the scripts of image-build/ (system/, install-app.sh,
# add-data-partition.sh).
#
#   image-build/debian/build-image.sh [OUT]      (`make image`; OUT default
#                                                 build/solitaire-kiosk-arm64.img)
#
# The disk: a DOS partition table; 1 FAT32 "RASPIFIRM" (the Pi firmware, config.txt,
# cmdline.txt, the device trees, the kernel and initramfs, as Debian's raspi-firmware hooks
# write them), 2 ext4 "RASPIROOT" (the root, read-only after the first boot), 3 ext4
# "kiosk-data" (the play log). The file systems are made from directories (mke2fs -d,
# mkfs.vfat + mcopy) and put in place with dd: no loop device is needed.
#
# Needs root, mmdebstrap, e2fsprogs, dosfstools, mtools, fdisk, util-linux, python3 with pip,
# and on a non-arm64 machine qemu-user-static (all in tools/debian-packages.txt), and the
# network (Debian's archive, PyPI for the app's aarch64 wheels and lgpio's sdist, all
# fetched on the host).
#
# Options (environment variables):
#   KIOSK_CONFIG=my-config.toml   the kiosk's config (default: config.example.toml)
#   KIOSK_DATA_MIB=1024           size of the play log's partition
#   KIOSK_HOSTNAME=solitaire-kiosk
#   KIOSK_FRESH=1                 build the Debian root and lgpio's wheel again even when cached
#   KIOSK_CACHE=DIR               where the root and lgpio's wheel are cached (root.sh,
#                                 lgpio-wheel.sh)
#   KIOSK_WORK=DIR                scratch (default build/image-work; removed at the end)
#   KIOSK_KEEP_ROOT=DIR           keep the finished root there (its /boot/firmware emptied
#                                 into the boot partition): `make test` runs the app in it
#                                 under user emulation (tests/platform/test_arm64_root.py)
#   PYTHON=python3                the Python that builds the app's wheel
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(dirname "$here")
repo=$(dirname "$build")
out=${1:-$repo/build/solitaire-kiosk-arm64.img}
work=${KIOSK_WORK:-$repo/build/image-work}
python=${PYTHON:-python3}
config=${KIOSK_CONFIG:-$repo/config.example.toml}
data_mib=${KIOSK_DATA_MIB:-1024}
host=${KIOSK_HOSTNAME:-solitaire-kiosk}
boot_mib=512
root_label=RASPIROOT
boot_label=RASPIFIRM

start=$(date +%s)
say() { printf '\n==> [%s s] %s\n' "$(( $(date +%s) - start ))" "$*"; }
die() { printf 'build-image: %s\n' "$*" >&2; exit 2; }

[ "$(id -u)" = 0 ] || die "needs root (chroot, mounts in a private namespace)"
for tool in mmdebstrap mke2fs mkfs.vfat mcopy mmd sfdisk unshare chroot tar; do
    command -v "$tool" >/dev/null || die "$tool is missing: apt install \$(cat tools/debian-packages.txt)"
done
[ -f "$config" ] || die "no config file $config"
if ! [[ $data_mib =~ ^[0-9]+$ ]] || [ "$data_mib" -lt 16 ]; then
    die "KIOSK_DATA_MIB must be a number of MiB, at least 16"
fi
[[ $host =~ ^[a-z0-9][a-z0-9-]{0,62}$ ]] || die "KIOSK_HOSTNAME must be a host name (a-z, 0-9, -)"
root=$work/root
rm -rf "$work"
mkdir -p "$work" "$(dirname "$out")"
trap 'rm -rf "$work"' EXIT

say "1/6 the Debian arm64 root (cached when built before)"
tarball=$("$here/root.sh")
mkdir "$root"
tar -C "$root" --numeric-owner -xpf "$tarball"

say "2/6 the app's wheel, its dependencies' aarch64 wheels, lgpio's"
# from a clean copy: setuptools would also pack what an old build left in build/
mkdir -p "$work/src" "$work/wheels"
tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude=./image-build/work --exclude=./image-build/deploy \
    -cf - . | tar -C "$work/src" -xf -
PIP_CONFIG_FILE=/dev/null "$python" -m pip wheel --no-deps --quiet --wheel-dir "$work/wheels" "$work/src"
# The dependencies for the root's Python and C library, fetched here by the host's own pip
# (native speed, the host's network and CAs) from PyPI only: the install in the root then
# needs no network at all.
pyver=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Version}' python3 \
    | sed -n 's/^\(3\.[0-9]*\).*/\1/p')
[ -n "$pyver" ] || die "cannot tell the root's Python version"
glibc_minor=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Version}' libc6 \
    | sed -n 's/^2\.\([0-9]*\).*/\1/p')
[[ $glibc_minor =~ ^[0-9]+$ ]] || die "cannot tell the root's glibc version"
platforms=(--platform manylinux2014_aarch64)
for minor in $(seq 17 "$glibc_minor"); do platforms+=(--platform "manylinux_2_${minor}_aarch64"); done
PIP_CONFIG_FILE=/dev/null "$python" -m pip download --quiet --disable-pip-version-check \
    --only-binary=:all: --implementation cp --python-version "$pyver" \
    --abi "cp${pyver/./}" "${platforms[@]}" --dest "$work/wheels" "$work"/wheels/solitaire_kiosk-*.whl pip
rm -f "$work"/wheels/solitaire_kiosk-*.whl.metadata
# lgpio, the buttons' pin factory: built for this Python in a throwaway root, and cached
lgpio=$(PYTHON=$python "$here/lgpio-wheel.sh" "$pyver")
cp "$lgpio" "$work/wheels/"
echo "wheels for CPython $pyver aarch64 (glibc 2.$glibc_minor): $(find "$work/wheels" -name '*.whl' -printf '%f ')"

say "3/6 the app (image-build/install-app.sh, in the root, under emulation, offline)"
kit=$root/tmp/solitaire-kiosk-install
mkdir -p "$kit/wheels" "$root/opt/solitaire-kiosk/docs"
cp "$work"/wheels/*.whl "$kit/wheels/"
cp "$build/install-app.sh" "$kit/"
"$here/in-root.sh" "$root" sh /tmp/solitaire-kiosk-install/install-app.sh \
    /tmp/solitaire-kiosk-install/wheels /opt/solitaire-kiosk
install -m 644 "$repo"/docs/*.md "$root/opt/solitaire-kiosk/docs/"
rm -rf "$kit"

say "4/6 the kiosk's system (image-build/system/)"
sh "$build/system/install-files.sh" "$root" "$repo/systemd" "$config"
install -m 755 "$build/system/setup-in-root.sh" "$root/tmp/setup-in-root.sh"
"$here/in-root.sh" "$root" sh /tmp/setup-in-root.sh
rm -f "$root/tmp/setup-in-root.sh"
echo "$host" > "$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    "$host" > "$root/etc/hosts"
# the root and the boot partition, by label as in Debian's raspi images (no device timeout
# of its own, as for the play log's: install-files.sh says why)
sed -i '/^# UNCONFIGURED FSTAB/d' "$root/etc/fstab"
{
    echo "LABEL=$root_label  /  ext4  rw,noatime  0  1"
    echo "LABEL=$boot_label  /boot/firmware  vfat  rw,noatime,nofail  0  2"
    cat "$root/etc/fstab"
} > "$work/fstab"
mv "$work/fstab" "$root/etc/fstab"
# systemd-firstboot would ask for a locale, a time zone and a root password on the first
# boot, on the kiosk's screen: the answers are given here (C.UTF-8, UTC) and it is masked.
echo "LANG=C.UTF-8" > "$root/etc/locale.conf"
ln -sfn /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"
ln -sfn /dev/null "$root/etc/systemd/system/systemd-firstboot.service"
# No root password (locked), no user that can log in, no SSH server: the screen is the
# kiosk's and nothing else listens.
"$here/in-root.sh" "$root" passwd --lock root >/dev/null

say "5/6 the boot partition (Debian's raspi-firmware hooks)"
# raspi-firmware writes cmdline.txt from these: the root by label, no serial console (the Pi's
# UART pins are free), then quiet-boot.sh makes the kernel and systemd quiet on tty3.
# CMA=0: no cma= on the command line; the hook adds cma=64M when it does not run on a Pi 4,
# and that setting keeps a Pi 4 from booting (its own comment says so).
{
    echo "ROOTPART=LABEL=$root_label"
    echo 'CONSOLES="tty1"'
    echo 'CMA=0'
} >> "$root/etc/default/raspi-firmware"
# The root has no initramfs yet (root.sh says why); it is made here, once, with overlayroot's
# hook and the modules of both the Pi and QEMU's virt machine, and with what overlayroot's
# script needs of a busybox initramfs: overlayroot-tools.hook adds the root's own grep, sed,
# coreutils and util-linux mount (a hook of the image, so the cached root and its key stay
# as they are). raspi-firmware's kernel hook, run again with the settings above,
# copies the device trees, the kernel and the initramfs next to the firmware (its package put
# that there) and writes config.txt and cmdline.txt. `update-initramfs -u` on the Pi runs the
# same hooks.
install -D -m 755 "$here/overlayroot-tools.hook" "$root/etc/initramfs-tools/hooks/overlayroot-tools"
"$here/in-root.sh" "$root" update-initramfs -c -k all
initrd_list=$("$here/in-root.sh" "$root" sh -c 'lsinitramfs /boot/initrd.img-*')
# a here-string, not `printf | grep -q`: grep -q leaves at the first match, the printf of a
# list longer than a pipe holds then dies of SIGPIPE, and pipefail took that for "not there"
for prog in grep sed mount mktemp; do
    grep -qx "usr/bin/$prog" <<<"$initrd_list" \
        || die "the initramfs has no /usr/bin/$prog: overlayroot could not seal the root"
done
"$here/in-root.sh" "$root" env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware
for file in cmdline.txt config.txt start4.elf fixup4.dat bcm2711-rpi-4-b.dtb; do
    [ -s "$root/boot/firmware/$file" ] || die "raspi-firmware did not write /boot/firmware/$file"
done
sh "$build/system/quiet-boot.sh" "$root/boot/firmware/cmdline.txt" "$root/boot/firmware/config.txt"
echo "cmdline.txt: $(cat "$root/boot/firmware/cmdline.txt")"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/*

say "6/6 the disk"
boot_img=$work/boot.img
root_img=$work/root.img
mkfs.vfat -F 32 -n "$boot_label" -C "$boot_img" $((boot_mib * 1024)) >/dev/null
mcopy -s -p -i "$boot_img" "$root"/boot/firmware/* ::
rm -rf "${root:?}"/boot/firmware/*
# the root's size: what it holds plus a quarter (and 256 MiB) for updates made in maintenance
used_mib=$(du -s --block-size=1M "$root" | cut -f1)
root_mib=$(( (used_mib * 5 / 4 + 256 + 7) / 8 * 8 ))
mke2fs -q -F -t ext4 -L "$root_label" -d "$root" "$root_img" "${root_mib}M"
boot_start_mib=8
root_start_mib=$((boot_start_mib + boot_mib))
rm -f "$out"
truncate -s $(( (root_start_mib + root_mib) * 1024 * 1024 )) "$out"
printf 'label: dos\nstart=%sMiB, size=%sMiB, type=c, bootable\nstart=%sMiB, size=%sMiB, type=83\n' \
    "$boot_start_mib" "$boot_mib" "$root_start_mib" "$root_mib" \
    | sfdisk --no-reread --no-tell-kernel --quiet "$out"
dd if="$boot_img" of="$out" bs=1M seek="$boot_start_mib" conv=notrunc,sparse status=none
dd if="$root_img" of="$out" bs=1M seek="$root_start_mib" conv=notrunc,sparse status=none
bash "$build/add-data-partition.sh" "$out" "$data_mib"
if [ -n "${KIOSK_KEEP_ROOT:-}" ]; then
    rm -rf "$KIOSK_KEEP_ROOT"
    mkdir -p "$(dirname "$KIOSK_KEEP_ROOT")"
    mv "$root" "$KIOSK_KEEP_ROOT"
fi
sfdisk --dump "$out"
say "done in $(( $(date +%s) - start )) s: $out ($(du -h --apparent-size "$out" | cut -f1), $(du -h "$out" | cut -f1) on disk)"
echo "Flash it: sudo dd if=$out of=/dev/sdX bs=4M conv=fsync status=progress"
