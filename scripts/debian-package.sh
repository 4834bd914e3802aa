#!/usr/bin/env bash
# Installs a Debian package when the program it provides is missing: `debian-package.sh PROGRAM
# PACKAGE`. Used by `make run` and `make test` for what the product needs beside the binary
# (poppler-utils' pdftoppm renders uploaded PDFs; Chromium runs the browser tests).
set -euo pipefail
program=$1 package=$2
command -v "$program" >/dev/null 2>&1 && exit 0
[[ -x $program ]] && exit 0
echo "Installing $package from Debian (for $program)" >&2
sudo=""
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null || { echo "$program is missing: apt-get install $package (needs root)" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -q "$package" >/dev/null 2>&1 \
  || { $sudo apt-get update -q >/dev/null && $sudo dpkg --configure -a && $sudo apt-get install -y -q "$package" >/dev/null; }
