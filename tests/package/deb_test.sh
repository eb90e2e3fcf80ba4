#!/usr/bin/env bash
# The Debian package as a user gets it: `cpack -G DEB` in the build tree,
# its control fields and file list, then unpacked (dpkg-deb -x, no root
# needed) and used: cuzk --version, the systemd unit's paths, and a C
# program built with pkg-config against the unpacked tree that proves.
#   deb_test.sh BUILD_DIR SOURCE_DIR FIXTURES
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) fixtures=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(sed -n 's/^project(cuzk VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")
(cd "$build" && cpack -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(find "$work/pkg" -maxdepth 1 -name 'cuzk_*.deb' | head -1)
[ -n "$deb" ] || { echo "error: cpack made no cuzk_*.deb" >&2; cat "$work/cpack.log"; exit 1; }
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = cuzk ] && [ "$(field Version)" = "$version" ] ||
  { echo "error: package $(field Package) $(field Version), expected cuzk $version" >&2; exit 1; }
# Outputs are taken whole before grep -q reads them (under pipefail, a grep
# that stops early would fail the pipe).
depends=$(field Depends)
grep -q 'libc6' <<< "$depends" || { echo "error: no shared-library dependencies: $depends" >&2; exit 1; }
# The job queue's libpq is loaded when used, so it is no shared-library
# dependency: the package recommends it instead.
if grep -qxF 'CUZK_HAVE_QUEUE:INTERNAL=ON' "$build/CMakeCache.txt"; then
  [ "$(field Recommends)" = libpq5 ] || { echo "error: the queue is built but the package recommends '$(field Recommends)', not libpq5" >&2; exit 1; }
fi
files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
for f in ./usr/bin/cuzk ./usr/include/cuzk/cuzk.h ./usr/lib/libcuzk.so.0 ./usr/lib/pkgconfig/cuzk.pc \
  ./usr/lib/cmake/cuzk/cuzkConfig.cmake; do
  grep -qxF "$f" <<< "$files" || { echo "error: the package lacks $f" >&2; echo "$files" >&2; exit 1; }
done

# The unit runs as cuzk, whom the postinst creates: run it as dpkg would,
# twice, with adduser, addgroup, getent and ldconfig stood in for by
# programs that log their calls, and check the unit with systemd-analyze.
unit_and_user() {
  local unit=$1 control=$work/control stubs=$work/stubs log=$work/postinst.log
  grep -qxF "User=cuzk" "$unit" && grep -qxF "Group=cuzk" "$unit" ||
    { echo "error: the unit does not run as user and group cuzk" >&2; exit 1; }
  grep -qw adduser <<< "$depends" || { echo "error: the package uses adduser but depends on: $depends" >&2; exit 1; }
  dpkg-deb -e "$deb" "$control"
  [ -x "$control/postinst" ] || { echo "error: the package has no executable postinst" >&2; exit 1; }
  if [ -e "$control/postrm" ] && grep -qE 'deluser|userdel|delgroup|groupdel' "$control/postrm"; then
    echo "error: the postrm removes the cuzk user or group" >&2; exit 1
  fi
  mkdir -p "$stubs"
  : > "$log"
  printf '#!/bin/sh\ngrep -qxF "$1 $2" "%s"\n' "$log" > "$stubs/getent"
  printf '#!/bin/sh\necho "group $2" >> "%s"\n' "$log" > "$stubs/addgroup"
  printf '#!/bin/sh\nfor a; do u=$a; done\necho "passwd $u" >> "%s"\necho "adduser $*" >> "%s"\n' "$log" "$log" > "$stubs/adduser"
  printf '#!/bin/sh\necho ldconfig >> "%s"\n' "$log" > "$stubs/ldconfig"
  chmod +x "$stubs"/*
  PATH=$stubs:$PATH "$control/postinst" configure
  PATH=$stubs:$PATH "$control/postinst" configure
  local expected="group cuzk
passwd cuzk
adduser --system --ingroup cuzk --no-create-home --home /nonexistent --shell /usr/sbin/nologin cuzk
ldconfig
ldconfig"
  [ "$(cat "$log")" = "$expected" ] ||
    { echo "error: postinst configure, twice, did not create cuzk once and run ldconfig each time:" >&2; cat "$log" >&2; exit 1; }
  if command -v systemd-analyze > /dev/null; then
    # verify wants the programs the unit starts where it names them: the
    # unpacked cuzkd stands in for /usr/bin/cuzkd.
    sed "s|/usr/bin/cuzkd|$root/usr/bin/cuzkd|g" "$unit" > "$work/cuzkd.service"
    local said
    said=$(systemd-analyze verify "$work/cuzkd.service" 2>&1) && [ -z "$said" ] ||
      { echo "error: systemd-analyze verify cuzkd.service:" >&2; echo "$said" >&2; exit 1; }
  else
    echo "systemd-analyze verify skipped: systemd-analyze is not installed"
  fi
}

root=$work/root
dpkg-deb -x "$deb" "$root"
grep -qF "cuzk $version" <<< "$("$root/usr/bin/cuzk" --version)" || { echo "error: cuzk --version" >&2; exit 1; }
if [ -x "$root/usr/bin/cuzkd" ]; then
  grep -qxF "ExecStart=/usr/bin/cuzkd --config /etc/cuzk/cuzkd.toml" "$root/usr/lib/systemd/system/cuzkd.service" ||
    { echo "error: the unit does not start /usr/bin/cuzkd" >&2; exit 1; }
  [ -f "$root/usr/share/doc/cuzk/cuzkd.toml" ] || { echo "error: no example cuzkd.toml" >&2; exit 1; }
  for f in grafana/cuzk.json prometheus/cuzk-rules.yml; do
    cmp -s "$root/usr/share/cuzk/$f" "$source/packaging/$f" ||
      { echo "error: the package's /usr/share/cuzk/$f is not packaging/$f" >&2; exit 1; }
  done
  unit_and_user "$root/usr/lib/systemd/system/cuzkd.service"
fi
export PKG_CONFIG_PATH=$root/usr/lib/pkgconfig
# shellcheck disable=SC2046
cc -std=c11 -o "$work/cuzk_api_test" "$source/tests/capi/cuzk_api_test.c" "$source/tests/capi/capi_support.c" \
  $(pkg-config --cflags --libs cuzk) -lpthread
mkdir -p "$work/out"
LD_LIBRARY_PATH=$root/usr/lib "$work/cuzk_api_test" prove "$fixtures" "$work/out"
echo "$(basename "$deb"): $(wc -l <<< "$files") entries; unpacked, cuzk runs and libcuzk proves"
