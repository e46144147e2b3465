#!/bin/sh
# Installs every Debian package the build and the tests need. Does nothing when all are present.
set -eu
PKGS="build-essential cmake ninja-build pkg-config clang libclang-rt-dev llvm
libcjson-dev libspng-dev zlib1g-dev libzstd-dev nettle-dev libcairo2-dev libcmocka-dev
assimp-utils gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user musl-tools
libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
