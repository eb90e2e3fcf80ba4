#!/usr/bin/env python3
"""Checks the monitoring files of packaging/ with promtool (test packaging_monitoring):
  - packaging/prometheus/cuzk-rules.yml: promtool check rules;
  - packaging/grafana/cuzk.json: every PromQL expression of its panels, with
    Grafana's variables given values, written into a temporary rules file as
    recording rules and checked the same way;
  - both: every cuzk_ metric they name is one cuzkd exports (a name in
    src/daemon/metrics.cpp), so that a renamed metric cannot leave a panel or
    an alert empty without a word (the GPU counters' series are made from
    CUZK_GPU_COUNTERS in include/cuzk/engine/gpu_report.hpp).
usage: monitoring_check.py PROMTOOL SOURCE_DIR WORK_DIR"""
import json
import pathlib
import re
import subprocess
import sys

# Grafana's own variables and the dashboard's, as a query would see them.
VARIABLES = {
    "$__rate_interval": "1m",
    "$__interval": "1m",
    "$__range": "1h",
    "$instance": ".+",
    "${datasource}": "prometheus",
}


def panels(items):
    for p in items:
        yield p
        yield from panels(p.get("panels", []))


def dashboard_expressions(dashboard):
    for p in panels(dashboard["panels"]):
        for t in p.get("targets", []):
            expr = t.get("expr")
            if expr:
                for name, value in VARIABLES.items():
                    expr = expr.replace(name, value)
                yield f"cuzk_dashboard:panel_{p['id']}_{t['refId']}", p["title"], expr


def metric_names(text):
    names = set(re.findall(r"\bcuzk_[a-z0-9_]+", text))
    return {re.sub(r"_(bucket|sum|count)$", "", n) for n in names}


def gpu_counter_metrics(text):
    """The series metrics.cpp makes from the CUZK_GPU_COUNTERS list of
    engine/gpu_report.hpp: X(name, merge, kind, help) is cuzk_gpu_<name>,
    with "_total" for a counter."""
    rows = re.findall(r"X\((\w+),\s*\w+,\s*(counter|gauge),", text)
    return {f"cuzk_gpu_{name}" + ("_total" if kind == "counter" else "") for name, kind in rows}


def promtool(promtool_path, rules):
    r = subprocess.run([promtool_path, "check", "rules", str(rules)], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    return r.returncode == 0


def main():
    promtool_path, source, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    rules = source / "packaging/prometheus/cuzk-rules.yml"
    dashboard = json.loads((source / "packaging/grafana/cuzk.json").read_text())
    exported = metric_names((source / "src/daemon/metrics.cpp").read_text())
    gpu_counters = gpu_counter_metrics((source / "include/cuzk/engine/gpu_report.hpp").read_text())
    exported |= gpu_counters
    ok = promtool(promtool_path, rules)
    if len(gpu_counters) < 7:
        print(f"error: engine/gpu_report.hpp: {len(gpu_counters)} GPU counters read from CUZK_GPU_COUNTERS, not 7")
        ok = False

    recorded = work / "cuzk-dashboard-rules.yml"
    expressions = list(dashboard_expressions(dashboard))
    lines = ["groups:", "  - name: cuzk-dashboard", "    rules:"]
    for record, _, expr in expressions:
        lines += [f"      - record: {record}", f"        expr: {json.dumps(expr)}"]
    recorded.write_text("\n".join(lines) + "\n")
    ok = promtool(promtool_path, recorded) and ok
    print(f"{len(expressions)} expressions of the dashboard checked")
    if len(expressions) < 20:
        print("error: the dashboard should hold the status page's panels")
        ok = False

    for where, text in [("cuzk-rules.yml", rules.read_text())] + [(title, expr) for _, title, expr in expressions]:
        unknown = metric_names(text) - exported
        if unknown:
            print(f"error: {where}: cuzkd exports no {', '.join(sorted(unknown))}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
