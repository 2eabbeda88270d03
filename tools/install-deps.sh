#!/usr/bin/env bash
# Installs what innosim needs on Debian 12 (run as root, or with sudo):
# the compilers (g++; clang and its libFuzzer runtime for tests/fuzz) and
# build tools, the libraries, MariaDB 10.11 and PostgreSQL 15 (with its
# contrib modules pgstattuple, pageinspect, pg_buffercache; and libpq) for
# the adapters' tests, Debian's chromium for the browser explainer's test
# (headless), and help2man for the man page (cmake/Install.cmake). Packages already present are left alone. The packages' own
# services are kept from starting (policy-rc.d), and postgresql-common is
# told not to create its `main` cluster: tests start private servers of
# their own (own folder and socket, no TCP), so a cluster made anyway stays
# down and out of their way.
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config clang libclang-rt-14-dev
          libabsl-dev libboost-container-dev libcli11-dev libgtest-dev libgmock-dev
          libbenchmark-dev nlohmann-json3-dev libtomlplusplus-dev libmariadb-dev help2man
          mariadb-server mariadb-client chromium zlib1g-dev libpq-dev postgresql-15 parallel)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod +x "$policy"
  created_policy=1
fi
# postgresql-common first, so that create_main_cluster can be turned off
# before postgresql-15's postinst would make /var/lib/postgresql/15/main.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql-common
conf=/etc/postgresql-common/createcluster.conf
if [ -f "$conf" ] && ! grep -q '^create_main_cluster *= *false' "$conf"; then
  $SUDO sed -i 's/^#\? *create_main_cluster *=.*/create_main_cluster = false/' "$conf"
  grep -q '^create_main_cluster' "$conf" || echo 'create_main_cluster = false' | $SUDO tee -a "$conf" >/dev/null
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
[ "$created_policy" -eq 0 ] || $SUDO rm -f "$policy"
