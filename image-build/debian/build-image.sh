#!/usr/bin/env bash
# Build the kiosk's SD-card image from Debian's own archive (no Docker, no Raspberry Pi
# archive): a trixie arm64 root with Debian's kernel and the Pi's boot firmware, laid out as
# Debian's own Raspberry Pi images are, with the kiosk's units, users, sysctl, read-only root
# and app installed by the same scripts as the pi-gen build (image-build/system/,
# image-build/install-app.sh, image-build/add-data-partition.sh).
#
#   image-build/debian/build-image.sh [OUT]      (`make image`; OUT default
#                                                 build/solitaire-kiosk-arm64.img)
#
# The card, in A/B slots for updates (docs/updates.md, "The card"): an MBR partition table
# with the disk identifier 6b696f73 (every card the same: /etc/rauc/system.conf names the
# slots by PARTUUID); 1 FAT32 "bootfs" (autoboot.txt, which the Pi 4/5 bootloader reads
# first, and the operator's solitaire-kiosk.toml), 2 and 3 FAT32 the boot partitions of slots
# A and B (the Pi firmware, config.txt, cmdline.txt, device trees, kernel and initramfs, as
# Debian's raspi-firmware hooks write them), 4 the extended partition holding 5 and 6, the
# ext4 roots of slots A and B (read-only after the first boot), and 7 ext4 "kiosk-data" (the
# play log; no update touches it). Slot A holds this build; slot B is empty until the first
# update. The file systems are made from directories (mke2fs -d, mkfs.vfat + mcopy) and put
# in place with dd: no loop device is needed. With KIOSK_BUNDLE the same root and boot
# partition are also signed as an update bundle (image-build/bundle.sh; `make bundle`).
#
# Needs root, mmdebstrap, e2fsprogs, dosfstools, mtools, fdisk, util-linux, python3 with pip,
# rauc and squashfs-tools (a bundle), and on a non-arm64 machine qemu-user-static (all in
# tools/debian-packages.txt), and the network (Debian's archive, PyPI for the app's aarch64
# wheels, both fetched on the host).
#
# Options (environment variables):
#   KIOSK_KEYRING=ca.cert.pem     the CA certificate that signs the kiosk's updates (required:
#                                 `make image` makes a development one in build/keys/)
#   KIOSK_BUNDLE=out.raucb        also sign the build as an update bundle, with
#   KIOSK_SIGNING_KEY=key.pem     ... this key and
#   KIOSK_SIGNING_CERT=cert.pem   ... its certificate (issued by the keyring's CA)
#   KIOSK_VERSION=0.1.0+20251206.221530   the system's version (default: the app's version
#                                 and the build's UTC time; kiosk/updates/version.py)
#   KIOSK_CONFIG=my-config.toml   the kiosk's config (default: config.example.toml)
#   KIOSK_DATA_MIB=2048           size of the play log's partition (a downloaded bundle
#                                 waits there too)
#   KIOSK_SLOT_MIB=2560           size of each root slot
#   KIOSK_HOSTNAME=solitaire-kiosk
#   KIOSK_FRESH=1                 build the Debian root again even when it is cached
#   KIOSK_CACHE=DIR               where the root is cached (see root.sh)
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
data_mib=${KIOSK_DATA_MIB:-2048}
slot_mib=${KIOSK_SLOT_MIB:-2560}
host=${KIOSK_HOSTNAME:-solitaire-kiosk}
keyring=${KIOSK_KEYRING:-}
bundle=${KIOSK_BUNDLE:-}
# the card (docs/updates.md, "The card"); the disk identifier is /etc/rauc/system.conf's
disk_id=6b696f73
align_mib=8
bootfs_mib=64
boot_mib=256
root_label=RASPIROOT
boot_label=KIOSKBOOT
bootfs_label=bootfs

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
if ! [[ $slot_mib =~ ^[0-9]+$ ]] || [ "$slot_mib" -lt 1024 ]; then
    die "KIOSK_SLOT_MIB must be a number of MiB, at least 1024"
fi
[ -f "${keyring:-/nonexistent}" ] \
    || die "KIOSK_KEYRING must name the CA certificate of the update signing key (\`make image\` makes a development one: build/keys/ca.cert.pem)"
grep -q -- "-----BEGIN CERTIFICATE-----" "$keyring" || die "$keyring is not a PEM certificate"
if [ -n "$bundle" ]; then
    for tool in rauc mksquashfs; do
        command -v "$tool" >/dev/null || die "$tool is missing: apt install \$(cat tools/debian-packages.txt)"
    done
    if ! [ -f "${KIOSK_SIGNING_KEY:-/nonexistent}" ] || ! [ -f "${KIOSK_SIGNING_CERT:-/nonexistent}" ]; then
        die "KIOSK_BUNDLE needs KIOSK_SIGNING_KEY and KIOSK_SIGNING_CERT"
    fi
fi
app_version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$repo/kiosk/__init__.py")
version=${KIOSK_VERSION:-$app_version+$(date -u +%Y%m%d.%H%M%S)}
[[ $version =~ ^[0-9]+(\.[0-9]+)*\+[0-9]{8}\.[0-9]{6}$ ]] \
    || die "the version '$version' is not APP+YYYYMMDD.HHMMSS"
echo "building version $version"
root=$work/root
rm -rf "$work"
mkdir -p "$work" "$(dirname "$out")"
trap 'rm -rf "$work"' EXIT

say "1/6 the Debian arm64 root (cached when built before)"
tarball=$("$here/root.sh")
mkdir "$root"
tar -C "$root" --numeric-owner -xpf "$tarball"

say "2/6 the app's wheel and its dependencies' aarch64 wheels"
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
echo "wheels for CPython $pyver aarch64 (glibc 2.$glibc_minor): $(find "$work/wheels" -name '*.whl' -printf '%f ')"

say "3/6 the app (image-build/install-app.sh, in the root, under emulation, offline)"
kit=$root/tmp/solitaire-kiosk-install
mkdir -p "$kit/wheels" "$root/opt/solitaire-kiosk/docs"
cp "$work"/wheels/*.whl "$kit/wheels/"
cp "$build/install-app.sh" "$kit/"
INSTALL_APP_OFFLINE=1 "$here/in-root.sh" "$root" sh /tmp/solitaire-kiosk-install/install-app.sh \
    /tmp/solitaire-kiosk-install/wheels /opt/solitaire-kiosk
install -m 644 "$repo"/docs/*.md "$root/opt/solitaire-kiosk/docs/"
rm -rf "$kit"

say "4/6 the kiosk's system (image-build/system/, as in the pi-gen stage)"
sh "$build/system/install-files.sh" "$root" "$repo/systemd" "$config"
install -m 755 "$build/system/setup-in-root.sh" "$root/tmp/setup-in-root.sh"
"$here/in-root.sh" "$root" sh /tmp/setup-in-root.sh
rm -f "$root/tmp/setup-in-root.sh"
echo "$host" > "$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    "$host" > "$root/etc/hosts"
# The root and /boot/firmware are the running slot's, so no fstab line can name them: each
# slot's cmdline.txt does (root=, systemd.mount-extra=; systemd/libexec/slot-cmdline). The
# bootfs partition is the card's own (no device timeout of its own, as for the play log's:
# install-files.sh says why).
sed -i '/^# UNCONFIGURED FSTAB/d' "$root/etc/fstab"
{
    echo "# / and /boot/firmware: the running slot's, named in its cmdline.txt (docs/updates.md)"
    echo "PARTUUID=$disk_id-01  /boot/bootfs  vfat  rw,noatime,nofail,flush  0  2"
    cat "$root/etc/fstab"
} > "$work/fstab"
mv "$work/fstab" "$root/etc/fstab"
mkdir -p "$root/boot/bootfs"
# Updates: the office's CA certificate is the only key the image holds (never a signing
# key), and the system's version is the image's os-release IMAGE_VERSION (a bundle of this
# build carries the same; kiosk/updates/version.py).
install -D -m 644 "$keyring" "$root/etc/rauc/keyring.pem"
os_release=$(readlink -f "$root/etc/os-release")
case $os_release in "$root"/*) ;; *) os_release=$root/usr/lib/os-release ;; esac
sed -i '/^IMAGE_ID=/d; /^IMAGE_VERSION=/d' "$os_release"
printf 'IMAGE_ID=solitaire-kiosk\nIMAGE_VERSION=%s\n' "$version" >> "$os_release"
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
# ROOTPART (this file is sourced): the running slot's own words (root=, rauc.slot=,
# /boot/firmware's mount; docs/updates.md), so that an `update-initramfs` in maintenance
# keeps the slot's cmdline.txt starting that slot. Here in the build it names the build
# host's root, which slot-cmdline replaces below.
{
    # shellcheck disable=SC2016 # for the hook to expand
    printf '%s\n' 'ROOTPART=$(tr " " "\n" < /proc/cmdline | sed -n -e "s/^root=//p" -e "/^rauc\.slot=/p" -e "/^systemd\.mount-extra=/p" | paste -sd " " -)'
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

say "6/6 the card (A/B slots) and, with KIOSK_BUNDLE, the update bundle"
# The boot partition of a slot, from raspi-firmware's files: slot A's gets A's cmdline.txt;
# the bundle's keeps the generic one (RAUC's post-install handler writes its slot's).
boot_img=$work/boot.vfat
mkfs.vfat -F 32 -s 2 -n "$boot_label" -C "$boot_img" $((boot_mib * 1024)) >/dev/null
mcopy -s -p -i "$boot_img" "$root"/boot/firmware/* ::
boot_a=$work/boot-a.vfat
cp --sparse=always "$boot_img" "$boot_a"
cp "$root/boot/firmware/cmdline.txt" "$work/cmdline-a.txt"
sh "$repo/systemd/libexec/slot-cmdline" "$work/cmdline-a.txt" A "$disk_id"
mcopy -o -i "$boot_a" "$work/cmdline-a.txt" ::cmdline.txt
echo "slot A cmdline.txt: $(cat "$work/cmdline-a.txt")"
boot_used_mib=$(du -s --block-size=1M "$root/boot/firmware" | cut -f1)
rm -rf "${root:?}"/boot/firmware/*
# slot B's boot partition: formatted and empty until the first update (a computer that is
# shown the card then sees a FAT partition, not one it offers to format)
boot_b=$work/boot-b.vfat
mkfs.vfat -F 32 -s 2 -n "$boot_label" -C "$boot_b" $((boot_mib * 1024)) >/dev/null
# bootfs: autoboot.txt committing slot A (written by RAUC's own backend, so its first commit
# rewrites it in place), and a note for whoever opens the card on a computer
bootfs_img=$work/bootfs.vfat
mkfs.vfat -F 32 -s 1 -n "$bootfs_label" -C "$bootfs_img" $((bootfs_mib * 1024)) >/dev/null
SOLITAIRE_KIOSK_AUTOBOOT=$work/autoboot.txt sh "$repo/systemd/libexec/rauc-tryboot" init A
printf '%s\r\n' "Solitaire kiosk $version" "" \
    "Put your settings here as solitaire-kiosk.toml (a copy of config.example.toml, edited);" \
    "the kiosk reads it at every start. Leave autoboot.txt as it is: it tells the Raspberry" \
    "Pi which of the two systems on this card to start. docs/updates.md, docs/operator-guide.md." \
    > "$work/README.txt"
mcopy -i "$bootfs_img" "$work/autoboot.txt" "$work/README.txt" ::
# The root: the file system of what the root holds (plus an eighth and 128 MiB), which is
# also the bundle's; the card's slot A is the same file system grown to the slot (RAUC grows
# an installed one the same way: resize=true).
used_mib=$(du -s --block-size=1M "$root" | cut -f1)
root_mib=$(( (used_mib * 9 / 8 + 128 + 7) / 8 * 8 ))
[ "$root_mib" -le "$slot_mib" ] || die "the root needs $root_mib MiB, more than a slot ($slot_mib MiB)"
rootfs_img=$work/rootfs.ext4
mke2fs -q -F -t ext4 -L "$root_label" -d "$root" "$rootfs_img" "${root_mib}M"
root_a=$work/root-a.ext4
cp --sparse=always "$rootfs_img" "$root_a"
e2fsck -p -f "$root_a" >/dev/null
resize2fs -p "$root_a" "${slot_mib}M" >/dev/null 2>&1 || die "resize2fs of slot A failed"

# The partitions, 8 MiB aligned; the logical ones (5-7) inside the extended 4, each after
# the sector of its own table link (EBR).
mib=$((1024 * 1024))
p1=$align_mib
p2=$((p1 + bootfs_mib))
p3=$((p2 + boot_mib))
p4=$((p3 + boot_mib))
p5=$((p4 + align_mib))
p6=$((p5 + slot_mib + align_mib))
p7=$((p6 + slot_mib + align_mib))
end=$((p7 + data_mib))
rm -f "$out"
truncate -s $((end * mib)) "$out"
{
    echo "label: dos"
    echo "label-id: 0x$disk_id"
    echo "unit: sectors"
    echo "start=$((p1 * 2048)), size=$((bootfs_mib * 2048)), type=c, bootable"
    echo "start=$((p2 * 2048)), size=$((boot_mib * 2048)), type=c"
    echo "start=$((p3 * 2048)), size=$((boot_mib * 2048)), type=c"
    echo "start=$((p4 * 2048)), size=$(((end - p4) * 2048)), type=5"
    echo "start=$((p5 * 2048)), size=$((slot_mib * 2048)), type=83"
    echo "start=$((p6 * 2048)), size=$((slot_mib * 2048)), type=83"
    echo "start=$((p7 * 2048)), size=$((data_mib * 2048)), type=83"
} | sfdisk --no-reread --no-tell-kernel --quiet "$out"
dd if="$bootfs_img" of="$out" bs=1M seek="$p1" conv=notrunc,sparse status=none
dd if="$boot_a" of="$out" bs=1M seek="$p2" conv=notrunc,sparse status=none
dd if="$boot_b" of="$out" bs=1M seek="$p3" conv=notrunc,sparse status=none
dd if="$root_a" of="$out" bs=1M seek="$p5" conv=notrunc,sparse status=none
mke2fs -q -F -t ext4 -L kiosk-data -E "offset=$((p7 * mib))" "$out" "$((data_mib * 1024))k"
rm -f "$boot_a" "$boot_b" "$root_a" "$bootfs_img"
echo "the card: bootfs $bootfs_mib MiB, boot A and B $boot_mib MiB each ($boot_used_mib used)," \
    "root A and B $slot_mib MiB each ($used_mib used), kiosk-data $data_mib MiB;" \
    "$end MiB in all (a 16 GB card has about 14,900 MiB)"
if [ -n "$bundle" ]; then
    KIOSK_KEYRING=$keyring sh "$build/bundle.sh" "$bundle" "$version" "$rootfs_img" "$boot_img"
fi
rm -f "$rootfs_img" "$boot_img"
if [ -n "${KIOSK_KEEP_ROOT:-}" ]; then
    rm -rf "$KIOSK_KEEP_ROOT"
    mkdir -p "$(dirname "$KIOSK_KEEP_ROOT")"
    mv "$root" "$KIOSK_KEEP_ROOT"
fi
sfdisk --dump "$out"
echo "version $version"
say "done in $(( $(date +%s) - start )) s: $out ($(du -h --apparent-size "$out" | cut -f1), $(du -h "$out" | cut -f1) on disk)"
echo "Flash it: sudo dd if=$out of=/dev/sdX bs=4M conv=fsync status=progress"
