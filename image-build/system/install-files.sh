#!/bin/sh
# Put the kiosk's system files into an image's root file system, from the build host:
# systemd/ (units, helpers, the memory-limit generator, udev rule, sysusers, tmpfiles,
# sysctl and the logind, journald, system drop-ins, polkit rule), the config, the play
# log's fstab line, and the keyboard traps a visitor with a USB keyboard could spring
# (Ctrl+Alt+Del is masked here; SysRq is off through sysctl.d). Both image builds run this
# one script (pi-gen's stage-kiosk/01-system and image-build/debian/build-image.sh), so the
# two images cannot drift apart.
#
# usage: install-files.sh ROOT SYSTEMD_DIR CONFIG
#
# Needs no chroot and no target tools, so the unit-file checks run it into a scratch root
# (tests/platform/test_units.py). What must run inside the root is setup-in-root.sh.
set -eu

root=${1:?usage: install-files.sh ROOT SYSTEMD_DIR CONFIG}
sd=${2:?usage: install-files.sh ROOT SYSTEMD_DIR CONFIG}
config=${3:?usage: install-files.sh ROOT SYSTEMD_DIR CONFIG}
libexec=/usr/local/libexec/solitaire-kiosk
etc=$root/etc

[ -d "$etc" ] || { echo "install-files: $root has no /etc: not a root file system" >&2; exit 2; }
[ -f "$sd/solitaire-kiosk.service" ] || { echo "install-files: $sd is not the systemd/ directory" >&2; exit 2; }
[ -f "$config" ] || { echo "install-files: no config file $config" >&2; exit 2; }

install -d "$root$libexec" "$etc/systemd/system"
install -m 755 "$sd"/libexec/* "$root$libexec/"
# the kiosk's memory limits, sized from the board's RAM at each boot (docs/platform.md)
install -D -m 755 -t "$etc/systemd/system-generators" "$sd"/system-generators/*
install -m 644 "$sd"/*.service "$sd"/*.timer "$sd"/*.path "$etc/systemd/system/"
install -D -m 644 "$sd/90-solitaire-kiosk-usb.rules" "$etc/udev/rules.d/90-solitaire-kiosk-usb.rules"
install -D -m 644 -t "$etc/sysusers.d" "$sd"/sysusers.d/*.conf
install -D -m 644 -t "$etc/tmpfiles.d" "$sd"/tmpfiles.d/*.conf
install -D -m 644 -t "$etc/sysctl.d" "$sd"/sysctl.d/*.conf
install -D -m 644 -t "$etc/systemd/logind.conf.d" "$sd"/logind.conf.d/*.conf
install -D -m 644 -t "$etc/systemd/journald.conf.d" "$sd"/journald.conf.d/*.conf
install -D -m 644 -t "$etc/systemd/system.conf.d" "$sd"/system.conf.d/*.conf
install -D -m 644 -t "$etc/polkit-1/rules.d" "$sd"/polkit-1/*.rules
# The network (docs/fleet.md, "Network"): Ethernet and Wi-Fi by DHCP through
# systemd-networkd, names through systemd-resolved with nothing listening.
install -D -m 644 -t "$etc/systemd/network" "$sd"/network/*.network
install -D -m 644 -t "$etc/systemd/resolved.conf.d" "$sd"/resolved.conf.d/*.conf
install -D -m 640 "$config" "$etc/solitaire-kiosk/config.toml"
# Updates (docs/updates.md): RAUC's configuration, and its service's mounts. The keyring (the
# office's CA certificate) is the image build's to add: /etc/rauc/keyring.pem.
install -D -m 644 "$sd/rauc/system.conf" "$etc/rauc/system.conf"
install -D -m 644 -t "$etc/systemd/system/rauc.service.d" "$sd"/rauc.service.d/*.conf

# Ctrl+Alt+Del: systemd starts ctrl-alt-del.target (a reboot) when the kernel passes the
# keys on; masked, the keys do nothing (and CtrlAltDelBurstAction=none in system.conf.d stops
# the "7 presses in 2 s" forced reboot). A mask is this symlink; `systemctl mask` makes the
# same, but this needs no systemd of the target's version on the build host.
ln -sfn /dev/null "$etc/systemd/system/ctrl-alt-del.target"

# The play log's partition (image-build/add-data-partition.sh). "nofail": a broken partition
# must not keep the games from starting (the log then falls back, see kiosk/settings/config.py).
# No x-systemd.device-timeout: systemd's DefaultDeviceTimeoutSec (90 s) on the Pi, and a
# boot under emulation raises it on the kernel command line (systemd.default_device_timeout_sec,
# tests/platform/qemu_machine.py): udev under TCG named the partitions after more than a minute,
# and 20 s (then 90 s) fixed here timed out. The kiosk waits for this mount (After=), so only
# a missing partition costs the wait.
touch "$etc/fstab"
if ! grep -q 'LABEL=kiosk-data' "$etc/fstab"; then
    echo "LABEL=kiosk-data  /var/lib/solitaire-kiosk  ext4  defaults,noatime,nofail  0  2" >> "$etc/fstab"
fi
