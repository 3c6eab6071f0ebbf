"""Item 7 of issue 11: the default text of ksmbench (thread), bench, list,
scan and ksm fits 100 columns in a pipe or file; --wide shows everything; on
a terminal COLUMNS sets the width (wrapped lines fit it, a wide one is not
wrapped)."""
import os
import pty
import select
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BIN, check, fast_args, finish, run, started  # noqa: E402
import dumpgen  # noqa: E402

QUICK_THREAD = ["thread", "--repeat", "1", "--window", "2ms", "--working-set", "1M"]
QUICK_BENCH = ["bench", "--window", "2ms", "--warmup", "1ms", "--repeat", "1"]


def widest(text):
    return max((len(l) for l in text.splitlines()), default=0)


def widest_line(text):
    """The longest line itself, for a failure's message: a width alone does
    not say which line (bench -H all --timer rdtsc was once 101 wide under a
    loaded suite and did not repeat)."""
    return max(text.splitlines(), key=len, default="")


def on_tty(args, columns, env=None):
    """Runs ksmbench with stdout on a terminal and COLUMNS set; its stdout."""
    env = dict(os.environ, COLUMNS=str(columns), TERM="xterm", **(env or {}))
    env.pop("KSMBENCH_DISABLE", None)
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN, *fast_args(args)], stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=120)
    os.close(master)
    return p.returncode, out.decode(errors="replace").replace("\r\n", "\n")


# In a pipe: 100 columns.
for args in (QUICK_THREAD, QUICK_BENCH, QUICK_BENCH + ["-H", "xxh64,jhash2", "--timer", "jiffies"],
             QUICK_BENCH + ["-H", "xxh64", "--timer", "rdtsc", "--cache", "cold", "--working-set", "1M"],
             ["list"]):
    rc, out, err = run(*args)
    check(rc == 0 and 0 < widest(out) <= 100, f"{args[0]} fits 100 columns: {widest(out)}")
# A CPU without SSE4.2 (QEMU's qemu64) lacks up to six features of one entry: the default list
# names the first and counts the rest, --wide names them all.
rc, out, err = run("list", env={"KSMBENCH_DISABLE": "sse4.2,pclmulqdq,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq"})
row = [line for line in out.splitlines() if line.startswith("crc32c-3way ")]
check(rc == 0 and 0 < widest(out) <= 100, f"list without sse4.2 fits 100 columns: {widest(out)}")
if row and "not built" not in row[0]:  # x86 only
    check(row and "no (needs sse4.2 +1 more)" in row[0], f"list counts the further missing features: {row}")
    rc, out, err = run("list", "--wide", env={"KSMBENCH_DISABLE": "sse4.2,pclmulqdq"})
    check(rc == 0 and "no (needs sse4.2,pclmulqdq)" in out, "list --wide names every missing feature")
# ksm: the live directory when there is one, and one named as deep as CI's TMPDIR makes it.
ksm_dir = os.path.join(tempfile.mkdtemp(prefix="ksmbench-widths-ksm-"), "tmp.a-temporary-directory-of-ci" * 3, "ksm")
os.makedirs(ksm_dir)
for name, value in {"run": "0", "pages_to_scan": "100", "sleep_millisecs": "20", "pages_shared": "12",
                    "pages_unshared": "3", "smart_scan": "1", "advisor_mode": "[none] scan-time",
                    "stable_node_chains": "0", "general_profit": "-12345"}.items():
    with open(os.path.join(ksm_dir, name), "w") as f:
        f.write(value + "\n")
KSM_ENV = {"KSMBENCH_KSM_DIR": ksm_dir}
rc, out, err = run("ksm", env=KSM_ENV)
check(rc == 0 and 0 < widest(out) <= 100 and out.startswith("# " + ksm_dir[:30]) and "..." in out.splitlines()[0]
      and out.splitlines()[0].endswith("-ci/ksm"), f"ksm fits 100 columns, the directory cut in its middle: {widest(out)}")
rc, out, err = run("ksm", "--wide", env=KSM_ENV)
check(rc == 0 and widest(out) > 100 and out.startswith("# " + ksm_dir + "\n") and "..." not in out,
      f"ksm --wide: the directory and every meaning whole: {widest(out)}")
rc, out = on_tty(["ksm"], 72, env=KSM_ENV)
check(rc == 0 and 0 < widest(out) <= 72, f"ksm on a terminal of 72 columns: {widest(out)}")
if os.path.exists("/proc/self/ksm_stat"):
    # The process block fits the terminal too: its meanings cut as the
    # sysfs table's are (the longest row is 85 columns whole).
    rc, out = on_tty(["ksm", "--pid", str(os.getpid())], 72, env=KSM_ENV)
    check(rc == 0 and f"process {os.getpid()}" in out and 0 < widest(out) <= 72,
          f"ksm --pid on a terminal of 72 columns: {widest(out)}: {widest_line(out)!r}")
# COLUMNS other than a whole number from 40 to 10000 (digits alone) is
# ignored, as the man page says: the terminal's own width, unknown on this
# one, so 100 (strtoul took " 72" and "+72" as 72).
for bad in (" 72", "+72", "72 ", "0x48", "39", "10001", "7" * 100000):
    rc, out = on_tty(["ksm"], bad, env=KSM_ENV)
    check(rc == 0 and 72 < widest(out) <= 100, f"ksm on a terminal with COLUMNS={bad[:10]!r}: ignored: {widest(out)}")
if os.path.isdir("/sys/kernel/mm/ksm"):
    rc, out, err = run("ksm")
    check(rc == 0 and 0 < widest(out) <= 100, f"ksm fits 100 columns: {widest(out)}")
    rc, out, err = run("ksm", "--watch", "10ms", "--count", "2")
    check(rc == 0 and 0 < widest(out) <= 100 and "general_profit: with --wide" in out.replace("\n  ", " "),
          f"ksm --watch fits 100 columns: {widest(out)}")
    rc, out = on_tty(["ksm", "--watch", "10ms", "--count", "1"], 300)
    check(rc == 0 and len(out.splitlines()) == 3 and " profit " in out, "ksm --watch on a wide terminal: every column")
# list: the lines under the table are wrapped, not cut; on a terminal to its width.
rc, out, err = run("list")
below = out.split("\n\n", 1)[1] if "\n\n" in out else ""
check(rc == 0 and below and not any(l.endswith("...") for l in below.splitlines()) and widest(below) <= 100,
      f"list: how each alias chose, wrapped whole: {below[:200]!r}")
rc, tty = on_tty(["list"], 300)
tty_below = tty.split("\n\n", 1)[1] if "\n\n" in tty else ""
check(rc == 0 and len(tty_below.splitlines()) == len([l for l in below.splitlines() if not l.startswith("  ")]),
      "list on a terminal of 300 columns: a line each")
# bench with every hash and each timer: the hash column shows implementations
# alone (other names below), then headers shorten ("med", "pg", keyed below).
# (Each is a second or more of windows: side by side in the background, with
# the --wide runs below.)
TIMERS = (["--timer", "jiffies"], ["--timer", "rdtsc", "--data", "zero", "--processes", "2"], ["--timer", "ksmd"])
WIDE = (QUICK_THREAD, QUICK_BENCH, QUICK_BENCH + ["-H", "all", "--timer", "jiffies"], ["list"])
all_runs = [started(*QUICK_BENCH, "-H", "all", *extra) for extra in TIMERS]
wide_runs = [started(*args, "--wide") for args in WIDE]
for extra, all_run in zip(TIMERS, all_runs):
    rc, out, err = all_run.result()
    text = out.replace("\n  ", " ")
    check(rc == 0 and 0 < widest(out) <= 100 and "(also " not in out and "other names: " in text
          and "xxhash = xxh64" in text, f"bench -H all {extra} fits 100 columns: {widest(out)}: "
          f"{widest_line(out)!r}")
    if extra[1] == "jiffies":
        check("ns/pg med" in out and "med: median, pg: page" in text, "bench: shortened headers have a key")
rc, out, err = run(*QUICK_BENCH, "-H", "xxh64,jhash2", "--data", "zero,random")
check(rc == 0 and "ns/page median" in out and "other names" not in out, "bench: a table that fits is not shortened")
# --wide: every column, wider than 100.
for args, wide_run in zip(WIDE, wide_runs):
    rc, out, err = wide_run.result()
    check(rc == 0 and widest(out) > 100, f"{args[0]} --wide: {widest(out)} columns")
rc, narrow, _ = run(*QUICK_BENCH, "-H", "xxh64,jhash2")
rc2, wide, _ = run(*QUICK_BENCH, "-H", "xxh64,jhash2", "--wide")
header = [l for l in narrow.splitlines() if l.startswith("HASH")]
check(header and "DATA" not in header[0] and "every row: DATA random, SET hot, TIMER window, PAGE 4096" in narrow
      and "DATA" in wide and "TIMER" in wide, "bench: a column the same in every row is said once above the table")
# On a terminal: COLUMNS.
rc, out = on_tty(QUICK_THREAD, 72)
lines = [l for l in out.splitlines() if not l.startswith(("HASH", "---", "crc32c", "xxh", "jhash2"))]
check(rc == 0 and lines and max(map(len, lines)) <= 72 and "KSM today" in out,
      f"thread on a terminal of 72 columns: its text wraps to it: {max(map(len, lines), default=0)}")
rc, out = on_tty(QUICK_THREAD, 300)
first = [l for l in out.splitlines() if l.startswith("# ksmbench ")]
check(rc == 0 and first and "kernel " in first[0], "thread on a terminal of 300 columns: the context on one line")
rc, out = on_tty(QUICK_BENCH + ["-H", "xxh64"], 300)
check(rc == 0 and any(l.startswith("# ksmbench ") and " kernel " in l for l in out.splitlines()),
      "bench on a wide terminal: the context line unwrapped")
# scan over several small dumps, one with a long name in a long directory.
QUICK_SCAN = ["scan", "--repeat", "1", "--window", "2ms", "--working-set", "1M"]
scan_dir = tempfile.mkdtemp(prefix="ksmbench-widths-")
long_dir = os.path.join(scan_dir, "a-directory-whose-name-is-long-as-ci-tmpdirs-are")
os.mkdir(long_dir)
segs = dumpgen.sample_segments()
dup = [(0x100000, dumpgen.page("a") * 3 + bytes(4096) * 2), (0x900000, dumpgen.page("b"))]
long_name = os.path.join(long_dir, "guest-memory-of-the-vm-named-production-database-replica-7.elf")
dumps = {long_name: dumpgen.elf(dup), os.path.join(scan_dir, "b.raw"): dumpgen.raw(segs),
         os.path.join(scan_dir, "c.lime"): dumpgen.lime(dup), os.path.join(scan_dir, "d.elf.gz"): dumpgen.gz(dumpgen.elf(segs))}
for path, data in dumps.items():
    with open(path, "wb") as f:
        f.write(data)
paths = list(dumps)
for extra, which in (([], paths[:1]), (["-H", "xxh*,crc32c-vpclmul-avx2,jhash2", "--top", "4"], paths),
                     (["--sample-pages", "0", "--top", "3"], paths[1:] + paths[:1]),
                     (["-H", "crc32c,xxhash", "--top", "2"], paths[:2]),
                     (["--sample-pages", "0", "--kernel-release", "4.9"], paths[:1])):  # a long note under KSM's table
    rc, out, err = run(*QUICK_SCAN, *extra, *which)
    check(rc == 0 and 0 < widest(out) <= 100, f"scan {extra} over {len(which)} dumps fits 100 columns: "
          f"{widest(out)} {err!r}")
rc, out, err = run(*QUICK_SCAN, "--top", "4", *paths)
rows = [l for l in out.splitlines() if l.startswith("1  ")]
cell = rows[0].split()[1] if rows else ""
check(rc == 0 and long_name not in out and "..." in cell and cell.endswith("-replica-7.elf")
      and cell.startswith(scan_dir[:8]),
      f"scan: a long path loses its middle, keeps its start and file name: {rows[:1]}")
check("#1@0x100000 x3" in out and "WHERE (#dump" in out, "scan: the top table names dumps by their number")
check(any(l.startswith("HASH") and "collisions" in l and "ns/page" not in l for l in out.splitlines())
      and any(l.startswith("HASH") and "ksmd CPU %" in l and "zero_checksum" not in l for l in out.splitlines()),
      "scan: the hash table in two, collisions then cost")
rc, wide, err = run(*QUICK_SCAN, "--top", "4", "--wide", *paths)
check(rc == 0 and widest(wide) > 100 and long_name in wide and f"{long_name}@0x100000 x3" in wide
      and any(l.startswith("HASH") and "collisions" in l and "ksmd CPU %" in l for l in wide.splitlines()),
      f"scan --wide: whole paths, one hash table: {widest(wide)} columns")
rc, out, err = run(*QUICK_BENCH, "-H", "xxh64,crc32c", "--data", "zero," + long_name, "--cache", "hot,cold",
                  "--working-set", "1M")
cells = [l.split()[1] for l in out.splitlines() if l.startswith("xxh64 ") and "..." in l]
check(rc == 0 and 0 < widest(out) <= 100 and cells and cells[0].startswith("file:/") and cells[0].endswith("-7.elf") and long_name not in out,
      f"bench: a dump's long path in DATA loses its middle: {widest(out)} {cells[:1]}")
rc, out, err = run(*QUICK_BENCH, "-H", "xxh64", "--data", long_name, "--wide")
check(rc == 0 and long_name in out, "bench --wide: the dump's path whole")
finish("widths")
