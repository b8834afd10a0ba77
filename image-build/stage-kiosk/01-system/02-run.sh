#!/bin/bash -e
# Install systemd/ (units, helpers, rules, drop-ins) and the config, and make the system a
# kiosk: the app on tty1 and nothing else on the screen, a quiet boot, the play log's
# partition, no root file-system growth (the data partition follows the root).
# Runs on the build host; files/systemd and files/config.toml are put here by build.sh.

sd=files/systemd
libexec=/usr/local/libexec/solitaire-kiosk
etc="${ROOTFS_DIR}/etc"

install -d "${ROOTFS_DIR}${libexec}"
install -m 755 "${sd}"/libexec/* "${ROOTFS_DIR}${libexec}/"
install -m 644 "${sd}"/*.service "${sd}"/*.timer "${etc}/systemd/system/"
install -D -m 644 "${sd}/90-solitaire-kiosk-usb.rules" "${etc}/udev/rules.d/90-solitaire-kiosk-usb.rules"
install -D -m 644 -t "${etc}/sysusers.d" "${sd}"/sysusers.d/*.conf
install -D -m 644 -t "${etc}/tmpfiles.d" "${sd}"/tmpfiles.d/*.conf
install -D -m 644 -t "${etc}/sysctl.d" "${sd}"/sysctl.d/*.conf
install -D -m 644 -t "${etc}/systemd/logind.conf.d" "${sd}"/logind.conf.d/*.conf
install -D -m 644 -t "${etc}/systemd/journald.conf.d" "${sd}"/journald.conf.d/*.conf
install -D -m 644 -t "${etc}/systemd/system.conf.d" "${sd}"/system.conf.d/*.conf
install -D -m 644 -t "${etc}/polkit-1/rules.d" "${sd}"/polkit-1/*.rules
install -D -m 644 files/rpi-swap.conf "${etc}/rpi/swap.conf.d/50-solitaire-kiosk.conf"
install -D -m 640 files/config.toml "${etc}/solitaire-kiosk/config.toml"

# The play log's partition (image-build/add-data-partition.sh). "nofail": a broken partition
# must not keep the games from starting (the log then falls back, see kiosk/settings/config.py).
if ! grep -q 'LABEL=kiosk-data' "${etc}/fstab"; then
	echo "LABEL=kiosk-data  /var/lib/solitaire-kiosk  ext4  defaults,noatime,nofail,x-systemd.device-timeout=20s  0  2" >> "${etc}/fstab"
fi

# A quiet boot: kernel and systemd messages on tty3 instead of the kiosk's tty1, no logo, no
# blinking cursor, no console blanking. No "resize": the root keeps its size (the play log's
# partition comes after it) and is never written once sealed.
cmdline="${ROOTFS_DIR}/boot/firmware/cmdline.txt"
sed -i -e 's/ resize\b//' -e 's/console=tty1/console=tty3/' "${cmdline}"
for param in quiet loglevel=3 logo.nologo vt.global_cursor_default=0 consoleblank=0; do
	grep -qw -- "${param}" "${cmdline}" || sed -i "1s/\$/ ${param}/" "${cmdline}"
done
grep -q '^disable_splash=1' "${ROOTFS_DIR}/boot/firmware/config.txt" \
	|| printf '\n# Solitaire kiosk: no rainbow splash at power-on\ndisable_splash=1\n' \
		>> "${ROOTFS_DIR}/boot/firmware/config.txt"

on_chroot <<- CHROOT_END
	systemd-sysusers
	systemd-tmpfiles --create /etc/tmpfiles.d/solitaire-kiosk.conf
	chown root:kiosk /etc/solitaire-kiosk/config.toml
	systemctl enable solitaire-kiosk.service solitaire-kiosk-seal.service
	# no login prompt on the screen at boot; the kiosk's maintenance console starts it
	systemctl disable getty@tty1.service
	systemctl disable rpi-resize.service 2>/dev/null || true
	# Without KIOSK_ADMIN_PASSWORD the admin user has no password at all: SSH with a key only
	# (build.sh KIOSK_SSH_KEY), and no login on the maintenance console.
	if [ "${KIOSK_ADMIN_HAS_PASSWORD:-0}" != 1 ]; then usermod --password '*' "${FIRST_USER_NAME}"; fi
CHROOT_END
