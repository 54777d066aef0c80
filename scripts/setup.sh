#!/usr/bin/env bash
# Installs every Debian package the build, the tests and the demo need.
# Idempotent: does nothing when they are all installed. Run as root.
set -euo pipefail

packages=(
  cmake ninja-build make
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  clang-22 lld-22 libomp-22-dev libclang-rt-22-dev
  python3-torch python3-numpy
  python3-matplotlib libopenblas-dev
  python3-onnx libonnx-testdata
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}; run 'make setup' as root" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
