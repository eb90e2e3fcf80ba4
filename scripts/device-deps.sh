#!/usr/bin/env bash
# The Debian 12 packages that build and run cuzkd (gRPC, protobuf,
# prometheus-cpp, civetweb, toml11, spdlog and their libraries), and the
# status page's uPlot from node_modules (npm ci), for a machine that has none
# of them and no registry (the GPU machine, Ubuntu 24.04).
#   scripts/device-deps.sh           here: apt-get download them into .deps/
#                                    (ignored: .git/info/exclude lists /.deps/)
#   source scripts/device-deps.sh; device_deps_prefix DIR
#                                    there: dpkg -x each .deb into DIR (never
#                                    into /) and set CUZK_DEPS_CMAKE_ARGS, the
#                                    cmake arguments that find them there
#                                    (and uPlot in .deps/uplot),
#                                    CUZK_PG_BIN (PostgreSQL's programs) and
#                                    CUZK_PG_LIBRARY_PATH (their libraries);
#                                    returns 1 when .deps/ is absent, 2 when
#                                    a package does not unpack.
# The list holds the -dev packages, the runtime libraries they link, and the
# files their CMake configurations insist on (grpc_*_plugin, civetweb's
# binary). prometheus-cpp's configuration also wants curl, which cuzkd does
# not use: src/daemon/CMakeLists.txt finds prometheus-cpp-core without it.

device_deps_packages=(
  libgrpc++-dev libgrpc-dev libgrpc++1.51 libgrpc29 protobuf-compiler-grpc
  libprotobuf-dev libprotobuf32 libprotobuf-lite32 libprotoc32 protobuf-compiler
  libabsl-dev libabsl20220623 libre2-dev libre2-9 libc-ares-dev libc-ares2
  libssl-dev libssl3 zlib1g-dev zlib1g
  prometheus-cpp-dev libprometheus-cpp-core1.0 libprometheus-cpp-pull1.0 libprometheus-cpp-push1.0
  libcivetweb-dev libcivetweb1 civetweb
  libtoml11-dev libspdlog-dev libspdlog1.10 libfmt-dev libfmt9
  # The job queue (libpq) and a PostgreSQL server to run it against
  # (scripts/queue-vs-direct.sh), with the libraries Ubuntu 24.04 names
  # otherwise (ICU 72, OpenLDAP 2.5) or may lack.
  libpq-dev libpq5 postgresql-15 libicu72 libldap-2.5-0 libsasl2-2 libsasl2-modules-db libxml2
  libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1
)

device_deps_download() {
  local root dir
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  dir="$root/.deps"
  local exclude
  exclude="$(git -C "$root" rev-parse --git-common-dir)/info/exclude"
  grep -qxF '/.deps/' "$exclude" 2>/dev/null || echo '/.deps/' >> "$exclude"
  mkdir -p "$dir"
  rm -f "$dir"/*.deb
  (cd "$dir" && apt-get download -q "${device_deps_packages[@]}") || return 1
  # The uPlot that package-lock.json pins: cuzkd embeds it (src/daemon/CMakeLists.txt).
  rm -rf "$dir/uplot"
  cp -r "$root/node_modules/uplot/dist" "$dir/uplot" || return 1
  echo "device-deps: $(ls "$dir"/*.deb | wc -l) packages, $(du -sh "$dir" | cut -f1) in $dir"
}

# device_deps_prefix DIR: unpacks .deps/*.deb into DIR and sets
# CUZK_DEPS_CMAKE_ARGS (an array) for the configure step. Nothing is exported
# to the environment: the programs built get the prefix's libraries through
# their RPATH (CMAKE_BUILD_RPATH; cuzk_proto makes it a DT_RPATH, which also
# serves the libraries' own dependencies), and protoc runs with them through
# CUZK_PROTOC_LIBRARY_PATH.
device_deps_prefix() {
  local prefix=$1 root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  compgen -G "$root/.deps/*.deb" > /dev/null || return 1
  mkdir -p "$prefix"
  local deb
  for deb in "$root"/.deps/*.deb; do dpkg -x "$deb" "$prefix" || return 2; done
  local usrlib="$prefix/usr/lib/x86_64-linux-gnu" lib="$prefix/lib/x86_64-linux-gnu"
  # Symlinks that point into / (libz.so -> /lib/...) are pointed into the prefix.
  local link target
  while IFS= read -r link; do
    target=$(readlink "$link")
    if [[ $target == /* && -e $prefix$target ]]; then ln -sfn "$prefix$target" "$link"; fi
  done < <(find "$prefix" -type l)
  # gRPC's configuration finds re2 through a CMake configuration, else through
  # pkg-config, whose .pc files name /usr: give it the configuration.
  mkdir -p "$usrlib/cmake/re2"
  cat > "$usrlib/cmake/re2/re2Config.cmake" <<CMAKE
add_library(re2::re2 SHARED IMPORTED)
set_target_properties(re2::re2 PROPERTIES
  IMPORTED_LOCATION "$(readlink -f "$usrlib/libre2.so")"
  INTERFACE_INCLUDE_DIRECTORIES "$prefix/usr/include")
set(re2_FOUND TRUE)
CMAKE
  local libs="$usrlib:$lib"
  # The PostgreSQL server's programs run with the prefix's libraries.
  CUZK_PG_BIN=$(compgen -G "$prefix/usr/lib/postgresql/*/bin" | head -1)
  CUZK_PG_LIBRARY_PATH=$libs
  CUZK_DEPS_CMAKE_ARGS=(
    "-DCMAKE_PREFIX_PATH=$prefix/usr"
    "-DProtobuf_PROTOC_EXECUTABLE=$prefix/usr/bin/protoc"
    "-DProtobuf_INCLUDE_DIR=$prefix/usr/include"
    "-DProtobuf_LIBRARY=$usrlib/libprotobuf.so"
    "-DCUZK_PROTOC_LIBRARY_PATH=$libs"
    "-DCMAKE_BUILD_RPATH=$usrlib;$lib"
    "-DCUZK_UPLOT_DIR=$root/.deps/uplot"
  )
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  device_deps_download
fi
