#!/usr/bin/env python3
"""The anchors mode's table (scripts/gpu-check.sh anchors), from its results folder:
one line per run (the forward NTT in ms, or the G1 MSM's GPU ms, per size),
then cuzk's defaults beside sppark's figures in anchors/sppark.log.

    scripts/anchors-table.py OUT
"""
import glob, json, os, re, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    name = os.path.basename(f)[:-5]
    if not (name.startswith("ntt-") or name.startswith("msm-")):
        continue
    j = json.load(open(f))
    vf = f[:-5] + ".variant"
    variant = open(vf).read().strip() if os.path.exists(vf) else "default"
    if name.startswith("ntt-"):
        cells = [f"2^{r['log_n']} {r['ms']:.3f}" for r in j["rows"] if r["transform"] in ("ntt", "ntt_scratch")]
    else:
        cells = [f"2^{r['log_n']} {r['gpu_ms']:.2f}" for r in j["rows"]]
    print(f"{name:22s} {variant:60s} " + "  ".join(cells))
# The defaults beside sppark: forward NTT natural to natural, G1 MSM.
sp = {}
log = os.path.join(sys.argv[1], "anchors", "sppark.log")
if os.path.exists(log):
    for line in open(log):
        m = re.match(r"sppark (msm|ntt) (\S+) \S+ log=(\d+) ms=([\d.]+)", line)
        if m and (m[1] == "msm" or "natural->natural" in line):
            sp[(m[1], m[2], int(m[3]))] = float(m[4])
# cuzk's forward NTT in place (ntt) and with a scratch (ntt_scratch), against
# sppark's in place.
for kind, row in (("ntt", "ntt"), ("ntt", "ntt_scratch"), ("msm", None)):
    for curve in ("bn254", "bls12_381"):
        f = os.path.join(sys.argv[1], f"{kind}-{curve}.json")
        if not os.path.exists(f):
            continue
        cells = []
        for r in json.load(open(f))["rows"]:
            if row and r["transform"] != row:
                continue
            ms = r["ms"] if kind == "ntt" else r["gpu_ms"]
            ref = sp.get((kind, curve, r["log_n"]))
            cells.append(f"2^{r['log_n']} {ms:.3f}/{ref:.3f}={ms / ref:.2f}" if ref else f"2^{r['log_n']} {ms:.3f}/-")
        print(f"cuzk/sppark {row or kind} {curve:10s} " + "  ".join(cells))
