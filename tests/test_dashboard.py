"""CLI tests for the dashboard and review formats: gha (github-action-benchmark's
customBiggerIsBetter array), markdown, the rounds kept in JSON, and plot's SVG
(parsed with xml.etree: one bar per result, a labelled axis)."""
import json
import os
import re
import xml.etree.ElementTree as ET

from clitest import run, check, check_usage_error, temp_file, finish

FAST = ["--window", "2ms", "--warmup", "1ms", "--repeat", "3"]
SVG = "{http://www.w3.org/2000/svg}"

# --- JSON keeps every round's rate, consistent with the summary figures
rc, out, err = run("bench", "-H", "xxh64,jhash2", *FAST, "--format", "json")
doc = json.loads(out)
check(doc["interrupted"] is False, "not interrupted")
for r in doc["results"]:
    rounds = r["bytes_per_second_rounds"]
    check(len(rounds) == r["repeats"] == r["repeats_requested"] == 3 and r["interrupted"] is False,
          f"{r['hash']}: rounds kept")
    used = [x["bytes_per_second"] for x in r["rounds"] if not x["disturbed"]] or rounds
    check(abs(max(used) - r["bytes_per_second_best"]) <= 1e-6 * max(used), f"{r['hash']}: best is the max round used")
    # One process: the headline is the median of its undisturbed rounds (of all when none is).
    used = sorted(x["ns_per_page"] for x in r["rounds"] if not x["disturbed"]) or \
        sorted(x["ns_per_page"] for x in r["rounds"])
    mid = used[len(used) // 2] if len(used) % 2 else (used[len(used) // 2 - 1] + used[len(used) // 2]) / 2
    check(abs(mid - r["ns_per_page_median"]) <= 1e-6 * mid, f"{r['hash']}: median of the rounds used")

# --- gha: name, unit, value, range, extra; stable names; one unit
rc, out, err = run("bench", "-H", "xxh64,jhash2", *FAST, "--format", "gha")
check(rc == 0, f"bench gha: {err!r}")
arr = json.loads(out)
check(isinstance(arr, list) and len(arr) == 2, "gha: a JSON array, one entry per result")
for e in arr:
    check(set(e) == {"name", "unit", "value", "range", "extra"}, f"gha fields: {sorted(e)}")
    check(e["unit"] == "MB/s" and isinstance(e["value"], (int, float)) and e["value"] > 0, f"gha unit/value {e}")
    check(re.fullmatch(r"± \d+(\.\d)?", e["range"]) is not None, f"gha range {e['range']!r}")
    check("median over 1 process (3 rounds)" in e["extra"] and e["extra"].endswith(("stable", "unstable")),
          f"gha extra {e['extra']!r}")
check([e["name"] for e in arr] == ["xxh64 random hot 4096B window", "jhash2 random hot 4096B window"],
      f"gha names: {[e['name'] for e in arr]}")
_, out2, _ = run("bench", "-H", "xxh64,jhash2", *FAST, "--format", "gha", "--page-size", "8K", "--cache", "cold",
                 "--working-set", "1M")
# 1 MiB is under 4x a last-level cache of 256 KiB or more: warm, not cold
# (cold where no cache size is known, as under qemu-user).
check([e["name"] for e in json.loads(out2)] in ([f"xxh64 random {c} 8192B window", f"jhash2 random {c} 8192B window"]
                                               for c in ("warm", "cold")), "gha names carry the dataset")
# A file dataset by its base name, whatever its directory.
page_file = temp_file(os.urandom(8192), ".raw")
_, out3, _ = run("bench", "-H", "xxh64", *FAST, "--format", "gha", "--data", page_file)
check(json.loads(out3)[0]["name"] == f"xxh64 {os.path.basename(page_file)} hot 4096B window", "gha file name")
os.unlink(page_file)
rc, out, err = run("thread", "--repeat", "1", "--window", "1ms", "--working-set", "1M", "--format", "gha")
arr = json.loads(out) if rc == 0 else []
names = [e["name"] for e in arr]
# 8 rows in each style, 7 where the build has no ISA-L (i386).
check(len(arr) in (14, 16) and len(set(names)) == len(arr), f"thread gha: distinct names: {names}")
# The ksmd style's calls apart (as ksmd's), said in its names.
check("jhash2 zero hot 4096B jiffies" in names and ("jhash2 random warm 4096B ksmd apart" in names
                                                    or "jhash2 random cold 4096B ksmd apart" in names),
      f"thread gha names: {names}")
rc, out, err = run("select", "-H", "jhash2,xxh64,crc32c", "--format", "gha")
check(rc == 0 and all(e["name"].endswith(" zero hot 4096B jiffies") for e in json.loads(out)), "select gha")

# --- markdown: a GitHub table, the context line, warnings as a list
rc, out, err = run("bench", "-H", "xxh64,jhash2", *FAST, "--format", "markdown")
lines = out.splitlines()
check(rc == 0 and lines[0].startswith("ksmbench ") and lines[1] == "", "markdown context line")
check(lines[2].startswith("| HASH | DATA |") and lines[3].startswith("| --- | --- |"), "markdown header")
check(lines[4].startswith("| xxh64 | random | hot | window | 4096 |") and lines[5].startswith("| jhash2 |"),
      "markdown rows")
check(all(l.count("|") == 15 for l in lines[2:6]), "markdown: 14 columns each (% ceiling '-' without one)")
check(all(l.startswith("- ") for l in lines[7:] if l) and any(l.startswith("- Warning: unstable: ") for l in lines),
      "markdown warnings and notes as a list")
rc, out, err = run("thread", "--repeat", "1", "--window", "1ms", "--working-set", "1M", "--format", "markdown")
check(rc == 0 and "| HASH | kMB/s best | x jhash2 |" in out and out.count("\n| ") >= 10
      and "**What the kernel can run" in out and out.startswith("- KSM today: xxhash ("), "thread markdown")
rc, out, err = run("select", "-H", "jhash2,xxh64,crc32c", "--format", "markdown")
check(rc == 0 and re.search(r"Choice \(v2 patch: highest count, median over 1 process\): \*\*\S+\*\* \(fastest in 1\)",
                            out) is not None, f"select markdown: {out[-200:]!r}")
check_usage_error(["bench", "--format", "html"], "unknown format 'html'", "unknown bench format")
check_usage_error(["select", "--format", "csv"], "unknown format 'csv'", "unknown select format")

# --- plot: one bar per result, grouped, a labelled axis, well-formed SVG
results = temp_file(b"", ".json")
rc, out, err = run("bench", "-H", "xxh64,jhash2,crc32c-generic", *FAST, "--format", "json", "-o", results)
svg = temp_file(b"", ".svg")
rc, out, err = run("plot", results, "-o", svg, "--title", "A <test> & chart")
check(rc == 0 and out == "", f"plot -o: rc={rc} err={err!r}")
root = ET.parse(svg).getroot()
check(root.tag == SVG + "svg", "plot: an SVG document")
bars = [e for e in root.iter(SVG + "rect") if e.get("class") == "bar"]
src = json.load(open(results))["results"]
check(len(bars) == len(src) == 3, f"one bar per result: {len(bars)}")
texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
check("A <test> & chart" in texts, "title escaped and shown")
check(any(t in ("throughput, GB/s (median over processes)", "throughput, MB/s (median over processes)") for t in texts),
      "axis title")
check(any("random data, hot cache, 4096-byte pages, window timer" in t for t in texts), "group heading")
for b, r in zip(bars, src):
    check(b.get("data-hash") == r["hash"] and abs(float(b.get("data-bytes-per-second")) -
                                                   r["bytes_per_second_median"]) < 1, f"bar {r['hash']} data")
    check(r["hash"] in texts, f"bar {r['hash']} labelled")
# Bar lengths are proportional to the rates.
w = [float(b.get("width")) for b in bars]
rates = [r["bytes_per_second_median"] for r in src]
check(all(abs(w[i] / w[0] - rates[i] / rates[0]) < 0.02 for i in range(3)), f"bar widths proportional: {w}")
ticks = [t.get("x") for t in root.iter(SVG + "text") if t.get("class") == "tick"]
check(len(ticks) >= 6, f"axis ticks labelled: {len(ticks)}")
rc, out, err = run("plot", results)
check(rc == 0 and out.startswith("<?xml") and out.rstrip().endswith("</svg>"), "plot to stdout")
# thread's two datasets: two groups, 14 bars.
rc, out, err = run("thread", "--repeat", "1", "--window", "1ms", "--working-set", "1M", "--format", "json", "-o",
                   results)
nthread = len(json.load(open(results))["results"])
rc, out, err = run("plot", results)
root = ET.fromstring(out)
# thread: two panels (tests/test_plot.py checks them), a bar per result in them.
check(len([e for e in root.iter(SVG + "rect") if e.get("class") == "bar"]) == nthread >= 12,
      "thread plot: a bar per result")
check(len([t for t in root.iter(SVG + "text") if t.get("class") == "panel"]) == 2, "thread plot: two panels")
os.unlink(svg)
check_usage_error(["plot", "/nonexistent.json"], "/nonexistent.json", "plot of a missing file")
bad = temp_file(b"[1, 2]", ".json")
check_usage_error(["plot", bad], "not a ksmbench results document", "plot of a non-results file")
empty = temp_file(json.dumps({"schema": "ksmbench-results/1", "results": []}).encode(), ".json")
check_usage_error(["plot", empty], "no results", "plot of no results")
check_usage_error(["plot", bad, "-o", svg], "not a ksmbench results document", "plot -o of a bad file")
check_usage_error(["plot"], "needs a results file", "plot without a file")
check(not os.path.exists(svg), "no SVG left after a failed plot -o")
for p in (results, bad, empty):
    os.unlink(p)
finish("dashboard")
