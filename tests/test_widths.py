"""Item 7 of issue 11: the default text of ksmbench (thread), bench and list
fits 100 columns in a pipe or file; --wide shows everything; on a terminal
COLUMNS sets the width (wrapped lines fit it, a wide one is not wrapped)."""
import os
import pty
import select
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BIN, check, fast_args, finish, run  # noqa: E402

QUICK_THREAD = ["thread", "--repeat", "1", "--window", "2ms", "--working-set", "1M"]
QUICK_BENCH = ["bench", "--window", "2ms", "--warmup", "1ms", "--repeat", "1"]


def widest(text):
    return max((len(l) for l in text.splitlines()), default=0)


def on_tty(args, columns):
    """Runs ksmbench with stdout on a terminal and COLUMNS set; its stdout."""
    env = dict(os.environ, COLUMNS=str(columns), TERM="xterm")
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
if os.path.isdir("/sys/kernel/mm/ksm"):
    rc, out, err = run("ksm")
    check(rc == 0 and 0 < widest(out) <= 100, f"ksm fits 100 columns: {widest(out)}")
# --wide: every column, wider than 100.
for args in (QUICK_THREAD, QUICK_BENCH, ["list"]):
    rc, out, err = run(*args, "--wide")
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
finish("widths")
