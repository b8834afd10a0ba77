#!/bin/sh
# A quiet boot on the kiosk's screen, for the Pi's boot partition: kernel and systemd messages
# on tty3 instead of the kiosk's tty1, no logo, no blinking cursor, no console blanking, no
# "resize" (the root keeps its size: the play log's partition comes after it, and the root is
# never written once sealed), no rainbow splash. The image's build runs it.
#
# usage: quiet-boot.sh CMDLINE_TXT CONFIG_TXT
set -eu

cmdline=${1:?usage: quiet-boot.sh CMDLINE_TXT CONFIG_TXT}
configtxt=${2:?usage: quiet-boot.sh CMDLINE_TXT CONFIG_TXT}

sed -i -e 's/ resize\b//' -e 's/console=tty1/console=tty3/' "$cmdline"
for param in quiet loglevel=3 logo.nologo vt.global_cursor_default=0 consoleblank=0; do
    grep -qw -- "$param" "$cmdline" || sed -i "1s/\$/ $param/" "$cmdline"
done
grep -q '^disable_splash=1' "$configtxt" \
    || printf '\n# Solitaire kiosk: no rainbow splash at power-on\ndisable_splash=1\n' >> "$configtxt"
