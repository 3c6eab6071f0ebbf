"""CLI tests of --export-json, --export-csv and --export-markdown: one
measurement written in several formats (bench, thread, select), each
export parsed and checked against the others, '-' as standard output,
refused clashes and formats, and an interrupted run."""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

from clitest import BIN, run, check, check_usage_error, fast_args, finish, temporaries

tmp = tempfile.mkdtemp(prefix="ksmbench-exports-")
FAST = ["-H", "xxh64,jhash2", "--repeat", "2", "--window", "2ms"]


def p(name):
    return os.path.join(tmp, name)


def md_rows(text):
    rows = [l for l in text.splitlines() if l.startswith("| ")]
    return [[c.strip() for c in r.strip("|").split(" | ")] for r in rows]


# --- bench: the table on stdout, JSON, CSV and Markdown from the same rounds
rc, out, err = run("bench", *FAST, "--export-json", p("r.json"), "--export-csv", p("r.csv"),
                   "--export-markdown", p("r.md"))
check(rc == 0 and "HASH" in out and "xxh64" in out, f"bench with three exports: rc={rc} err={err!r}")
try:
    doc = json.load(open(p("r.json")))
    rows = list(csv.DictReader(open(p("r.csv"))))
    md = md_rows(open(p("r.md")).read())
    by_hash = {r["hash"]: r for r in doc["results"]}
    check(sorted(by_hash) == ["jhash2", "xxh64"] and doc["schema"].startswith("ksmbench-results/"),
          f"the JSON export: {sorted(by_hash)}")
    check(len(rows) == 2 and all(float(r["bytes_per_second_median"]) == round(by_hash[r["hash"]]["bytes_per_second_median"])
                                 for r in rows), "the CSV export holds the JSON's medians: one measurement")
    check(md[0][0] == "HASH" and {r[0] for r in md[2:]} == {"xxh64", "jhash2"}, f"the Markdown export: {md!r}")
    med = {r[0]: r[md[0].index("MB/s median")] for r in md[2:]}
    check(all(med[h] == f"{by_hash[h]['bytes_per_second_median'] / 1e6:.0f}" for h in med),
          f"the Markdown medians are the JSON's: {med}")
    table = {l.split()[0]: l.split() for l in out.splitlines()[2:] if l.split() and l.split()[0] in by_hash}
    check(all(f"{by_hash[h]['bytes_per_second_median'] / 1e6:.0f}" in table[h] for h in table),
          "the terminal table shows the same medians")
except (OSError, ValueError, KeyError) as e:
    check(False, f"bench exports unreadable: {e}")

# --- '-' is stdout when the report goes to a file
rc, out, err = run("bench", *FAST, "--format", "csv", "-o", p("main.csv"), "--export-json", "-")
try:
    d = json.loads(out)
    check(rc == 0 and len(d["results"]) == 2 and os.path.getsize(p("main.csv")) > 0,
          "--export-json - writes JSON on stdout beside -o")
except ValueError:
    check(False, f"--export-json - is not JSON: {out[:200]!r}")

# --- clashes and formats the kind has not: exit 2, nothing written
for args, needle in (
        (["--export-json", "-"], "'-' is written by another output already"),
        (["-o", p("x"), "--export-csv", p("x")], "is written by another output already"),
        (["--export-json", p("y"), "--export-markdown", p("y")], "is written by another output already"),
        # By the file the names lead to, not their spelling.
        (["-o", p("x"), "--export-csv", os.path.join(tmp, ".", "x")], "is written by another output already"),
        (["-o", "/dev/stdout", "--export-json", "-"], "'-' is written by another output already"),
        (["--export-json", tmp], "is a directory"),
        (["--selfcheck", "--export-json", p("z")], "--selfcheck writes one report (--format, -o): no --export-json")):
    check_usage_error(["bench", *FAST, *args], needle, f"bench {' '.join(args)}")
check(not os.path.exists(p("x")) and not os.path.exists(p("y")) and not os.path.exists(p("z")),
      "a refused run leaves no file")
# A character device takes each output in turn: /dev/null beside standard
# output sent there too is no clash.
with open(os.devnull, "w") as null:
    q = subprocess.run([BIN, "bench", *fast_args(FAST, False, False), "--export-json", os.devnull,
                        "--export-csv", os.devnull], stdout=null, stderr=subprocess.PIPE, timeout=300)
check(q.returncode == 0 and q.stderr == b"", f"exports to /dev/null beside stdout there: rc={q.returncode} {q.stderr!r}")
check_usage_error(["select", "--repeat", "1", "--export-csv", p("s.csv")], "--export-csv: unknown format 'csv'",
                  "select has no CSV")
check(not os.path.exists(p("s.csv")), "select --export-csv leaves no file")

# --- a full device: the one that failed is named, and no other output is
# put in place (every file is flushed before any is committed)
if os.path.exists("/dev/full"):
    check_usage_error(["bench", *FAST, "--format", "json", "-o", p("full.json"), "--export-csv", p("full.csv"),
                       "--export-markdown", "/dev/full"], "cannot write '/dev/full': No space left on device",
                      "an export to a full device")
    check(not os.path.exists(p("full.json")) and not os.path.exists(p("full.csv")),
          "a full export leaves neither the report nor the other export")
    with open("/dev/full", "w") as full:
        q = subprocess.run([BIN, "bench", *fast_args(FAST, False, False)], stdout=full, stderr=subprocess.PIPE,
                           timeout=300)
    lines = q.stderr.decode().splitlines()
    check(q.returncode == 2 and len(lines) == 1
          and lines[0].endswith("cannot write the report to standard output: No space left on device"),
          f"standard output full: one line naming it: rc={q.returncode} {lines}")
    # Commands that print as they go: a verdict nobody could read is no pass.
    for args in (["verify", "-H", "xxh64", "--quick"], ["list", "--names"]):
        with open("/dev/full", "w") as full:
            q = subprocess.run([BIN, *args], stdout=full, stderr=subprocess.PIPE, timeout=60)
        lines = q.stderr.decode().splitlines()
        check(q.returncode == 2 and len(lines) == 1 and "cannot write" in lines[0],
              f"{args[0]} > /dev/full: rc={q.returncode} {lines}")

# --- select and thread
rc, out, err = run("select", "-H", "jhash2,xxh64,crc32c", "--repeat", "1", "--export-json", p("s.json"),
                   "--export-markdown", p("s.md"))
try:
    d = json.load(open(p("s.json")))
    check(rc == 0 and "ksm: choise" in out and len(d["results"]) >= 2, f"select exports: rc={rc}")
    check(any(r[0] == d["results"][0]["hash"] for r in md_rows(open(p("s.md")).read())), "select's Markdown")
except (OSError, ValueError) as e:
    check(False, f"select exports: {e}")
rc, out, err = run("thread", "--repeat", "1", "--window", "2ms", "--working-set", "64M", "--export-json",
                   p("t.json"), "--export-csv", p("t.csv"), timeout=300)
try:
    d = json.load(open(p("t.json")))
    rows = list(csv.DictReader(open(p("t.csv"))))
    # The CSV has a row per published hash; the JSON its results (two per hash) and "thread" rows.
    check(rc == 0 and len(rows) > 0 and len(d["thread"]["rows"]) == len(rows) and
          {r["hash"] for r in rows} == {t["hash"] for t in d["thread"]["rows"]}, f"thread exports: rc={rc} err={err!r}")
except (OSError, ValueError) as e:
    check(False, f"thread exports: {e}")

# --- an interrupted run writes every export, marked interrupted, and leaves no temporary
before = set(os.listdir(tmp))
proc = subprocess.Popen([BIN, *fast_args(["bench", "-H", "xxh64,jhash2,crc32c", "--repeat", "20",
                                          "--window", "100ms", "-o", p("i.txt"), "--export-json", p("i.json"),
                                          "--export-csv", p("i.csv")])],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(1.0)
proc.send_signal(signal.SIGINT)
_, err = proc.communicate(timeout=120)
try:
    d = json.load(open(p("i.json")))
    check(proc.returncode == 130 and d["interrupted"] is True and os.path.getsize(p("i.csv")) > 0
          and os.path.getsize(p("i.txt")) > 0, f"interrupted: rc={proc.returncode} {err[-200:]!r}")
except (OSError, ValueError) as e:
    check(False, f"interrupted run's exports: {e}")
left = [n for n in os.listdir(tmp) if ".tmp-" in n]
check(left == [], f"no temporary left: {left}")
# A second signal ends the process at once: the temporaries go with it.
proc = subprocess.Popen([BIN, *fast_args(["bench", "-H", "xxh64", "--repeat", "50", "--window", "200ms",
                                          "-o", p("k.txt"), "--export-json", p("k.json")])],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
deadline = time.time() + 30
while time.time() < deadline and len(temporaries(proc.pid, tmp)) < 2:
    time.sleep(0.02)
proc.send_signal(signal.SIGTERM)
time.sleep(0.05)
proc.send_signal(signal.SIGTERM)
proc.communicate(timeout=60)
left = [n for n in os.listdir(tmp) if ".tmp-" in n]
check(proc.returncode == 143 and left == [], f"two SIGTERMs: rc={proc.returncode}, left {left}")

# --- a dataset's file name from outside: bytes that are not UTF-8 keep the
# JSON valid (written \xHH, as the other formats show them), and a name with
# newlines and escapes neither adds Markdown lines nor reaches a terminal raw
page = os.urandom(8192)
bad = os.path.join(os.fsencode(tmp), b"bad\xff.raw")
evil = os.path.join(os.fsencode(tmp), b"n\n# Injected heading\n\x1b]0;t\x07.raw")
for name in (bad, evil):
    with open(name, "wb") as f:
        f.write(page)
one = [BIN, "bench", "-H", "xxh64", "--processes", "1", "--repeat", "1", "--window", "2ms", "--no-ceiling", "-q"]
r = subprocess.run([*one, "--data", bad, "--format", "json"], capture_output=True)
try:
    d = json.loads(r.stdout)  # bytes: decoded strictly as UTF-8
    check(r.returncode == 0 and d["results"][0]["data"].endswith("bad\\xff.raw"), "non-UTF-8 name: valid JSON, \\xHH")
except ValueError as e:
    check(False, f"non-UTF-8 name: JSON not valid: {e}")
r = subprocess.run([*one, "--data", evil, "--format", "markdown"], capture_output=True)
check(r.returncode == 0 and not any(l.startswith(b"# Injected") for l in r.stdout.splitlines())
      and b"\x1b" not in r.stdout, f"a name's newlines and escapes stay in their line: {r.stdout[-300:]!r}")
r = subprocess.run([*one, "--data", evil], capture_output=True)
check(r.returncode == 0 and b"\x1b" not in r.stdout, "nor reach the terminal raw (the line under the table)")

shutil.rmtree(tmp)
finish("exports")
