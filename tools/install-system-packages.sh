#!/usr/bin/env bash
# Installs the Debian packages of a set that are not there yet.
#   tools/install-system-packages.sh runtime   what running the kiosk needs
#                                             (tools/debian-packages-runtime.txt)
#   tools/install-system-packages.sh test      that and what the tests need
#                                             (tools/debian-packages.txt); the default
set -euo pipefail
cd "$(dirname "$0")/.."
set_name=${1:-test}
case "$set_name" in
    runtime) lists=(tools/debian-packages-runtime.txt) ;;
    test) lists=(tools/debian-packages-runtime.txt tools/debian-packages.txt) ;;
    *) echo "install-system-packages: unknown set '$set_name' (runtime or test)" >&2; exit 2 ;;
esac
[ -x /usr/bin/dpkg-query ] || { echo "install-system-packages: not a Debian system, skipping"; exit 0; }
mapfile -t wanted < <(grep -hvE '^\s*(#|$)' "${lists[@]}" | awk '{print $1}')
missing=()
for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "install-system-packages: please install: ${missing[*]}" >&2
    exit 0
fi
echo "Installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
