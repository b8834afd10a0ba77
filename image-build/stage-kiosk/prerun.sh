#!/bin/bash -e
# pi-gen stage prerun: start from stage2's root file system (Raspberry Pi OS Lite).
if [ ! -d "${ROOTFS_DIR}" ]; then
	copy_previous
fi
