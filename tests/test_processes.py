"""CLI tests for the repeatable model: results measured in several
processes (their values and rounds kept, per-process intervals, stability
verdicts with reasons, one warning per unstable result), rounds taken in
turns in a seeded order, the interference figures of every round, the
batched rdtsc fallback under a simulated coarse counter, the free core's
floor under the throughput reference (KSMBENCH_FREE_CORE), measuring
processes that crash, are killed or write garbage (one error line, no -o
file), sweeps of data/cache/page size/misalignment in one document, and
`bench -H all` measuring each implementation once with its aliases. Short
windows and few processes: no figure is asserted, only its shape."""
import csv
import io
import json
import os
import platform
import re
import shutil
import stat
import subprocess
import tempfile

from clitest import BIN, FORKS, run, check, check_usage_error, temp_file, finish

if not FORKS:
    print("skipped: measuring processes where fork() hangs (qemu-i386, KSMBENCH_TEST_NO_FORK)")
    finish("processes")

FAST = ["--window", "2ms", "--warmup", "1ms"]
NUM = (int, float)


def bench_json(*args, **kw):
    rc, out, err = run("bench", *FAST, "--format", "json", *args, **kw)
    check(rc == 0, f"bench {args}: rc={rc} err={err!r}")
    return json.loads(out) if rc == 0 else {"results": [], "context": {}}


# --- three processes x two rounds: every round kept with where it ran and what else happened
doc = bench_json("-H", "xxh64,jhash2", "--processes", "3", "--repeat", "2", "--seed", "5")
ctx = doc["context"]
check(ctx["processes"] == 3 and ctx["rounds_per_process"] == 2 and ctx["order_seed"] == 5
      and ctx["interleaved"] is True, f"context says how it measured: {ctx.get('processes')}")
check(isinstance(ctx["counter_step_ticks"], NUM) and ctx["counter_step_ticks"] >= 1, "counter step measured")
check(isinstance(ctx["hardware_counters"], bool) and ctx["migrations_source"] in ("perf", "sched", "cpu change"),
      "the probes this system offers")
check(ctx["hardware_counters"] or isinstance(ctx["hardware_counters_note"], str), "why no hardware counters")
check(set(ctx["disturbance_thresholds"]) == {"other_cpus_busy_share", "steal_share", "off_cpu_share",
                                             "involuntary_context_switches", "migrations", "clock_drop_share",
                                             "throughput_drop_share"},
      "the thresholds are in the document")
check(ctx["stability_rules"]["processes_min"] == 5 and ctx["stability_rules"]["spread_percent_max"] == 10
      and ctx["stability_rules"]["run_disturbed_share_max"] == 0.5,
      "the stability rules are in the document")
# The run's share of disturbed rounds: over it, every result says so.
run_rounds = sum(len(r["rounds"]) for r in doc["results"])
run_disturbed = sum(x["disturbed"] for r in doc["results"] for x in r["rounds"])
for r in doc["results"]:
    check(("run-disturbed" in r["stability_reasons"]) == (run_disturbed > 0.5 * run_rounds)
          and ("run-disturbed" not in r["stability_reasons"]
               or f"{run_disturbed} of the run's {run_rounds} rounds disturbed" in r["stability_text"]),
          f"{r['hash']}: run-disturbed when {run_disturbed} of {run_rounds} rounds are")
for r in doc["results"]:
    rounds = r["rounds"]
    check(r["repeats"] == 6 and len(rounds) == 6 and r["processes"] == 3 and r["repeats_requested"] == 2,
          f"{r['hash']}: 3 processes x 2 rounds")
    check(sorted({x["process"] for x in rounds}) == [0, 1, 2], f"{r['hash']}: rounds of every process")
    check(len(r["process_values"]) == 3 and all(p["rounds"] == 2 for p in r["process_values"]),
          f"{r['hash']}: per-process values")
    used = [p for p in r["process_values"] if p["bytes_per_second_median"] is not None]
    check(len(r["bytes_per_second_processes"]) == (len(used) or 3), f"{r['hash']}: the values judged")
    check(r["stability"] == "unstable" and "few-processes" in r["stability_reasons"]
          and "with undisturbed rounds (at least 5)" in r["stability_text"], f"{r['hash']}: 3 processes are too few")
    check(r["rounds_disturbed"] == sum(x["disturbed"] for x in rounds), f"{r['hash']}: disturbed rounds counted")
    if r["processes_used"] >= 2:
        lo, hi = r["bytes_per_second_ci_low"], r["bytes_per_second_ci_high"]
        check(lo <= r["bytes_per_second_median"] <= hi and 0 < r["ci_level"] <= 1
              and isinstance(r["ci_percent"], NUM), f"{r['hash']}: the median inside its interval")
    for x in rounds:
        check(all(k in x for k in ("other_cpus_busy_share", "steal_share", "off_cpu_share",
                                   "involuntary_context_switches", "migrations", "effective_clock_hz",
                                   "core_throughput_adds_per_ns",
                                   "core_cycles", "instructions", "disturbed_by")), "every round's interference")
        check(x["disturbed"] == bool(x["disturbed_by"]), "disturbed rounds say why")
        # The window's batches, from the measuring process: the pace without
        # interruptions, and the share of the round beyond it.
        u, share = x["uninterrupted_ns_per_page"], x["interrupted_share"]
        check(isinstance(u, NUM) and 0 < u <= x["ns_per_page"] * (1 + 1e-9) and 0 <= share < 1
              and abs(share - max(0.0, 1 - x["calls"] * u / x["elapsed_ns"])) < 1e-3,
              f"{r['hash']}: the round's uninterrupted pace {u} and interrupted share {share}")
        check(x["effective_clock_hz"] is None or x["effective_clock_hz"] > 1e6, "effective clock in Hz")
        check(x["off_cpu_share"] is None or 0 <= x["off_cpu_share"] <= 1, "off-CPU share")
        check(x["other_cpus_busy_share"] is None or 0 <= x["other_cpus_busy_share"] <= 1, "busy share")
        check((x["core_cycles"] is None) == (not ctx["hardware_counters"]) or x["core_cycles"] is None,
              "hardware cycles only where counted")
# Interleaved: in each process, every measurement's round r comes before any round r + 1.
seq = {}
for r in doc["results"]:
    for x in r["rounds"]:
        seq.setdefault(x["process"], []).append((x["sequence"], x["round"], r["hash"]))
for p, slots in seq.items():
    slots.sort()
    check([s[1] for s in slots] == [0, 0, 1, 1], f"process {p}: rounds alternate: {slots}")
again = bench_json("-H", "xxh64,jhash2", "--processes", "3", "--repeat", "2", "--seed", "5")


def order(d):
    return sorted((x["process"], x["sequence"], r["hash"]) for r in d["results"] for x in r["rounds"])


check(order(doc) == order(again), "the same --seed gives the same order")
# The table: ± on the headline, the rounds used, one warning line per unstable result.
rc, out, err = run("bench", *FAST, "-H", "xxh64,jhash2", "--processes", "2", "--repeat", "1", "--wide")
lines = out.splitlines()
rows = [l for l in lines if l.startswith(("xxh64 ", "jhash2 "))]
check(rc == 0 and len(rows) == 2 and all(l.rstrip().endswith("unstable") for l in rows), f"table: the verdict: {rows}")
# ± where two processes gave a value (a disturbed round may leave one).
def rounds_cell(line):
    # HASH DATA SET TIMER PAGE best %-ceiling median [±x%] ns/page ROUNDS ...
    cells = line.split()
    return cells[10] if cells[8].startswith("±") else cells[9]


# (Every round disturbed: the figures come from all of them, both processes.)
check(all(("±" in l) == (rounds_cell(l) in ("2", "0/2")) for l in rows), f"table: ± with two values: {rows}")
warn = [l for l in lines if l.startswith("warning: unstable: ")]
check(len(warn) == 2 and all("too few" not in w and "processes with undisturbed rounds" in w or "process with" in w
                             for w in warn), f"one warning per unstable result: {warn}")
check(any(l.startswith("2 processes x 1 round per measurement") for l in lines), "the table says how it measured")
# CSV has no place for warnings: they go to stderr, one per unstable result
# (JSON has its stability fields).
rc, out, err = run("bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1", "--format", "csv")
check(rc == 0 and sum(l.startswith("ksmbench bench: warning: unstable: xxh64") for l in err.splitlines()) == 1,
      f"csv: the unstable result named on stderr: {err!r}")
rc, out, err = run("bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1", "--format", "csv", "-q")
check(rc == 0 and err == "", "--quiet: nothing on stderr")

# --- CSV: the new columns
rc, out, err = run("bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1", "--format", "csv")
row = list(csv.DictReader(io.StringIO(out)))[0] if rc == 0 else {}
check(row.get("processes") == "2" and row.get("stability") == "unstable" and "ci_percent" in row, f"csv: {row}")

# --- the batched rdtsc fallback: a counter whose step is far above a call
doc = bench_json("-H", "xxh64", "--timer", "rdtsc", "--repeat", "2", env={"KSMBENCH_SIMULATE_TSC_STEP": "20000"})
r = doc["results"][0] if doc["results"] else {}
if doc["context"].get("tsc_hz"):
    check(doc["context"]["counter_step_ticks"] == 20000 and r.get("batch_calls", 0) > 1
          and r["rounds"][0]["batch_calls"] == r["batch_calls"]
          and abs(r["tsc_cycles_per_call_resolution"] - 20000 / r["batch_calls"]) < 1e-9,
          f"simulated step: batches of calls: {r.get('batch_calls')}")
    check(any("advances in steps of 20000 ticks" in w for w in doc["context"]["warnings"]), "the step is said")
    rc, out, err = run("bench", *FAST, "-H", "xxh64", "--timer", "rdtsc", "--repeat", "1",
                       env={"KSMBENCH_SIMULATE_TSC_STEP": "20000"})
    row = [l.split() for l in out.splitlines() if l.startswith("xxh64 ")]
    batch = [c for c in (row[0] if row else []) if c.startswith("b") and c[1:].isdigit()]
    check(rc == 0 and batch and int(batch[0][1:]) > 1, f"the table says batches: {row}")
    # No digit finer than the counter resolves: the percentiles end in zeros.
    cell = row[0][row[0].index(batch[0]) - 1] if batch else ""
    digits = [int(x) for x in cell.split("/")] if cell.count("/") == 2 else []
    resolution = 20000 / int(batch[0][1:]) if batch else 1
    unit = 10 ** (len(str(int(resolution))) - 1) if resolution >= 10 else 1
    check(digits and all(v % unit == 0 for v in digits), f"percentiles rounded to {unit}: {cell}")
    # A coarser step than batches can make up for: the timer is named as the reason.
    doc = bench_json("-H", "jhash2", "--timer", "rdtsc", "--repeat", "1",
                     env={"KSMBENCH_SIMULATE_TSC_STEP": "50000000"})
    r = doc["results"][0] if doc["results"] else {}
    check(r.get("batch_calls") == 4096 and "timer" in r.get("stability_reasons", []), f"timer too coarse: {r.get('stability_reasons')}")
    # Rounds the timer could not resolve (0 ns) come through from measuring processes too.
    # xxh64 takes less than a step's 24 ms in 4096 calls. A process whose median is
    # 0 ns has no rate, and the others' would lean slow: the result has none (0), its
    # timer named, and compare and plot read the document back (inconclusive: no rate).
    target = temp_file(b"", ".json")
    rc, out, err = run("bench", *FAST, "-H", "xxh64", "--timer", "rdtsc", "--repeat", "2", "--processes", "3",
                       "--format", "json", "-o", target, env={"KSMBENCH_SIMULATE_TSC_STEP": "50000000"})
    r = json.load(open(target))["results"][0] if rc == 0 else {"rounds": [], "process_values": []}
    none = r.get("bytes_per_second_median") == 0
    check(rc == 0 and any(x["ns_per_page"] == 0 for x in r["rounds"]) and "timer" in r.get("stability_reasons", [])
          and (none or r.get("bytes_per_second_median", 0) > 0) and (r.get("ns_per_page_median") == 0) == none,
          f"timer too coarse, three processes: 0 ns rounds kept, a rate or none: {r.get('ns_per_page_median')}")
    # Against itself: with no rate, inconclusive; with one (the step let
    # some rounds through), the same values: unchanged, as an unstable
    # result within the threshold is, or inconclusive.
    rc, out, err = run("compare", target, target, "--format", "json")
    c = json.loads(out)["comparisons"][0] if rc in (0, 3) else {}
    want = {("inconclusive", 3)} if none else {("inconclusive", 3), ("unchanged", 0)}
    check((c.get("verdict"), rc) in want and (not none or "no rate in either run" in c["reason"]),
          f"compare reads it back: rc={rc} {err!r} {c.get('verdict')} {c.get('reason')}")
    svg = temp_file(b"", ".svg")
    rc, out, err = run("plot", target, "-o", svg)
    check(rc == 0 and "<svg" in open(svg).read(), f"plot reads it back: rc={rc} {err!r}")
    os.unlink(svg)
    os.unlink(target)

# --- the free core's floor under the throughput reference: a core that can
# never reach it (KSMBENCH_FREE_CORE=1000 additions a cycle) is a core shared
# for the whole run, so every round is shared-core and the context warns.
def upper_decile(values):
    v = sorted(values)
    rank = 0.9 * (len(v) - 1)
    lo = int(rank)
    return v[-1] if lo + 1 >= len(v) else v[lo] + (v[lo + 1] - v[lo]) * (rank - lo)


target = temp_file(b"", ".json")
rc, out, err = run("bench", *FAST, "-H", "xxh64,jhash2", "--processes", "2", "--repeat", "2", "--format", "json",
                   "-o", target, env={"KSMBENCH_FREE_CORE": "1000"})
check(rc == 0, f"bench with KSMBENCH_FREE_CORE=1000: rc={rc} {err!r}")
doc = json.load(open(target)) if rc == 0 else {"results": [], "context": {}}
ctx, rounds = doc["context"], [x for r in doc["results"] for x in r["rounds"]]
check(ctx.get("free_core_adds_per_cycle") == 1000 and ctx.get("free_core_source") == "KSMBENCH_FREE_CORE",
      f"the context names the floor: {ctx.get('free_core_adds_per_cycle')} {ctx.get('free_core_source')}")
if ctx.get("reference_clock_hz"):  # the clock chain timed (it is, wherever rounds are)
    # The context keeps the run's own decile (what compare and repro-check
    # tell a run shared throughout by), not the floor it was raised to.
    decile = upper_decile([x["core_throughput_adds_per_ns"] for x in rounds
                           if x.get("core_throughput_adds_per_ns") is not None])
    ref = ctx["reference_throughput_adds_per_ns"]
    check(abs(ref - decile) < 1e-6 * decile and ref < 1000 * ctx["reference_clock_hz"] / 1e9,
          f"the reference is the rounds' own decile, under the floor: {ref} {decile}")
    check(rounds and all("shared-core" in x["disturbed_by"] for x in rounds),
          f"every round is shared-core: {[x['disturbed_by'] for x in rounds]}")
    check(all(r["stability"] == "unstable" and "run-disturbed" in r["stability_reasons"] for r in doc["results"]),
          "every result unstable")
    check(all("its core was shared the whole run" in r["stability_text"] and "comes and goes" not in
              r["stability_text"] for r in doc["results"]),
          f"the reason says shared throughout: {[r['stability_text'] for r in doc['results']]}")
    check(any("shared the whole run" in w for w in ctx["warnings"]), f"a warning says so: {ctx['warnings']}")
# compare and plot read the floor back (1000, the top of its range): against
# itself every change is 0%, unchanged though unstable.
rc, out, err = run("compare", target, target, "--format", "json")
check(rc == 0 and {c["verdict"] for c in json.loads(out)["comparisons"]} == {"unchanged"},
      f"compare reads a document with the floor: rc={rc} {err!r}")
svg = temp_file(b"", ".svg")
rc, out, err = run("plot", target, "-o", svg)
check(rc == 0 and "<svg" in open(svg).read(), f"plot reads a document with the floor: rc={rc} {err!r}")
os.unlink(svg)
os.unlink(target)
# 0 turns it off; posing as another CPU leaves the probe's CPU in place.
doc = bench_json("-H", "xxh64", "--repeat", "1", env={"KSMBENCH_FREE_CORE": "0"})
check(doc["context"].get("free_core_adds_per_cycle") is None and doc["context"].get("free_core_source") is None,
      "KSMBENCH_FREE_CORE=0: no floor")
real = bench_json("-H", "xxh64", "--repeat", "1")["context"].get("free_core_source")
posed = bench_json("-H", "xxh64", "--repeat", "1",
                   env={"KSMBENCH_CPU": "GenuineIntel:6:1" if real else "AuthenticAMD:26:2"})["context"]
check(posed.get("free_core_source") == real, f"KSMBENCH_CPU does not move the floor: {real} {posed.get('free_core_source')}")
for bad in ("abc", "-1", "1001", "0x10", "nan", " 5"):
    check_usage_error(["list"], "KSMBENCH_FREE_CORE", f"KSMBENCH_FREE_CORE={bad!r}", env={"KSMBENCH_FREE_CORE": bad})

# --- measuring processes that fail: one error line, exit 2, no -o file
d = tempfile.mkdtemp(prefix="ksmbench-workers-")
scripts = {"garbage": "echo garbage", "killed": "kill -KILL $$", "crash": "kill -SEGV $$",
           "silent": "exit 1", "cut": f'exec "{BIN}" "$@" | head -c 40',
           # A process's own error line is passed on as it said it, but
           # escaped like any text from outside: no terminal control.
           "loud": "printf 'ksmbench bench: \\033]0;title\\007 said\\n' >&2; exit 2",
           "loud2": "printf 'oops \\033[2J\\n' >&2; exit 3",
           # Lines that are no lines, or rounds the plan has no place for:
           # each was taken for a whole result until 2026-12-08 (a tail
           # without its newline dropped, a NUL ending the line, a round
           # counted twice, rounds left out reported as if measured).
           "tail": f'"{BIN}" "$@"; printf garbage',
           "nul": f'"{BIN}" "$@" | grep -v "^end"; printf "end 0\\000junk\\n"',
           "twice": f'"{BIN}" "$@" | awk \'/^round /{{print}} {{print}}\'',
           "beyond": f'"{BIN}" "$@" | awk \'/^round /{{$4 = $4 + 1}} {{print}}\'',
           "dropped": f'"{BIN}" "$@" | grep -v "^round"'}
for name, body in scripts.items():
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\n{body}\n")
    os.chmod(path, stat.S_IRWXU)
target = os.path.join(d, "out.json")
for name, needle in [("garbage", "wrote an unreadable result: 'garbage'"),
                     ("killed", "was killed by signal 9"), ("crash", "was killed by signal 11"),
                     ("silent", "failed (exit status 1)"), ("cut", "measuring process 1 of 2"),
                     ("loud", "ksmbench bench: \\x1b]0;title\\x07 said"), ("loud2", "failed (exit status 3): oops \\x1b[2J"),
                     ("tail", "wrote an unreadable result: 'garbage' without its newline"),
                     ("nul", "wrote an unreadable result: a line with a NUL byte"),
                     ("twice", "' out of place"), ("beyond", "' out of place"),
                     ("dropped", "ended without all its rounds: 0 of 1 of measurement 1")]:
    check_usage_error(["bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1", "-o", target],
                      needle, f"a measuring process that {name}", env={"KSMBENCH_WORKER_EXE": os.path.join(d, name)})
    check(not os.path.exists(target) and not [f for f in os.listdir(d) if f.startswith("out.json")],
          f"{name}: no -o file")
# KSMBENCH_WORKER_EXE that names no program is said before any process
# starts, naming the variable: the child's exec error named a bare path, cut
# at a newline in it, and a value longer than a path was cut and the shorter
# path started.
fifo, plain = os.path.join(d, "fifo"), os.path.join(d, "plain")
os.mkfifo(fifo)
with open(plain, "w") as f:
    f.write("#!/bin/sh\n")
for value, needle in ((d, "is a directory, not a program"), (fifo, "is not a regular file (a program)"),
                      ("/dev/zero", "is not a regular file (a program)"), (plain, "Permission denied"),
                      (os.path.join(d, "none"), "No such file or directory"),
                      ("/nonexistent-exe-dir/x\ny", "x\\x0ay': No such file or directory"),
                      ("/" + "a" * 100000, "is longer than a path")):
    rc, out, err = run("bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1", "-o", target,
                       env={"KSMBENCH_WORKER_EXE": value})
    check(rc == 2 and out == "" and len(err.splitlines()) == 1 and f"KSMBENCH_WORKER_EXE '{value[:20]}" in err
          and needle in err and len(err) < 300 and not os.path.exists(target),
          f"KSMBENCH_WORKER_EXE {value[:40]!r}: {needle}: rc={rc} {err[:300]!r}")
os.unlink(fifo)
os.unlink(plain)
for name in scripts:
    os.unlink(os.path.join(d, name))
os.rmdir(d)
# The measuring processes take the parent's alias choices, named in their
# settings, instead of measuring again (where two candidates are within
# noise, a process of its own could pick the other one).
d = tempfile.mkdtemp(prefix="ksmbench-workers-")
wrapper, said = os.path.join(d, "record"), os.path.join(d, "args")
with open(wrapper, "w") as f:
    f.write(f'#!/bin/sh\necho "$2" >> "{said}"\nexec "{BIN}" "$@"\n')
os.chmod(wrapper, stat.S_IRWXU)
doc = bench_json("-H", "crc32c,xxh64", "--processes", "2", "--repeat", "1",
                 env={"KSMBENCH_WORKER_EXE": wrapper, "KSMBENCH_CPU": "NoSuchVendor:1:1"})
impl = [r["implementation"] for r in doc["results"] if r["hash"] == "crc32c"]
specs = open(said).read().split() if os.path.exists(said) else []
check(len(specs) == 2 and impl and all(sp.endswith(f",crc32c={impl[0]}") for sp in specs),
      f"each measuring process is told the parent's crc32c: {specs} {impl}")
check(all("xxh3=" not in sp for sp in specs), "an alias the run did not resolve is not passed on")
for f in (wrapper, said):
    if os.path.exists(f):
        os.unlink(f)
os.rmdir(d)
check(len(specs) == 2 and all(re.fullmatch(r"\d,0,[^,]+,[^,]+,[^,]+,[A-Za-z0-9_-]+\.\d+\.\d+\.[0-9a-f]+,\d+,-1(,.*)?", sp)
                              for sp in specs), f"each is told the CPU this one sees and where it is pinned: {specs}")
for bad in ("crc32c=xxh64", "crc32c", "jhash2=jhash2", "crc32c=no-such-hash", "Vendor.1.1.3,crc32c",
            "Vendor.1.1.3,0,crc32c", "Vendor.1.1.3,0,crc32c=xxh64", "Vendor.1.1.3,-1", "Vendor.1.1,0",
            "Vendor.1.1.3,0", "Vendor.1.1.3,0,0", "Vendor.1.1.3,0,-2", "Vendor.1.1.3,0,x"):
    rc, out, err = run("--worker", f"0,0,1e9,0,1,{bad}", "bench", "-H", "crc32c")
    check(rc == 2 and out == "" and len(err.splitlines()) == 1 and "measuring process's settings" in err,
          f"--worker settings with {bad}: one error line, rc={rc} {err!r}")
# A measuring process that sees another CPU than the one that started it (an
# emulator or valgrind that does not follow exec starts it natively) refuses
# to measure: its rounds would be filed under the other CPU's name.
for sig, needle in (("NoSuchVendor.1.1.3,0,-1", "(NoSuchVendor family 1 model 1)"), ):
    rc, out, err = run("--worker", f"0,0,1e9,0,1,{sig}", "bench", *FAST, "-H", "xxh64", "--repeat", "1")
    check(rc == 2 and out == "" and len(err.splitlines()) == 1 and "sees another CPU" in err and needle in err,
          f"a measuring process on another CPU: one error line, rc={rc} {err!r}")
qemu = shutil.which("qemu-x86_64")
# (Not under a sanitizer, whose shadow memory qemu-user cannot map.)
if qemu and platform.machine() == "x86_64" and not os.environ.get("KSMBENCH_TEST_EMULATED") \
        and not ctx.get("sanitized"):
    target = os.path.join(tempfile.mkdtemp(prefix="ksmbench-qemu-"), "out.json")
    p = subprocess.run([qemu, "-cpu", "max", BIN, "bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1",
                        "--no-ceiling", "-o", target], capture_output=True, text=True, timeout=600)
    check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and "sees another CPU" in p.stderr
          and not os.path.exists(target),
          f"under qemu-user, measuring processes started natively are refused: rc={p.returncode} {p.stderr!r}")
    os.rmdir(os.path.dirname(target))
# One that a wrapper moved to another CPU than the run's (taskset) refuses too.
allowed = os.sched_getaffinity(0)
if {0, 1} <= allowed:
    d = tempfile.mkdtemp(prefix="ksmbench-workers-")
    wrapper = os.path.join(d, "moved")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\nexec taskset -c 0 "{BIN}" "$@"\n')
    os.chmod(wrapper, stat.S_IRWXU)
    check_usage_error(["bench", *FAST, "-H", "xxh64", "--processes", "2", "--repeat", "1", "--cpu", "1"],
                      "may run on CPU 0, not on CPU 1 alone", "a measuring process moved by its wrapper",
                      env={"KSMBENCH_WORKER_EXE": wrapper})
    os.unlink(wrapper)
    os.rmdir(d)
# A measuring process's own error comes through as the one line.
check_usage_error(["bench", *FAST, "-H", "xxh64", "--processes", "2", "--data", "/nonexistent/pages"],
                  "/nonexistent/pages", "an input error in a measuring process")
for bad in ("0", "101", "x"):
    check_usage_error(["bench", "--processes", bad], "--processes", f"--processes {bad}")

# --- sweeps: every combination of the lists in one document, grouped in the table
doc = bench_json("-H", "xxh64,jhash2", "--repeat", "1", "--data", "zero,random", "--cache", "hot,cold",
                 "--working-set", "1M", "--page-size", "4K,16K", "--misalign", "0,3")
keys = [(r["data"], r["cache"], r["page_size_bytes"], r["misalign_bytes"], r["hash"]) for r in doc["results"]]
# 1 MiB is under 4x a last-level cache of 256 KiB or more: the cold sets are
# labelled warm (cold where no cache size is known, as under qemu-user).
cpu = doc["context"].get("cpu", {})
llc = cpu.get("cache_l3_bytes") or cpu.get("cache_l2_bytes") or 0
small = "warm" if llc and (1 << 20) < 4 * llc else "cold"
want = [(d_, c, p, m, h) for d_ in ("zero", "random") for c in ("hot", small) for p in (4096, 16384) for m in (0, 3)
        for h in ("xxh64", "jhash2")]
check(keys == want, f"a sweep: 2x2x2x2 combinations x 2 hashes in order: {len(keys)}")
check(all(r["working_set_bytes"] == 1 << 20 for r in doc["results"] if r["cache"] == small), "cold sets in the sweep")
# Interleaved across the whole sweep: one process, round 0, every measurement in turn.
check(sorted(x["sequence"] for r in doc["results"] for x in r["rounds"]) == list(range(32)), "one order for all")
rc, out, err = run("bench", *FAST, "-H", "xxh64", "--repeat", "1", "--data", "zero,random", "--page-size", "4K,8K")
rows = [l.split() for l in out.splitlines() if l.startswith("xxh64 ")]
# (The columns that vary: DATA and PAGE; SET and TIMER are the same in every row.)
check(rc == 0 and [(x[1], x[2]) for x in rows] == [("zero", "4096"), ("zero", "8192"), ("random", "4096"),
                                                   ("random", "8192")], f"sweep table grouped: {rows}")
check_usage_error(["bench", "--page-size", "4K,1K", "--misalign", "0,2048"], "smaller than the page size",
                  "a misalignment too large for one of the page sizes")
check_usage_error(["bench", "--cache", "hot,warm"], "unknown cache mode 'warm'", "a bad cache in a list")
check_usage_error(["bench", "--data", "zero,"], "an empty item", "an empty list item")
check_usage_error(["bench", "--selfcheck", "--data", "zero,random"], "--selfcheck takes one", "selfcheck sweep")
# The self-check measures in this process: more processes were accepted,
# not started, and its context said 20 (the default) until 2026-12-08.
check_usage_error(["bench", "--selfcheck", "--processes", "3"], "--selfcheck measures in this process",
                  "selfcheck with processes")
rc, out, err = run("bench", "--selfcheck", *FAST, "-H", "xxh64", "--repeat", "1", "--format", "json")
check(rc in (0, 1) and json.loads(out or "{}").get("context", {}).get("processes") == 1,
      f"selfcheck's context: one process: rc={rc} {err[:200]!r}")
comma = temp_file(b"\1" * 8192, suffix=",x")
doc = bench_json("-H", "xxh64", "--repeat", "1", "--data", comma)
check([r["data"] for r in doc["results"]] == [f"file:{comma}"], "a FILE with a comma in its name is one item")
os.unlink(comma)

# --- -H all: each implementation once, with the aliases that name it
doc = bench_json("-H", "all", "--repeat", "1", "--window", "1ms")
impls = [r["implementation"] for r in doc["results"]]
check(len(impls) == len(set(impls)), f"-H all: no implementation twice: {impls}")
names = {r["hash"] for r in doc["results"]}
aliases = {a: r["hash"] for r in doc["results"] for a in r["aliases"]}
check("xxhash" not in names and aliases.get("xxhash") in ("xxh64", "xxh32"), f"xxhash shown as an alias: {aliases}")
check(all(r["hash"] == r["implementation"] for r in doc["results"]), "-H all: shown by the implementation's name")
rc, out, err = run("bench", "--window", "1ms", "--warmup", "1ms", "--repeat", "1", "-H", "xxhash,xxh64,jhash2")
check(rc == 0 and any(l.startswith("xxh64 (also xxhash) ") for l in out.splitlines())
      and sum(l.startswith(("xxh64", "xxhash")) for l in out.splitlines()) == 1, f"a named alias and its target: {out}")
rc, out, err = run("bench", "--window", "1ms", "--warmup", "1ms", "--repeat", "1", "-H", "xxhash")
check(rc == 0 and any(l.startswith("xxhash (xxh") for l in out.splitlines()), "an alias alone: as asked")

# --- thread: ratios from rounds side by side, with intervals; the verdict on untrusted answers
# (one run: the table on standard output, the JSON exported)
thread_json = temp_file(b"")
rc, out, err = run("thread", "--processes", "2", "--repeat", "1", "--window", "2ms", "--working-set", "1M",
                   "--export-json", thread_json)
t = json.load(open(thread_json)) if rc == 0 else {"thread": {"rows": []}}
rows = {r["hash"]: r for r in t["thread"]["rows"]}
check(rc == 0 and rows["jhash2"]["speedup_vs_jhash2_ksm_here"] == 1
      and rows["jhash2"]["speedup_vs_jhash2_ksm_here_ci_low"] in (None, 1), "jhash2 against itself: 1 exactly")
x = rows.get("xxh64", {})
lo, hi = x.get("speedup_vs_jhash2_kernel_here_ci_low"), x.get("speedup_vs_jhash2_kernel_here_ci_high")
check(x.get("stability") == "unstable" and (lo is None) == (hi is None)
      and (lo is None or lo <= x["speedup_vs_jhash2_kernel_here"] <= hi), f"xxh64's ratio: {x}")
verdict = t["thread"].get("verdict") or {}
check(verdict.get("trusted") is False and verdict.get("unstable_results", 0) > 0, f"verdict: not trusted: {verdict}")
check(rc == 0 and "±" in out and any(l.startswith("Cannot be trusted: ") and "unstable" in l
                                     for l in out.splitlines()[:8]), "plain thread says when it cannot be trusted")

# --- select: the choice over processes, and in how many it won
rc, out, err = run("select", "-H", "jhash2,xxh64,crc32c", "--processes", "2", "--format", "json")
sel = json.loads(out)["selection"] if rc == 0 else {}
# The median of the processes' figures may pick a hash that won in none (one
# best in each process, another second in both): then it is unstable.
won = sel.get("processes_won", -1)
check(rc == 0 and sel.get("processes") == 2 and 0 <= won <= 2
      and sel.get("stability") in ("stable", "unstable") and (2 * won > 2 or sel["stability"] == "unstable"),
      f"select over processes: {sel}")

# --- a cgroup's CPU quota below one CPU (root, where a cpu controller can be
# written): the context names it and warns, and a window longer than the
# quota's share of a period cannot fit between two throttles: off CPU.
def quota_cgroup():
    """A new cgroup limited to 0.3 CPU: (its cgroup.procs, its directory), or None."""
    if os.geteuid() != 0 or os.environ.get("KSMBENCH_TEST_EMULATED"):
        return None
    v1 = "/sys/fs/cgroup/cpu"
    v2_control = "/sys/fs/cgroup/cgroup.subtree_control"
    try:
        if os.path.exists(os.path.join(v1, "cpu.cfs_period_us")):
            d = tempfile.mkdtemp(prefix="ksmbench-quota-", dir=v1)
            with open(os.path.join(d, "cpu.cfs_period_us"), "w") as f:
                f.write("100000")
            with open(os.path.join(d, "cpu.cfs_quota_us"), "w") as f:
                f.write("30000")
        elif os.path.exists(v2_control) and "cpu" in open(v2_control).read().split():
            d = tempfile.mkdtemp(prefix="ksmbench-quota-", dir="/sys/fs/cgroup")
            with open(os.path.join(d, "cpu.max"), "w") as f:
                f.write("30000 100000")
        else:
            return None
    except OSError:
        return None
    return os.path.join(d, "cgroup.procs"), d


made = quota_cgroup()
if made:
    procs, d = made
    p = subprocess.run(["sh", "-c", f'echo $$ > "{procs}" && exec "$0" "$@"', BIN, "bench", "--no-ceiling",
                        "-H", "xxh64", "--window", "50ms", "--warmup", "1ms", "--repeat", "2", "--processes", "2",
                        "--format", "json"], capture_output=True, text=True, timeout=600)
    os.rmdir(d)
    doc = json.loads(p.stdout) if p.returncode == 0 else {"context": {}, "results": []}
    ctx = doc["context"]
    check(p.returncode == 0 and ctx.get("cpu_quota_cpus") == 0.3
          and any("this cgroup may use 0.30 CPU" in w for w in ctx.get("warnings", [])),
          f"a 0.3-CPU quota in the context and its warning: rc={p.returncode} {ctx.get('cpu_quota_cpus')} {p.stderr!r}")
    rounds = [r for res in doc["results"] for r in res["rounds"]]
    check(rounds and all("off-cpu" in r["disturbed_by"] for r in rounds),
          f"each 50 ms round under a 30 ms quota is off CPU: {[r['disturbed_by'] for r in rounds]}")
else:
    print("skipped: no cgroup CPU quota can be set here (not root, or no writable cpu controller)")
finish("processes")
