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
# No login prompt on the screen at boot; the kiosk's maintenance console starts it.
systemctl disable getty@tty1.service
