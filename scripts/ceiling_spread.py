#!/usr/bin/env python3
"""make bench-ceiling: runs `ksmbench ceiling --format json` several times, one
process each, and prints how far every limit and every implementation's
ceiling moved between the runs ((max - min) / min), the longest run, and the
issue's targets beside them (each run <= 3 s, <= 5% between runs on a quiet
machine). Informative, not a pass/fail test: a busy sibling CPU moves them.
usage: scripts/ceiling_spread.py [KSMBENCH] [--runs N] [--cpu N]
"""
import json
import subprocess
import sys


def runs_of(binary, runs, extra):
    docs = []
    for _ in range(runs):
        out = subprocess.run([binary, "ceiling", "--format", "json", *extra], check=True, capture_output=True,
                             text=True).stdout
        docs.append(json.loads(out))
    return docs


def spread(values):
    values = [v for v in values if v]
    return 100 * (max(values) - min(values)) / min(values) if values else None


def report(docs):
    """Prints the table; returns (largest spread of the limits in %, longest run in s)."""
    print(f"{len(docs)} runs of ksmbench ceiling; spread = (max - min) / min between runs\n")
    print(f"{'limit':44s} {'min':>12s} {'max':>12s} {'spread':>7s}")
    worst = 0.0
    for key, first in docs[0]["limits"].items():
        vals = [d["limits"][key]["value"] for d in docs if d["limits"][key]["measured"]]
        if not vals:
            continue
        s = spread(vals)
        worst = max(worst, s)
        print(f"{first['what'][:44]:44s} {min(vals):12.4g} {max(vals):12.4g} {s:6.1f}%")
    print(f"\n{'ceiling at ' + str(docs[0]['page_size']) + ' B':44s} {'min GB/s':>12s} {'max GB/s':>12s} {'spread':>7s}")
    for c in docs[0]["ceilings"]:
        vals = [x["ceiling_bytes_per_second"] for d in docs for x in d["ceilings"]
                if x["hash"] == c["hash"] and x["ceiling_bytes_per_second"]]
        if vals:
            print(f"{c['hash']:44s} {min(vals) / 1e9:12.2f} {max(vals) / 1e9:12.2f} {spread(vals):6.1f}%")
    return worst, max(d["elapsed_s"] for d in docs)


def main():
    args = sys.argv[1:]
    binary = args.pop(0) if args and not args[0].startswith("-") else "./ksmbench"
    runs = 5
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    worst, longest = report(runs_of(binary, runs, args))
    print(f"\nlongest run {longest:.2f} s (target <= 3 s): {'met' if longest <= 3 else 'MISSED'}")
    print(f"largest spread of a limit between runs {worst:.1f}% (target <= 5% on a quiet machine): "
          f"{'met' if worst <= 5 else 'MISSED'}")


if __name__ == "__main__":
    main()
