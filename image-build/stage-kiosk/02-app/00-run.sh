#!/bin/bash -e
# Bring the app's wheel, its installer and the docs into the image (build.sh puts them in
# files/); 01-run-chroot.sh installs them.
install -d "${ROOTFS_DIR}/tmp/solitaire-kiosk-install/wheels" "${ROOTFS_DIR}/opt/solitaire-kiosk/docs"
install -m 644 files/wheels/*.whl "${ROOTFS_DIR}/tmp/solitaire-kiosk-install/wheels/"
install -m 755 files/install-app.sh "${ROOTFS_DIR}/tmp/solitaire-kiosk-install/"
install -m 644 files/docs/*.md "${ROOTFS_DIR}/opt/solitaire-kiosk/docs/"
