#!/bin/sh
# Inside the image's root (a chroot at build time, from both image builds): the kiosk user,
# its directories, the config's group, and which units start at boot. install-files.sh has
# put the files in place before.
#
# usage: setup-in-root.sh
set -eu

systemd-sysusers
systemd-tmpfiles --create /etc/tmpfiles.d/solitaire-kiosk.conf
chown root:kiosk /etc/solitaire-kiosk/config.toml
systemctl enable solitaire-kiosk.service solitaire-kiosk-seal.service solitaire-kiosk-sync.timer \
    solitaire-kiosk-sync.path
# Updates (docs/updates.md): the app's install and restart requests, and the commit of a
# slot on trial at every boot.
systemctl enable solitaire-kiosk-update.path solitaire-kiosk-commit.service \
    solitaire-kiosk-trial.timer
# The network and the clock (docs/fleet.md, "Network"): DHCP, DNS, NTP; Wi-Fi and the node
# exporter start only when the operator turns them on (wifi.conf on the data partition,
# [fleet] node_exporter_port), so nothing listens on a port by default. Debian's own
# exporter unit is masked: ours runs the same binary with only the operator's port.
systemctl enable systemd-networkd.service systemd-resolved.service systemd-timesyncd.service \
    solitaire-kiosk-wifi.service solitaire-kiosk-node-exporter.service
systemctl mask prometheus-node-exporter.service
# No login prompt on the screen at boot; the kiosk's maintenance console starts it.
systemctl disable getty@tty1.service
