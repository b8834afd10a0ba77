#!/bin/sh
# Sign an update bundle (RAUC, verity format) of a kiosk system: the root file system image
# and the boot partition image that image-build/debian/build-image.sh made for the card's
# slot A, so a bundle and an image of the same build hold the same system. `make bundle`
# runs it through build-image.sh (KIOSK_BUNDLE); docs/updates.md says how an office signs.
#
# usage: bundle.sh OUT.raucb VERSION ROOTFS.ext4 BOOT.vfat
#
#   VERSION     APP+YYYYMMDD.HHMMSS (kiosk/updates/version.py), the same as the image's
#   ROOTFS.ext4 the root file system (RAUC grows it to the slot: resize=true)
#   BOOT.vfat   the boot partition (firmware, kernel, initramfs, config.txt, cmdline.txt;
#               RAUC's post-install handler makes its cmdline.txt the slot's own)
#
# Needs KIOSK_SIGNING_KEY and KIOSK_SIGNING_CERT (PEM files; the key never enters the
# repository or the image); with KIOSK_KEYRING the new bundle is verified against it.
# Needs rauc and mksquashfs (tools/debian-packages.txt).
set -eu

usage() {
    echo "usage: bundle.sh OUT.raucb VERSION ROOTFS.ext4 BOOT.vfat" >&2
    exit 2
}
[ $# -eq 4 ] || usage
out=$1
version=$2
rootfs=$3
boot=$4
here=$(cd "$(dirname "$0")" && pwd)
conf=$here/../systemd/rauc/system.conf

for tool in rauc mksquashfs; do
    command -v "$tool" >/dev/null || { echo "bundle: $tool is missing: apt install \$(cat tools/debian-packages.txt)" >&2; exit 2; }
done
case $out in *.raucb) ;; *) echo "bundle: $out must end in .raucb" >&2; exit 2 ;; esac
echo "$version" | grep -Eqx '[0-9]+(\.[0-9]+)*\+[0-9]{8}\.[0-9]{6}' \
    || { echo "bundle: '$version' is not a kiosk version (APP+YYYYMMDD.HHMMSS)" >&2; exit 2; }
for file in "$rootfs" "$boot"; do
    [ -s "$file" ] || { echo "bundle: no $file" >&2; exit 2; }
done
key=${KIOSK_SIGNING_KEY:-}
cert=${KIOSK_SIGNING_CERT:-}
if [ -z "$key" ] || [ -z "$cert" ] || [ ! -f "$key" ] || [ ! -f "$cert" ]; then
    echo "bundle: KIOSK_SIGNING_KEY and KIOSK_SIGNING_CERT must name the signing key and its certificate" >&2
    exit 2
fi
compatible=$(sed -n 's/^compatible=//p' "$conf" | head -n 1)
[ -n "$compatible" ] || { echo "bundle: no compatible in $conf" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/kiosk-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/content"
# the images by hard link where they can be (same file system), else copied sparse
ln "$rootfs" "$work/content/rootfs.ext4" 2>/dev/null || cp --sparse=always "$rootfs" "$work/content/rootfs.ext4"
ln "$boot" "$work/content/boot.vfat" 2>/dev/null || cp --sparse=always "$boot" "$work/content/boot.vfat"
app=${version%%+*}
built=${version#*+}
cat > "$work/content/manifest.raucm" <<MANIFEST
[update]
compatible=$compatible
version=$version
description=Solitaire kiosk $app (Debian trixie arm64), built $built UTC
build=$built

[bundle]
format=verity

[image.rootfs]
filename=rootfs.ext4

[image.boot]
filename=boot.vfat
MANIFEST
rm -f "$out"
mkdir -p "$(dirname "$out")"
# RAUC checks the new signature against the keyring, when one is given, with the kiosk's
# rules (certificates for code signing only: system.conf's check-purpose)
verify=
if [ -n "${KIOSK_KEYRING:-}" ]; then
    printf '%s\n' "[system]" "compatible=$compatible" "bootloader=noop" "[keyring]" \
        "path=$(cd "$(dirname "$KIOSK_KEYRING")" && pwd)/$(basename "$KIOSK_KEYRING")" \
        "check-purpose=codesign" > "$work/verify.conf"
    verify="--conf=$work/verify.conf"
fi
# zstd: the kernel reads it fast, and a root image's empty blocks cost nothing. Level 3, not
# the default 15: the root's squashfs took 58 s instead of about 8 min on the loaded 2-core
# test machine, and was 360 MiB against 345 at level 9 (docs/benchmarks.md, "Updates")
rauc ${verify:+"$verify"} bundle --cert="$cert" --key="$key" \
    ${KIOSK_KEYRING:+--keyring="$KIOSK_KEYRING"} \
    --mksquashfs-args="-comp zstd -Xcompression-level 3 -b 1M" "$work/content" "$out"
echo "bundle: $out ($version, $(du -h --apparent-size "$out" | cut -f1))"
