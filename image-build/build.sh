#!/usr/bin/env bash
# Build the kiosk's SD-card image: Raspberry Pi OS Lite (64-bit, Trixie) with the app
# preinstalled, made with pi-gen (RPi-Distro/pi-gen, arm64 branch) and a custom stage.
#
#   image-build/build.sh
#
# needs: Linux (x86_64 or arm64) with internet access, Docker, git, python3 with pip and, on
# x86_64, QEMU's aarch64 emulation (Debian/Ubuntu: apt install qemu-user-binfmt); about 20 GB
# of disk and 30-90 minutes. The image lands in image-build/deploy/ (*.img.xz + sha256).
#
# Options (environment variables):
#   KIOSK_SSH_KEY="ssh-ed25519 AAAA... you@laptop"   turn SSH on, for this key only (default off)
#   KIOSK_ADMIN_USER=admin           the SSH user (passwordless sudo, key-only login)
#   KIOSK_ADMIN_PASSWORD=...         give it a password, for the maintenance console on the
#                                    screen (operator menu); default: no password at all
#   KIOSK_HOSTNAME=solitaire-kiosk   KIOSK_TIMEZONE=Etc/UTC   KIOSK_LOCALE=en_GB.UTF-8
#   KIOSK_KEYMAP=gb                  KIOSK_KEYBOARD="English (UK)"
#   KIOSK_CONFIG=my-config.toml      the kiosk's config (default: config.example.toml)
#   KIOSK_DATA_MIB=1024              size of the play log's partition
#   KIOSK_COMPRESS=1                 xz the image (0: leave the .img)
#   PI_GEN_REF=<commit>              another pi-gen commit (default: the tested one below)
#   KIOSK_WORK, KIOSK_DEPLOY         scratch and output directories
# A failed build can be resumed with CONTINUE=1 (pi-gen's own variable); start afresh with
# `docker rm -v pigen_work`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
work=${KIOSK_WORK:-$here/work}
deploy=${KIOSK_DEPLOY:-$here/deploy}
pigen_url=https://github.com/RPi-Distro/pi-gen.git
pigen_ref=${PI_GEN_REF:-ca8aeed0ae300c2a89f55ce9617d5f96a27e99e5}   # branch arm64 (Trixie)
pigen=$work/pi-gen
stage=$pigen/stage-kiosk

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'build: %s\n' "$*" >&2; exit 1; }

for tool in git docker python3; do
    command -v "$tool" >/dev/null || die "$tool is needed"
done
case $(uname -m) in
aarch64 | arm64) ;;
*) command -v qemu-aarch64 >/dev/null \
       || die "qemu-aarch64 is needed to build an arm64 image here (apt install qemu-user-binfmt)" ;;
esac
DOCKER=${DOCKER:-docker}
if ! $DOCKER ps >/dev/null 2>&1; then
    DOCKER="sudo $DOCKER"
    $DOCKER ps >/dev/null || die "cannot talk to Docker"
fi
if [ -n "${KIOSK_SSH_KEY:-}" ] && [[ $KIOSK_SSH_KEY != ssh-* && $KIOSK_SSH_KEY != ecdsa-* ]]; then
    die "KIOSK_SSH_KEY must be one public key line (ssh-ed25519 AAAA...)"
fi
[ -f "${KIOSK_CONFIG:-$repo/config.example.toml}" ] || die "no config file ${KIOSK_CONFIG:-}"
mkdir -p "$work" "$deploy"

say "1/5 the app's wheel"
# from a clean copy: setuptools would also pack what an old build left in build/
rm -rf "$work/wheels" "$work/src"
mkdir -p "$work/src"
tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude=./image-build/work --exclude=./image-build/deploy \
    -cf - . | tar -C "$work/src" -xf -
python3 -m pip wheel --no-deps --quiet --wheel-dir "$work/wheels" "$work/src"
ls "$work/wheels"

say "2/5 pi-gen $pigen_ref"
if [ ! -d "$pigen/.git" ]; then
    git clone --quiet --branch arm64 "$pigen_url" "$pigen"
fi
git -C "$pigen" fetch --quiet origin arm64
git -C "$pigen" checkout --quiet --force "$pigen_ref"
git -C "$pigen" clean --quiet -fdx -e work -e deploy

say "3/5 the kiosk stage"
cp -a "$here/stage-kiosk" "$stage"
cp -a "$repo/systemd" "$stage/01-system/files/systemd"
cp -a "$here/system" "$stage/01-system/files/system"
cp "${KIOSK_CONFIG:-$repo/config.example.toml}" "$stage/01-system/files/config.toml"
mkdir -p "$stage/02-app/files/wheels" "$stage/02-app/files/docs"
cp "$work"/wheels/*.whl "$stage/02-app/files/wheels/"
cp "$here/install-app.sh" "$stage/02-app/files/install-app.sh"
cp "$repo"/docs/*.md "$stage/02-app/files/docs/"
# Only the kiosk image, not the plain Lite one too (SKIP_IMAGES would not reach pi-gen's
# container: its .dockerignore leaves it out).
rm -f "$pigen/stage2/EXPORT_IMAGE"

admin=${KIOSK_ADMIN_USER:-admin}
{
    echo "IMG_NAME=solitaire-kiosk"
    echo "RELEASE=trixie"
    echo "STAGE_LIST=\"stage0 stage1 stage2 stage-kiosk\""
    echo "DEPLOY_COMPRESSION=none"
    echo "TARGET_HOSTNAME=${KIOSK_HOSTNAME:-solitaire-kiosk}"
    echo "FIRST_USER_NAME=$admin"
    if [ -n "${KIOSK_ADMIN_PASSWORD:-}" ]; then
        printf 'FIRST_USER_PASS=%q\n' "$KIOSK_ADMIN_PASSWORD"
        echo "export KIOSK_ADMIN_HAS_PASSWORD=1"
    else
        # pi-gen wants a password when the first-boot rename is off; the stage removes it.
        echo "FIRST_USER_PASS=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
        echo "export KIOSK_ADMIN_HAS_PASSWORD=0"
    fi
    echo "DISABLE_FIRST_BOOT_USER_RENAME=1"
    echo "PASSWORDLESS_SUDO=1"
    # cloud-init would run again on every boot of the read-only root
    echo "ENABLE_CLOUD_INIT=0"
    echo "TIMEZONE_DEFAULT=${KIOSK_TIMEZONE:-Etc/UTC}"
    echo "LOCALE_DEFAULT=${KIOSK_LOCALE:-en_GB.UTF-8}"
    echo "KEYBOARD_KEYMAP=${KIOSK_KEYMAP:-gb}"
    printf 'KEYBOARD_LAYOUT="%s"\n' "${KIOSK_KEYBOARD:-English (UK)}"
    if [ -n "${KIOSK_SSH_KEY:-}" ]; then
        echo "ENABLE_SSH=1"
        echo "PUBKEY_ONLY_SSH=1"
        printf 'PUBKEY_SSH_FIRST_USER="%s"\n' "$KIOSK_SSH_KEY"
    else
        echo "ENABLE_SSH=0"
    fi
} > "$work/config"

say "4/5 pi-gen (Docker; this is the long part)"
(cd "$pigen" && ./build-docker.sh -c "$work/config")

say "5/5 the play log's partition"
img=$(find "$pigen/deploy" -maxdepth 1 -name '*solitaire-kiosk*-kiosk.img' -printf '%T@ %p\n' \
      | sort -n | tail -n 1 | cut -d' ' -f2-)
[ -n "$img" ] || die "pi-gen made no image (see $pigen/deploy/build.log)"
out="$deploy/$(basename "$img")"
rm -f "$out" "$out.xz" "$out.xz.sha256"
cp "$img" "$out"
# in pi-gen's own container, which has sfdisk and mke2fs whatever the host has
$DOCKER run --rm -v "$deploy:/deploy" -v "$here/add-data-partition.sh:/add-data-partition.sh:ro" \
    pi-gen bash /add-data-partition.sh "/deploy/$(basename "$out")" "${KIOSK_DATA_MIB:-1024}"

if [ "${KIOSK_COMPRESS:-1}" = 1 ]; then
    xz --force --threads=0 -6 "$out"
    out="$out.xz"
fi
(cd "$deploy" && sha256sum "$(basename "$out")" > "$(basename "$out").sha256")
say "done: $out"
echo "Flash it with Raspberry Pi Imager (\"Use custom\") or: xzcat $out | sudo dd of=/dev/sdX bs=4M conv=fsync"
