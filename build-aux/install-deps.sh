#!/usr/bin/env bash
# Installs what Tandem needs to build, run and test on Debian 12 (bookworm).
# Safe to run again: apt skips what is already there.
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc
  libglib2.0-dev libsoup-3.0-dev libjson-glib-dev libyajl-dev libsqlite3-dev
  libgtk-4-dev libadwaita-1-dev libmd4c-dev libsecret-1-dev
  libprotobuf-c-dev protobuf-c-compiler
  gettext desktop-file-utils appstream locales
  xvfb xauth libx11-dev libxtst-dev libxdamage-dev dbus-daemon python3-dbusmock
  gobject-introspection libgirepository1.0-dev gir1.2-glib-2.0
  gir1.2-json-1.0 gir1.2-soup-3.0 python3-gi
  gi-docgen
  at-spi2-core python3-pyatspi gir1.2-atspi-2.0
  # A widget test that hangs prints its threads' stacks with it
  gdb
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The widget tests look at the app in German too, dates and all: that
# needs the German locale, which a fresh Debian has not generated
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  echo "Generating the de_DE.UTF-8 locale"
  $sudo sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen
  $sudo locale-gen
fi
