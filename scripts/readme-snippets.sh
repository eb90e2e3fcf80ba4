#!/usr/bin/env bash
# Runs the shell snippets of the README and of the docs' user paths exactly as
# they are written, with a build's programs, so that a snippet that stops
# working fails the suite (CTest label `readme`).
#
#   scripts/readme-snippets.sh BUILD_DIR FILE.md...
#
# Every ```sh block of a FILE carries a marker on the line before its fence:
#   <!-- snippet: run -->               run by this script;
#   <!-- snippet: not run: REASON -->   not run, for REASON (a GPU, root, ...).
# A block without a marker is an error, so the choice is always visible.
#
# The runnable blocks of one file run in order in one bash (set -euo pipefail),
# as a reader pastes them into one terminal, in a fresh temporary directory
# that stands for the root of a clone: examples/, tests/, proto/, bindings/,
# packaging/ and node_modules/ are links to this repository's, build/ a link to
# BUILD_DIR, and HOME a folder inside it, as is RUNTIME_DIRECTORY: cuzkd's
# default socket (docs/DAEMON.md) is then this run's own, not /run/cuzk or the
# user's, where a cuzkd of the machine may listen. BUILD_DIR/src and BUILD_DIR/src/daemon are on PATH
# (the README's `export PATH` line). Whatever a block starts in the background
# is ended with its process group when the file is done.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR FILE.md..." >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
source=$(cd "$(dirname "$0")/.." && pwd)

# Extracts FILE's blocks: writes the runnable ones to $2 (one script), prints
# the count run and every block not run with its reason; fails on a block
# without a marker.
extract() {
  awk -v file="$1" -v out="$2" '
    /^<!-- snippet: run -->$/ { mark = "run"; next }
    /^<!-- snippet: not run: .* -->$/ { mark = "skip"; reason = $0; sub(/^<!-- snippet: not run: /, "", reason); sub(/ -->$/, "", reason); next }
    /^```sh$/ && !inblock {
      if (mark == "") { printf "%s:%d: a ```sh block without <!-- snippet: run --> or <!-- snippet: not run: REASON -->\n", file, NR > "/dev/stderr"; bad = 1 }
      inblock = 1; start = NR; kind = mark; mark = ""
      if (kind == "run") { runs++; printf "echo \"--- %s:%d\"\n", file, start > out }
      else if (kind == "skip") { printf "not run: %s:%d (%s)\n", file, start, reason }
      next
    }
    /^```$/ && inblock { inblock = 0; next }
    inblock && kind == "run" { print > out; next }
    !/^[[:space:]]*$/ { mark = "" }
    END { printf "run: %d block(s) of %s\n", runs + 0, file; exit bad }
  ' "$source/$1"
}

status=0
for file in "$@"; do
  work=$(mktemp -d)
  script=$work/.snippets.sh
  : > "$script"
  if ! extract "$file" "$script"; then status=1; rm -rf "$work"; continue; fi
  [ -s "$script" ] || { rm -rf "$work"; continue; }
  for link in examples tests proto bindings packaging node_modules; do ln -s "$source/$link" "$work/$link"; done
  ln -s "$build" "$work/build"
  mkdir "$work/home" "$work/run"
  set +e
  HOME=$work/home RUNTIME_DIRECTORY=$work/run PATH="$build/src:$build/src/daemon:$PATH" \
    setsid bash -c 'cd "$0" && exec bash -euo pipefail "$1"' "$work" "$script" &
  pid=$!
  wait "$pid"
  rc=$?
  set -e
  kill -- "-$pid" 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    echo "error: a snippet of $file failed (exit $rc); the last '---' line above names its block" >&2
    status=1
  fi
  rm -rf "$work"
done
exit "$status"
