#!/usr/bin/env bash
# scripts/supraseal-gpu-busy.sh LOG: the GPU's share of each path's wall a
# circuit in a supraseal_bench log of libcuzk_supraseal's (run with
# CUZK_TIMING=1; gpu-check.sh supraseal): the median time cuzk held the GPU a
# circuit (its lock held lines, warm-ups and both paths counted) over each
# path's wall a circuit. Prints nothing for a ruler's log, which has no lock
# held lines.
set -uo pipefail
held=$(grep 'lock held' "$1" | awk '{ print $(NF - 1) }' | sort -n |
  awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)], NR }')
[[ -n $held ]] || exit 0
awk -v median="${held% *}" -v holds="${held#* }" '/^supraseal_bench: .* circuits in .* s a circuit/ {
    path = $0; sub(/^supraseal_bench: /, "", path); sub(/: [0-9]+ circuits in.*/, "", path)
    wall = $0; sub(/ s a circuit.*/, "", wall); sub(/.*: /, "", wall)
    printf "%s%s %.1f ms of %.0f ms, %.1f %%", sep, path, median, 1000 * wall, 100 * median / (1000 * wall)
    sep = "; "
  }
  END { printf " (the median of %d holds)\n", holds }' "$1"
