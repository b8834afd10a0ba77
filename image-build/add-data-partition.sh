#!/usr/bin/env bash
# Append the play log's partition to the kiosk's image (image-build/debian/build-image.sh): an
# ext4 file system labelled "kiosk-data" after the root partition, mounted at /var/lib/solitaire-kiosk (the stage's
# fstab line). The root stays read-only under its RAM overlay; only this partition is
# written, so a power cut can at worst lose the last play, never the system.
#
# usage: add-data-partition.sh IMAGE [SIZE_MIB]      (default 1024 MiB)
#
# Works on the image file itself (sfdisk, and mke2fs at an offset): no loop device, no root.
set -euo pipefail

img=${1:?usage: add-data-partition.sh IMAGE [SIZE_MIB]}
mib=${2:-1024}
label=kiosk-data
align=$((8 * 1024 * 1024))   # the image aligns its partitions to 8 MiB

for tool in sfdisk mke2fs truncate; do
    command -v "$tool" >/dev/null || { echo "add-data-partition: $tool is missing" >&2; exit 1; }
done
if ! [[ $mib =~ ^[0-9]+$ ]] || [ "$mib" -lt 16 ]; then
    echo "add-data-partition: SIZE_MIB must be a number of MiB, at least 16" >&2
    exit 2
fi

parts=$(sfdisk --dump "$img" | grep -c 'start=' || true)
if [ "$parts" -ne 2 ]; then
    echo "add-data-partition: $img has $parts partitions, expected 2 (boot, root)" >&2
    exit 1
fi

size=$(stat -c %s "$img")
start=$(( (size + align - 1) / align * align ))
bytes=$((mib * 1024 * 1024))
truncate -s $((start + bytes)) "$img"
echo "start=$((start / 512)), size=$((bytes / 512)), type=83" \
    | sfdisk --append --no-reread --no-tell-kernel --quiet "$img"
mke2fs -q -F -t ext4 -L "$label" -E "offset=$start" "$img" "$((bytes / 1024))k"
echo "add-data-partition: partition 3 ($label, $mib MiB) added to $img"
