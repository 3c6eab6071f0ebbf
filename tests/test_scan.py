"""CLI tests of `ksmbench scan` and `ksmbench ksm`: statistics of dumps with
known zero, duplicate and unique pages in several formats (duplicates across
dumps too), the KSM model, JSON and CSV fields, the most duplicated contents,
the cost fields, and errors (one line on stderr, exit 2)."""
import csv
import io
import json
import subprocess
import os
import re
import sys
import shutil
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpgen  # noqa: E402
from clitest import BIN, check, check_usage_error, finish, ksmd_period_ns, quoted, run, temp_file  # noqa: E402

PS = 4096
ZERO = bytes(PS)
A, B, C = dumpgen.page("A"), dumpgen.page("B"), bytes([0x5A]) * PS
FAST = ["--sample-pages", "64", "--working-set", "1M", "--repeat", "1", "--window", "1ms"]


def scan_json(*args):
    rc, out, err = run("scan", "--format", "json", *args)
    ok = check(rc == 0, f"scan {args}: rc={rc} {err!r}")
    return json.loads(out) if ok else None


# Dump 1 (raw): 3 zero, A x 4, B x 2, 5 unique. Dump 2 (ELF, two segments):
# A x 2, C x 3, 1 zero, 2 unique. Over both: zero 4, A 6, B 2, C 3, 7 unique.
raw_pages = [ZERO] * 3 + [A] * 4 + [B] * 2 + [dumpgen.page(("u1", i)) for i in range(5)]
raw_path = temp_file(b"".join(raw_pages))
elf_segs = [(0x100000, A + C + C + ZERO), (0x900000, C + A + dumpgen.page("u2a") + dumpgen.page("u2b"))]
elf_path = temp_file(dumpgen.elf(elf_segs, data_align=1))  # pages unaligned in the file
gz_path = temp_file(dumpgen.gz(dumpgen.elf(elf_segs)))

d = scan_json("--sample-pages", "0", "--top", "4", raw_path, elf_path)
if d:
    t = d["totals"]
    check(d["schema"] == "ksmbench-scan/1", "schema string")
    # Nothing timed with the counter: it is identified, not calibrated.
    check(d["context"]["tsc_hz"] is None and d["context"]["counter_step_ticks"] is None
          and d["context"]["timer_overhead_tsc_cycles"] is None, "no sampling: the counter not calibrated")
    check(t["pages"] == 22 and t["zero_pages"] == 4 and t["distinct_contents"] == 3 + 7, f"totals {t}")
    check(t["duplicated_contents"] == 3 and t["duplicate_pages"] == 5 + 1 + 2, f"duplicates {t}")
    k0, k1 = d["ksm"]["use_zero_pages_0"], d["ksm"]["use_zero_pages_1"]
    check(k0["pages_shared"] == 4 and k0["pages_sharing"] == 3 + 5 + 1 + 2 and k0["pages_unshared"] == 7,
          f"use_zero_pages=0 model {k0}")
    check(k1["pages_shared"] == 3 and k1["pages_sharing"] == 8 and k1["ksm_zero_pages"] == 4
          and k1["bytes_saved"] == 12 * PS, f"use_zero_pages=1 model {k1}")
    check([x["format"] for x in d["dumps"]] == ["raw", "elf"] and all(x["fetchable"] for x in d["dumps"]),
          "formats, pages read again from the files")
    check(d["census"]["spilled_pages"] == 0 and d["census"]["compares"] == 8, f"census {d['census']}")
    top = d["top"]
    check([x["count"] for x in top] == [6, 4, 3, 2], f"top counts {top}")
    # Asked for more: the contents of one copy are not listed.
    more = scan_json("--sample-pages", "0", "--top", "20", raw_path, elf_path)
    check(more and [x["count"] for x in more["top"]] == [6, 4, 3, 2], f"--top 20: duplicated contents only: {more and more['top']}")
    check(top[1]["zero_page"] and top[2]["single_byte"] and top[2]["byte_value"] == 0x5A
          and not top[0]["single_byte"], f"top contents {top}")
    h = d["hashes"][0]
    # KSM keeps the low 32 bits: the last 8 hex digits of sum's digest of a
    # zero page (xxh64 on 64-bit builds: 32d8bbdb; xxh32 on 32-bit ones)
    zero_file = temp_file(ZERO)
    rc, out, err = run("sum", "-H", "xxhash", zero_file)
    os.unlink(zero_file)
    want_zero = out.split()[0][-8:] if rc == 0 else "?"
    check(h["implementation"] != "xxh64" or want_zero == "32d8bbdb", "xxh64 zero page checksum")
    check(h["hash"] == "xxhash" and h["zero_checksum"] == want_zero and h["contents"] == 11
          and h["colliding_pairs"] == 0, f"xxhash collisions {h}")
    check(abs(h["expected_colliding_pairs"] - 11 * 10 / 2 / 2**32) < 1e-15, "expected pairs formula")
    check(h["ns_per_page_median"] is None and h["timing"] is None, "no cost with --sample-pages 0")

# gzip: no random access, the census keeps copies (spill) and gets the same answer
g = scan_json("--sample-pages", "0", gz_path)
e = scan_json("--sample-pages", "0", elf_path)
if g and e:
    check(g["ksm"] == e["ksm"] and g["totals"]["distinct_contents"] == e["totals"]["distinct_contents"],
          "gzip and plain ELF agree")
    check(not g["dumps"][0]["fetchable"] and g["census"]["spilled_pages"] == g["totals"]["distinct_contents"],
          f"gzip: representatives spilled {g['census']}")

# kdump with 1 KiB pages (zero pages shared, one excluded)
kd = temp_file(dumpgen.kdump({1: dumpgen.page("k", 1024), 2: bytes(1024), 4: dumpgen.page("k", 1024),
                              6: bytes(1024)}, 16, block_size=1024, excluded=(3,)))
k = scan_json("--sample-pages", "0", "--page-size", "1K", kd)
if k:
    check(k["totals"]["pages"] == 4 and k["totals"]["zero_pages"] == 2 and k["totals"]["excluded"] == 1
          and k["totals"]["duplicate_pages"] == 1, f"kdump totals {k['totals']}")

# max_page_sharing: 600 copies of one page at 256 per KSM page: 3 KSM pages (256, 256, 88)
many = temp_file(A * 600 + C * 257)
m = scan_json("--sample-pages", "0", many)
if m:
    k0 = m["ksm"]["use_zero_pages_0"]
    # C: 257 = 256 + 1: one KSM page, the odd copy stays unshared
    check(k0["pages_shared"] == 3 + 1 and k0["pages_sharing"] == 597 + 255 and k0["pages_unshared"] == 1,
          f"max_page_sharing 256 {k0}")
m = scan_json("--sample-pages", "0", "--max-page-sharing", "0", many)
if m:
    check(m["ksm"]["use_zero_pages_0"]["pages_shared"] == 2, "--max-page-sharing 0: no limit")

# A raw file of more than 4 MiB, and an ELF segment or LiME range of 4 MiB
# or more (here the same pages, the ELF's split around a small segment and
# not page aligned), are read ahead (and digested) on a second thread.
# Not under emulation: qemu-i386 (Debian 12) hangs in any pthread_create.
EMULATED = os.environ.get("KSMBENCH_TEST_EMULATED") == "1"
big_pages = []
for i in range(1400):
    big_pages.append(ZERO if i % 5 == 0 else A if i % 5 == 1 else dumpgen.page(("big", i)))
big_segs = [(0x10000000, b"".join(big_pages[:1100])), (0x30000000, b"".join(big_pages[1100:1102])),
            (0x40000000, b"".join(big_pages[1102:]))]
big = [temp_file(b"".join(big_pages)), temp_file(dumpgen.elf(big_segs, data_align=1)),
       temp_file(dumpgen.lime([(0x10000000, b"".join(big_pages))]))]
for name, path in zip(("raw", "elf", "lime"), big):
    if EMULATED:
        print("skipped under emulation: the read-ahead thread (qemu-i386 hangs creating threads)")
        break
    b = scan_json("--sample-pages", "0", path)
    check(b and b["dumps"][0]["format"] == name and b["totals"]["pages"] == 1400
          and b["totals"]["zero_pages"] == 280 and b["totals"]["distinct_contents"] == 1 + 840
          and b["totals"]["duplicate_pages"] == 279, f"read-ahead totals, {name}: {b and b['totals']}")

# Cost, several hashes, table and CSV
d = scan_json(*FAST, "-H", "xxhash,jhash2,crc32c", "--pages-to-scan", "200", "--sleep-ms", "10", raw_path)
if d:
    for h in d["hashes"]:
        ok = h["ns_per_page_median"] > 0 and h["ns_per_page_p90"] >= h["ns_per_page_median"] * 0.5
        c = h["ns_per_page_median"]
        ok = ok and abs(h["full_scan_checksum_ms"] - 14 * c / 1e6) < 1e-9
        # HZ 250 (no capture: the kernel's default): 10 ms is 3 jiffies, a batch every 16 ms.
        ok = ok and abs(h["ksmd_checksum_cpu_share"] - 200 * c / ksmd_period_ns(10, 250, 200 * c)) < 1e-12
        ok = ok and h["timing"]["timer"] == "rdtsc" and h["timing"]["cache"] == "cold"
        check(ok, f"cost fields of {h['hash']}: {h}")
        # Each call apart, as ksmd's (every build tested has a fence).
        check(h["timing"]["calls_apart"] is True, f"{h['hash']}'s cost timed apart: {h['timing']['calls_apart']}")
    check([h["zero_checksum"] for h in d["hashes"]][1] == "61574272", "jhash2 zero_checksum (KSM's old one)")
    check(d["settings"]["pages_to_scan"] == 200 and d["settings"]["sleep_millisecs"] == 10
          and d["settings"]["hz"] == 250 and d["settings"]["hz_from"] == "default", f"settings {d['settings']}")
    check(d["context"]["pinned_cpu"] >= 0, "context object")
    tsc = d["context"]["tsc_hz"]
    check(d["context"]["counter_step_ticks"] >= 1 and (tsc is None or tsc > 1e6), "sampling: the counter calibrated")
# Without --repeat and --window, the cost's own defaults (--help's): 3
# rounds of 50 ms.
d = scan_json("--sample-pages", "64", "--working-set", "1M", "-H", "xxhash", raw_path)
t = d["hashes"][0]["timing"] if d else {}
check(t.get("repeats_requested") == 3 and t.get("round_ns") == 50000000 and t.get("timer") == "rdtsc",
      f"the cost's defaults: {t.get('repeats_requested')} rounds of {t.get('round_ns')} ns, {t.get('timer')}")

# sleep_millisecs 0: ksmd never sleeps; the share the model gives (100%) is
# said to count the checksums alone.
rc, out, err = run("scan", *FAST, "-H", "xxhash", "--sleep-ms", "0", raw_path)
check(rc == 0 and "note: sleep_millisecs 0: ksmd never sleeps and takes a whole CPU" in " ".join(out.split()),
      f"scan --sleep-ms 0: the 100% explained: {out[:600]!r}")
rc, out, err = run("scan", *FAST, "-H", "xxhash", raw_path)
check(rc == 0 and "never sleeps" not in out, "no such note at 20 ms")
# The table's cost rows: the checksum time of a full scan and how long one
# takes, apart (a column named "ms/full scan" read as the second); the
# JSON's figures, as printed. --wide adds ns/page p90.
rc, out, err = run("scan", *FAST, "-H", "xxhash", raw_path)
head = next((l for l in out.splitlines() if l.startswith("HASH") and "s/full scan" in l), "")
row = next((l.split() for l in out.splitlines() if l.startswith("xxhash ") and len(l.split()) >= 7), [])
check(rc == 0 and "cksum ms/scan" in head and "p90" not in head and len(row) >= 7 and float(row[4]) > 0,
      f"scan's cost table: checksum time and scan time apart: {head!r} {row}")
rc, out, err = run("scan", *FAST, "-H", "xxhash", "--wide", raw_path)
check(rc == 0 and any("ns/page p90" in l and "s/full scan" in l for l in out.splitlines()), "--wide: p90 too")
rc, out, err = run("scan", *FAST, "--format", "csv", "-H", "xxhash,xxh3", raw_path)
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(len(rows) == 2 and rows[0]["pages"] == "14" and rows[0]["zero_pages"] == "3"
      and rows[1]["implementation"].startswith("xxh3") and float(rows[0]["ns_per_page_median"]) > 0,
      f"csv: {err!r} {rows[:1]}")
rc, out, err = run("scan", *FAST, "--top", "2", raw_path)
check(rc == 0 and "pages_shared" in out and "ksmd CPU %" in out and "zero page" in out, f"table: {err!r}")
check("each apart as ksmd's" in " ".join(out.split()), "the table's cost legend: each call apart")
# csv and tsv have a row per hash and no place for the top contents: --top
# there was read twice over the dumps and dropped without a word (until
# 2026-12-07); refused, as other options that would change nothing are.
for fmt in ("csv", "tsv"):
    check_usage_error(["scan", "--sample-pages", "0", "--top", "2", "--format", fmt, raw_path],
                      f"--top is in the table and the JSON, not in --format {fmt}", f"--top with --format {fmt}")
rc, out, err = run("scan", "--sample-pages", "0", "--top", "0", "--format", "csv", raw_path)
check(rc == 0 and out.startswith("hash,"), f"--top 0 (none) with csv: {err!r}")
# --top over pages that are all unique and none zero: no list, a line that says why.
unique = temp_file(b"".join(os.urandom(4096) for _ in range(8)))
rc, out, err = run("scan", "--sample-pages", "0", "--top", "3", unique)
check(rc == 0 and "--top 3: no content has two copies or more" in " ".join(out.split()) and "RANK" not in out,
      f"--top over unique pages: {out[-300:]!r} {err!r}")
rc, out, err = run("scan", "--sample-pages", "0", unique)
check(rc == 0 and "--top" not in out, "no such line without --top")
os.unlink(unique)

# --top reads the dumps a second time: a FIFO is not opened again (its
# writer has gone, and the open would wait for ever), as standard input is not.
fifo = os.path.join(tempfile.mkdtemp(prefix="ksmbench-fifo-"), "dump")
os.mkfifo(fifo)
writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", raw_path, fifo])
try:
    rc, out, err = run("scan", "--sample-pages", "0", "--top", "2", "--format", "json", fifo, timeout=60)
except subprocess.TimeoutExpired:
    rc, out, err = -1, "", "timed out"
writer.wait(timeout=60)
top = json.loads(out)["top"] if rc == 0 else []
check(len(top) == 2 and not any(x["located"] for x in top) and top[0]["count"] == 4,
      f"--top of a FIFO: counted, not located: rc={rc} err={err!r}")
os.unlink(fifo)
# The same from standard input, as a table: each row says where its copies
# are cannot be told (never rendered by a test before).
with open(raw_path, "rb") as f:
    rc, out, err = run("scan", "--sample-pages", "0", "--top", "2", "-", stdin=f.read(), timeout=60)
rows = [line.split(None, 4) for line in out.splitlines() if re.match(r" +[12] +\d+ ", line)]
check(rc == 0 and len(rows) == 2 and rows[0][1] == "4"
      and all(r[4].endswith("(a pipe or standard input: not read again)") for r in rows),
      f"--top of standard input as a table: rc={rc} {rows} {err!r}")

out_path = os.path.join(tempfile.mkdtemp(prefix="ksmbench-scan-"), "r.json")
rc, out, err = run("scan", "--sample-pages", "0", "--format", "json", "-o", out_path, raw_path)
check(rc == 0 and out == "" and json.load(open(out_path))["totals"]["pages"] == 14, "-o FILE")
rc, out, err = run("scan", "--sample-pages", "0", "-o", out_path + "2", raw_path, "/nonexistent/x")
check(rc == 2 and not os.path.exists(out_path + "2"), "no output file after a failed scan")

check_usage_error(["scan"], "no dump", "scan without a dump")
check_usage_error(["scan", "/nonexistent/dump"], "/nonexistent/dump", "missing dump")
check_usage_error(["scan", "--pages-to-scan", "0", raw_path], "pages-to-scan", "pages_to_scan 0")
check_usage_error(["scan", "--sleep-ms", "x", raw_path], "sleep-ms", "bad sleep")
check_usage_error(["scan", "--top", "5000", raw_path], "top", "top too large")
check_usage_error(["scan", "--max-page-sharing", "1", raw_path], "max-page-sharing", "max_page_sharing 1")
check_usage_error(["scan", "--format", "kernel", raw_path], "format", "bad format")
check_usage_error(["scan", "-H", "nosuch", raw_path], "nosuch", "unknown hash")
check_usage_error(["scan", "--bogus", raw_path], "bogus", "unknown option")
check_usage_error(["scan", "--input-format", "lime-raw", raw_path], "lime-ranges", "lime-raw without ranges")

# ksm: a fake sysfs directory, json and table; absent files are not shown
fake = tempfile.mkdtemp(prefix="ksmbench-ksmdir-")
for name, value in {"run": "1", "pages_to_scan": "100", "sleep_millisecs": "20", "pages_sharing": "7",
                    "advisor_mode": "[none] scan-time", "new_counter": "3"}.items():
    with open(os.path.join(fake, name), "w") as f:
        f.write(value + "\n")
rc, out, err = run("ksm", "--format", "json", env={"KSMBENCH_KSM_DIR": fake})
doc = json.loads(out) if rc == 0 else {}
check(doc.get("schema") == "ksmbench-ksm/1" and doc["sysfs"]["pages_sharing"] == 7
      and doc["sysfs"]["advisor_mode"] == "none" and doc["sysfs"]["new_counter"] == 3
      and "pages_shared" not in doc["sysfs"] and doc["process"] is None and "pages_sharing" in doc["meanings"],
      f"ksm json: {err!r} {doc}")
# ksmd's rate at the running kernel's HZ (a jiffy is CLOCK_MONOTONIC_COARSE's
# resolution): 100 pages a batch, 20 ms slept as whole jiffies and a tick.
HZ = round(1 / time.clock_getres(6))  # CLOCK_MONOTONIC_COARSE (not named in Python)
RATE = 100 * 1e9 / ksmd_period_ns(20, HZ)
check(doc.get("hz") == HZ and abs(doc.get("max_pages_per_second", 0) - RATE) < 1e-6,
      f"ksm json: the rate at HZ {HZ}: {RATE} pages/s: {doc.get('hz')} {doc.get('max_pages_per_second')}")
PAGE = os.sysconf("SC_PAGE_SIZE")  # what ksmd scans: the rate in MiB/s is of these
# A long directory name (CI's TMPDIR) must not take the meanings' room.
long_fake = os.path.join(fake, "d" * 150)
shutil.copytree(fake, long_fake)
for d in (fake, long_fake):
    rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": d})
    first = out.splitlines()[0] if out else ""
    whole = first == "# " + d
    cut = first.startswith("# " + d[:20]) and "..." in first and first.endswith(d[-40:])
    # Whole where it fits: a long TMPDIR alone makes the short one's cut too.
    check(rc == 0 and (whole if len("# " + d) <= 100 else cut) and "further mappings of KSM pages" in out
          and "%.0f pages/s" % RATE in out and "pages_volatile" not in out
          and f"a batch every {ksmd_period_ns(20, HZ) / 1e6:.0f} ms" in " ".join(out.split())
          and "%.1f MiB/s of %d KiB pages" % (RATE * PAGE / 1048576, PAGE // 1024) in " ".join(out.split())
          and max(len(l) for l in out.splitlines()) <= 100, f"ksm table: {err!r} {out!r}")
# sleep_taken_ms from sleep_millisecs alone: 0 for no sleep (and no rate
# then), a number with pages_to_scan unreadable (and no rate then).
for pts, sleep, taken, rate in (("100", "0", 0.0, None), ("18446744073709551615x", "20", ksmd_period_ns(20, HZ) / 1e6, None),
                                ("100", "20", ksmd_period_ns(20, HZ) / 1e6, RATE)):
    for name, value in (("pages_to_scan", pts), ("sleep_millisecs", sleep)):
        with open(os.path.join(fake, name), "w") as f:
            f.write(value + "\n")
    rc, out, err = run("ksm", "--format", "json", env={"KSMBENCH_KSM_DIR": fake})
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and d.get("sleep_taken_ms") is not None and abs(d["sleep_taken_ms"] - taken) < 1e-9
          and (d.get("max_pages_per_second") is None if rate is None else abs(d["max_pages_per_second"] - rate) < 1e-6),
          f"ksm json at pages_to_scan {pts}, sleep {sleep}: sleep_taken_ms {taken}, rate {rate}: {err!r} "
          f"{d.get('sleep_taken_ms')} {d.get('max_pages_per_second')}")
# With the scan-time advisor on, the rate is of the advisor's pages_to_scan
# now, which it moves after every full scan: said so (not with it off).
for mode, said in (("none [scan-time]", True), ("[none] scan-time", False)):
    with open(os.path.join(fake, "advisor_mode"), "w") as f:
        f.write(mode + "\n")
    rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": fake})
    check(rc == 0 and ("advisor_mode scan-time: pages_to_scan is the advisor's choice now" in " ".join(out.split())) == said,
          f"ksm with advisor_mode {mode!r}: the rate's pages_to_scan {'said to be' if said else 'not'} the advisor's: "
          f"{out[-400:]!r}")
# With no sleep (5.0+: a sleep of 0 does not sleep) no rate, but a line
# saying so, the advisor's note with it.
if tuple(int(x) for x in re.findall(r"\d+", os.uname().release)[:2]) >= (5, 0):
    for name, value in (("sleep_millisecs", "0"), ("advisor_mode", "none [scan-time]")):
        with open(os.path.join(fake, name), "w") as f:
            f.write(value + "\n")
    rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": fake})
    text = " ".join(out.split())
    check(rc == 0 and "ksmd scans pages_to_scan pages a batch with no sleep between batches (sleep_millisecs 0)" in text
          and "advisor_mode scan-time: pages_to_scan is the advisor's choice now" in text and "pages/s" not in text,
          f"ksm at sleep 0: no rate, the line and the advisor's note: {out[-500:]!r}")
    for name, value in (("sleep_millisecs", "20"), ("advisor_mode", "[none] scan-time")):
        with open(os.path.join(fake, name), "w") as f:
            f.write(value + "\n")
with open(os.path.join(fake, "run"), "w") as f:
    f.write("0\n")
rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": fake})
check(rc == 0 and "ksmd would scan at most" in out and "(KSM is off: run=0)" in " ".join(out.split()),
      f"ksm: the rate with KSM off is what it would scan: {out[-300:]!r}")
with open(os.path.join(fake, "run"), "w") as f:
    f.write("1\n")
# --watch with pages_sharing holding no number: merges unknown (null, "-"),
# not a rate computed from the placeholder of a missing file (until 2026-12-08).
for name, value in (("full_scans", "0"), ("pages_sharing", "x")):
    with open(os.path.join(fake, name), "w") as f:
        f.write(value + "\n")
rc, out, err = run("ksm", "--watch", "20ms", "--count", "1", "--format", "json", env={"KSMBENCH_KSM_DIR": fake})
w = json.loads(out) if rc == 0 else {}
check(rc == 0 and "merges_per_second" in w and w["merges_per_second"] is None, f"ksm --watch: merges unknown: {err!r} {w}")
rc, out, err = run("ksm", "--watch", "20ms", "--count", "1", env={"KSMBENCH_KSM_DIR": fake})
row = out.splitlines()[-1].split() if rc == 0 and out else []
check(len(row) > 2 and row[2] == "-", f"ksm --watch table: merges/s '-': {err!r} {out[-300:]!r}")
os.unlink(os.path.join(fake, "full_scans"))
with open(os.path.join(fake, "pages_sharing"), "w") as f:
    f.write("7\n")
rc, out, err = run("ksm", "--wide", env={"KSMBENCH_KSM_DIR": long_fake})
check(rc == 0 and out.startswith("# " + long_fake + "\n"), f"ksm --wide: the directory whole: {err!r}")
# --profile with KSMBENCH_KALLSYMS naming a FIFO: refused at once, the
# variable named (opened blocking, it waited for a writer for ever). Its
# checks before the symbols need root and a ksmd thread; "run" is the fake's.
def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:  # gone meanwhile
        return ""


if os.geteuid() == 0 and any(comm(p) == "ksmd" for p in os.listdir("/proc") if p.isdigit()):
    fifo = os.path.join(tempfile.mkdtemp(prefix="ksmbench-kallsyms-"), "fifo")
    os.mkfifo(fifo)
    check_usage_error(["ksm", "--profile", "100ms"], f"KSMBENCH_KALLSYMS '{quoted(fifo)}' is not a regular file",
                      "ksm --profile with KSMBENCH_KALLSYMS a FIFO", env={"KSMBENCH_KSM_DIR": fake, "KSMBENCH_KALLSYMS": fifo},
                      timeout=60)
    shutil.rmtree(os.path.dirname(fifo))
if os.path.exists("/proc/self/ksm_stat"):
    rc, out, err = run("ksm", "--pid", str(os.getpid()), "--format", "json")
    doc = json.loads(out) if rc == 0 else {}
    check(doc.get("process", {}).get("pid") == os.getpid() and "ksm_merging_pages" in doc["process"]
          and doc["process"].get("ksm_mergeable") in ("no", "yes"), f"ksm --pid: {err!r}")
    # The table's process block (never rendered by a test before): a header
    # naming the PID after the sysfs table, then each /proc/PID/ksm_stat
    # value the JSON has, as a row of name, value and meaning.
    rc, out, err = run("ksm", "--pid", str(os.getpid()), env={"KSMBENCH_KSM_DIR": fake})
    lines = out.splitlines()
    at = [i for i, line in enumerate(lines) if re.match(rf"process {os.getpid()} +value +meaning$", line)]
    rows = {}
    for line in lines[at[0] + 2:] if at else []:
        parts = line.split(None, 2)
        if len(parts) >= 2:
            rows[parts[0]] = parts[1]
    want = {k: str(v) for k, v in doc.get("process", {}).items() if k != "pid"}
    check(rc == 0 and len(at) == 1 and lines[at[0] - 1] == "" and set(rows) == set(want)
          and all(rows[k] == want[k] for k in ("ksm_mergeable", "ksm_merge_any") if k in want),
          f"ksm --pid as a table: rc={rc} rows={rows} want={want} {err!r}")
# Integers past 2^53 come out whole (not 9.00719925474099e+15); a directory
# of more files than KSM's is refused, not cut (run and pages_to_scan went).
bigdir = tempfile.mkdtemp(prefix="ksmbench-ksmbig-")
for name, value in (("pages_to_scan", "9007199254740993"), ("general_profit", "-9223372036854775807"),
                    ("sleep_millisecs", "20"), ("run", "0")):
    with open(os.path.join(bigdir, name), "w") as f:
        f.write(value + "\n")
rc, out, err = run("ksm", "--format", "json", env={"KSMBENCH_KSM_DIR": bigdir})
sysfs = json.loads(out)["sysfs"] if rc == 0 else {}
check(sysfs.get("pages_to_scan") == 9007199254740993 and sysfs.get("general_profit") == -9223372036854775807,
      f"ksm json: large integers whole: {err!r} {sysfs}")
for i in range(80):
    with open(os.path.join(bigdir, f"zz_extra_{i}"), "w") as f:
        f.write("1\n")
check_usage_error(["ksm"], "holds more than 64 files", "ksm: a directory of 84 files", env={"KSMBENCH_KSM_DIR": bigdir})
shutil.rmtree(bigdir)
# A file that cannot be read is an error, not a row left out (out of
# descriptors gave an empty table, exit 0); so is an empty directory.
emptydir = tempfile.mkdtemp(prefix="ksmbench-ksm-empty-")
check_usage_error(["ksm"], "holds no KSM settings or counters", "ksm: an empty directory",
                  env={"KSMBENCH_KSM_DIR": emptydir})
os.rmdir(emptydir)
p = subprocess.run(f"ulimit -n 4 && exec '{BIN}' ksm", shell=True, capture_output=True, text=True,
                   env={**os.environ, "KSMBENCH_KSM_DIR": fake})
check(p.returncode in (2, 127) and (p.returncode == 127 or "cannot read" in p.stderr),
      f"ksm out of descriptors: one error, exit 2: rc={p.returncode} {p.stderr!r}")
# --watch: settings past 32 bits are taken whole (4294967296 read as 0 made
# the share 0%); counters that vanish or go back end the watch with one
# error (they gave rows of -1 and negative rates, exit 0).
with open(os.path.join(fake, "pages_scanned"), "w") as f:
    f.write("1000\n")
with open(os.path.join(fake, "full_scans"), "w") as f:
    f.write("1\n")
with open(os.path.join(fake, "pages_to_scan"), "w") as f:
    f.write("4294967296\n")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", "--format", "json", env={"KSMBENCH_KSM_DIR": fake})
row = json.loads(out) if rc == 0 else {}
check(row.get("pages_to_scan") == 4294967296 and row.get("checksum_cpu_share_settings", 0) > 0.99
      and "pages_skipped_per_second" in row and row["pages_skipped_per_second"] is None,
      f"--watch: pages_to_scan past 32 bits: {err!r} {row}")
# No full scan ended in the interval (the fake counters stand still): no
# seconds per scan, null and "-" (it read 0, a scan in no time).
check("full_scan_seconds" in row and row["full_scan_seconds"] is None and row.get("full_scans") == 0,
      f"--watch: no full scan ended: full_scan_seconds null: {row}")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", env={"KSMBENCH_KSM_DIR": fake})
rows = [l.split() for l in out.splitlines() if l[:8].strip().replace(".", "").isdigit()]
check(rc == 0 and len(rows) == 1 and rows[0][3:5] == ["0", "-"], f"--watch table: no full scan ended: '-': {out!r}")
for label, change in (("the directory gone", lambda d: shutil.rmtree(d)),
                      ("pages_scanned back", lambda d: open(os.path.join(d, "pages_scanned"), "w").write("5\n"))):
    watched = tempfile.mkdtemp(prefix="ksmbench-ksmwatch-")
    shutil.rmtree(watched)
    shutil.copytree(fake, watched)
    p = subprocess.Popen([BIN, "ksm", "--watch", "200ms", "--count", "5", "--format", "json"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=dict(os.environ, KSMBENCH_KSM_DIR=watched))
    first = p.stdout.readline()  # the first interval's row (after the cold cost, slow under the sanitizers)
    change(watched)
    out, err = p.communicate(timeout=60)
    out = first + out
    lines = err.decode().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and "-1" not in out.decode() and "e+" not in out.decode(),
          f"--watch, {label}: one error, no row of nonsense: rc={p.returncode} {lines}")
    shutil.rmtree(watched, ignore_errors=True)
# A kernel before 6.6 has no pages_scanned (nor ksm_zero_pages; 6.1 has no
# general_profit either): the watch runs, its scan rate and measured share
# unknown (it refused every kernel before 6.6); without full_scans, as old
# as KSM, it is refused.
old_ksm = tempfile.mkdtemp(prefix="ksmbench-ksm61-")
for name, value in (("full_scans", 3), ("pages_shared", 10), ("pages_sharing", 40), ("pages_unshared", 5),
                    ("pages_volatile", 1), ("pages_to_scan", 100), ("sleep_millisecs", 20), ("run", 1)):
    with open(os.path.join(old_ksm, name), "w") as f:
        f.write(f"{value}\n")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", "--format", "json", env={"KSMBENCH_KSM_DIR": old_ksm})
row = json.loads(out) if rc == 0 else {}
check(rc == 0 and row.get("pages_scanned_per_second", 0) is None and row.get("checksum_cpu_share_measured", 0) is None
      and row.get("checksum_cpu_share_settings", 0) > 0 and row.get("pages_sharing") == 40
      and row.get("ksm_zero_pages", 0) is None and row.get("general_profit", 0) is None,
      f"--watch on a 6.1 kernel's counters: {err!r} {row}")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", env={"KSMBENCH_KSM_DIR": old_ksm})
last = out.splitlines()[-1].split() if rc == 0 and out else []
check(len(last) == 11 and last[1] == "-" and last[-1] == "-" and last[6] == "40",
      f"--watch table on a 6.1 kernel's counters: scanned/s and cksum% '-': {out!r} {err!r}")
# Settings the watch cannot read (missing, not a number, negative: no
# kernel writes one) are "-" and their cost unknown, null in JSON: the
# header read "pages_to_scan -9223372036854775808 / sleep
# -9223372036854775808 ms, checksumming costs 0.000%", and a negative
# counter was shown as a count (until 2026-12-07).
for name, value in (("pages_to_scan", "-5"), ("sleep_millisecs", "abc"), ("pages_shared", "-3")):
    with open(os.path.join(old_ksm, name), "w") as f:
        f.write(value + "\n")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", env={"KSMBENCH_KSM_DIR": old_ksm})
text = " ".join(out.split())
check(rc == 0 and "at pages_to_scan - / sleep - ms, checksumming costs unknown" in text and "-922" not in out
      and "-5" not in out and "-3" not in out, f"--watch with unreadable settings: '-', cost unknown: {out!r} {err!r}")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", "--format", "json", env={"KSMBENCH_KSM_DIR": old_ksm})
row = json.loads(out) if rc == 0 else {}
check(rc == 0 and all(k in row and row[k] is None for k in ("pages_to_scan", "sleep_millisecs", "pages_shared",
                                                              "checksum_cpu_share_settings")),
      f"--watch json with unreadable settings: null: {row} {err!r}")
# One setting unreadable is enough for the cost to be unknown; a counter
# of 0 is a count (only one below 0 is none).
for name, value in (("sleep_millisecs", "20"), ("pages_volatile", "0")):
    with open(os.path.join(old_ksm, name), "w") as f:
        f.write(value + "\n")
rc, out, err = run("ksm", "--watch", "100ms", "--count", "1", "--format", "json", env={"KSMBENCH_KSM_DIR": old_ksm})
row = json.loads(out) if rc == 0 else {}
check(rc == 0 and row.get("sleep_millisecs") == 20 and row.get("pages_to_scan", 0) is None
      and row.get("checksum_cpu_share_settings", 0) is None and row.get("pages_volatile") == 0,
      f"--watch json with pages_to_scan alone unreadable: its cost null, a count of 0 kept: {row} {err!r}")
os.unlink(os.path.join(old_ksm, "full_scans"))
# A directory KSMBENCH_KSM_DIR names is said to be that variable's, not a
# kernel without KSM (the hint is for /sys/kernel/mm/ksm), its value cut.
check_usage_error(["ksm", "--watch", "100ms", "--count", "1"],
                  f"cannot read full_scans in KSMBENCH_KSM_DIR '{old_ksm[:60]}", "--watch without full_scans",
                  env={"KSMBENCH_KSM_DIR": old_ksm})
shutil.rmtree(old_ksm)
check_usage_error(["ksm"], "cannot read KSMBENCH_KSM_DIR '/nonexistent-ksm': No such file or directory",
                  "ksm without sysfs", env={"KSMBENCH_KSM_DIR": "/nonexistent-ksm"})
rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": "/nonexistent-ksm" + "/" * 100000})
check(rc == 2 and len(err.splitlines()) == 1 and "KSMBENCH_KSM_DIR '/nonexistent-ksm////" in err
      and "...': File name too long" in err and "without KSM" not in err,
      f"ksm with a KSMBENCH_KSM_DIR of 100 kB: the value cut, the reason kept: {err[:300]!r}")
check_usage_error(["ksm", "--pid", "0"], "pid", "ksm bad pid")
check_usage_error(["ksm", "--pid", "999999999"], "999999999", "ksm missing process")
check_usage_error(["ksm", "--format", "csv"], "format", "ksm bad format")

for p in (raw_path, elf_path, gz_path, kd, many, *big):
    os.unlink(p)
finish("scan")
