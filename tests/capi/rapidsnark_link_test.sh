#!/usr/bin/env bash
# rapidsnark's users, as they build: `cmake --install` into a fresh prefix
# gives librapidsnark.so (a link to libcuzk.so.<major>) and rapidsnark.pc.
# examples/c/prove.c, which includes "prover.h", is built with
# `pkg-config --cflags --libs rapidsnark`, and a program declaring
# groth16_prover with go-rapidsnark's `unsigned long` sizes is linked with
# -lrapidsnark; each proves both curves' multiplier fixture with the installed
# library alone, must record libcuzk's soname, and its proof must pass the
# installed `cuzk verify`.
#   rapidsnark_link_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
libdir=$(dirname "$(find "$prefix" -name 'libcuzk.so.0' | head -1)")
link=$libdir/librapidsnark.so
[ -L "$link" ] && [ "$(readlink "$link")" = libcuzk.so.0 ] ||
  { echo "error: $link is not a link to libcuzk.so.0" >&2; ls -l "$libdir" >&2; exit 1; }
export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion rapidsnark)" = "$(pkg-config --modversion cuzk)" ] && pkg-config --libs rapidsnark | grep -qw -- -lrapidsnark ||
  { echo "error: pkg-config --libs rapidsnark gives '$(pkg-config --libs rapidsnark)'" >&2; exit 1; }

# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$work/prove" "$source/examples/c/prove.c" $(pkg-config --cflags --libs rapidsnark)
cc -std=c11 -Wall -Werror -o "$work/unsigned_long" "$source/tests/capi/rapidsnark_unsigned_long.c" -L"$libdir" -lrapidsnark
for program in prove unsigned_long; do
  needed=$(readelf -d "$work/$program" | sed -n 's/.*(NEEDED).*\[\(libcuzk[^]]*\|librapidsnark[^]]*\)\].*/\1/p')
  [ "$needed" = libcuzk.so.0 ] || { echo "error: $program needs '$needed', not libcuzk.so.0" >&2; exit 1; }
  for curve in bn128 bls12381; do
    fixture=$source/tests/fixtures/$curve/multiplier
    out=$work/$program-$curve
    LD_LIBRARY_PATH=$libdir "$work/$program" "$fixture/circuit.zkey" "$fixture/witness.wtns" "$out.proof.json" "$out.public.json" > /dev/null
    "$prefix/bin/cuzk" verify "$fixture/vk.json" "$out.public.json" "$out.proof.json" > /dev/null ||
      { echo "error: the proof of $program on $curve does not verify" >&2; exit 1; }
    cmp -s "$fixture/public.json" "$out.public.json" ||
      { echo "error: $program's $curve public signals differ from the fixture's" >&2; exit 1; }
  done
done
echo "rapidsnark's prover.h, go-rapidsnark's unsigned long declarations, pkg-config rapidsnark and -lrapidsnark: both curves proved and verified"
