#!/bin/bash -e
# Make the system a kiosk: the app on tty1 and nothing else on the screen, a quiet boot, the
# play log's partition, Ctrl+Alt+Del and SysRq off, no root file-system growth. The work is
# done by image-build/system/ (files/system here), shared with the Debian-archive build
# (image-build/debian/); only what is Raspberry Pi OS's own stays in this file.
# Runs on the build host; files/systemd, files/system and files/config.toml are put here by
# build.sh.

sh files/system/install-files.sh "${ROOTFS_DIR}" files/systemd files/config.toml
install -D -m 644 files/rpi-swap.conf "${ROOTFS_DIR}/etc/rpi/swap.conf.d/50-solitaire-kiosk.conf"
sh files/system/quiet-boot.sh "${ROOTFS_DIR}/boot/firmware/cmdline.txt" "${ROOTFS_DIR}/boot/firmware/config.txt"
install -m 755 files/system/setup-in-root.sh "${ROOTFS_DIR}/tmp/setup-in-root.sh"

on_chroot <<- CHROOT_END
	sh /tmp/setup-in-root.sh
	rm -f /tmp/setup-in-root.sh
	systemctl disable rpi-resize.service 2>/dev/null || true
	# Without KIOSK_ADMIN_PASSWORD the admin user has no password at all: SSH with a key only
	# (build.sh KIOSK_SSH_KEY), and no login on the maintenance console.
	if [ "${KIOSK_ADMIN_HAS_PASSWORD:-0}" != 1 ]; then usermod --password '*' "${FIRST_USER_NAME}"; fi
CHROOT_END
