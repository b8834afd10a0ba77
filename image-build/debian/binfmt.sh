#!/bin/sh
# Make sure this machine runs aarch64 programs (the image's root is arm64): on an arm64 host
# nothing to do; elsewhere binfmt_misc with Debian's qemu-user-static handler, registered here
# when it is not yet. Exits 1 with the reason when that cannot be done.
#
# usage: binfmt.sh
set -eu

case $(uname -m) in aarch64 | arm64) exit 0 ;; esac
dir=/proc/sys/fs/binfmt_misc
conf=/usr/lib/binfmt.d/qemu-aarch64.conf
fail() { echo "binfmt: $*" >&2; exit 1; }

[ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null \
    || fail "binfmt_misc cannot be mounted (needs root)"
[ "$(cat "$dir/status")" = enabled ] || fail "binfmt_misc is disabled on this machine"
for handler in "$dir"/qemu-aarch64*; do
    [ -e "$handler" ] && head -n 1 "$handler" | grep -q enabled && exit 0
done
[ -f "$conf" ] || fail "$conf is missing (apt install qemu-user-static)"
cat "$conf" > "$dir/register" || fail "cannot register the aarch64 handler"
