"""CLI tests for stopping a run and for terminal output: SIGINT and SIGTERM
sent to a running bench/thread (what was measured is reported, marked
interrupted, -o is whole or absent, exit 130/143); the progress line only on
a terminal and not with --quiet; colour only on a terminal and never with
NO_COLOR (terminals made with the pty module)."""
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import termios
import time

from clitest import BIN, FORKS, INSTRUMENTED, QUICK, fast_args, run, check, status_after_signal, temp_file, finish

ENV = {k: v for k, v in os.environ.items() if k != "KSMBENCH_DISABLE"}
# Under qemu-user (cross-test) start-up takes longer: every delay and window
# stretched, so that the signals still arrive mid-run, after the handler.
SCALE = 4 if QUICK else 1


def start(*args, **kw):
    return subprocess.Popen([BIN, *fast_args(args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=kw.get("env", ENV))


def stop_after(p, seconds, sig=signal.SIGINT):
    time.sleep(seconds * SCALE)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    return p.returncode, out.decode(), err.decode()


# --- SIGINT in the middle of a long bench: JSON of what was measured, marked
LONG = ["--window", f"{400 * SCALE}ms", "--warmup", "10ms", "--repeat", "5"]
p = start("bench", "-H", "xxh64,jhash2,xxh32", *LONG, "--format", "json")
rc, out, err = stop_after(p, 1.2)
check(rc == 130, f"SIGINT exits 130: rc={rc} err={err!r}")
doc = json.loads(out)
check(doc["interrupted"] is True and doc["schema"] == "ksmbench-results/2", "JSON marked interrupted")
res = doc["results"]
# The hashes take their rounds in turns, 0.4 s each: the signal comes in the
# third or fourth turn (under emulation, earlier: then less is reported).
check(len(res) <= 3 and all(r["interrupted"] is True for r in res), f"cut short: {res}")
check(all(1 <= r["repeats"] < 5 and r["repeats_requested"] == 5
          and len(r["bytes_per_second_rounds"]) == r["repeats"] for r in res), "only whole rounds kept")
# One round left has no CV (null); two or more have one.
check(all((r["cv"] is None) == (r["repeats"] == 1) for r in res), f"cv of the rounds kept: {res}")
check(f"interrupted by SIGINT: {len(res)} of 3 measurements reported" in err, f"stderr note: {err!r}")

# --- SIGTERM, -o: the file is whole, valid, marked; no temporary left
outdir = os.path.dirname(temp_file(b""))
target = os.path.join(outdir, f"ksmbench-int-{os.getpid()}.json")
p = start("bench", "-H", "xxh64,jhash2", *LONG, "--format", "json", "-o", target)
rc, out, err = stop_after(p, 1.2, signal.SIGTERM)
check(rc == 143, f"SIGTERM exits 143: rc={rc}")
check(json.load(open(target))["interrupted"] is True, "-o file whole and marked")
check(not [f for f in os.listdir(outdir) if f.startswith(os.path.basename(target) + ".tmp")], "no temporary left")
os.unlink(target)

# --- Ctrl-C while bench waits for its data (a FIFO no one writes): the run
# was stopped, exit 130, not an input error ("cannot open: Interrupted
# system call", exit 2, until 2026-12-06).
fifo = os.path.join(outdir, f"ksmbench-int-{os.getpid()}.fifo")
os.mkfifo(fifo)
p = start("bench", "-H", "xxh64", "--repeat", "1", "--window", "1ms", "-q", "--data", fifo)
rc, out, err = stop_after(p, 0.5)
check(rc == 130 and err == "", f"SIGINT while bench waits for a FIFO: rc={rc} err={err!r}")
# The self-check's too ("cannot open: Interrupted system call", exit 2,
# until 2026-12-07).
p = start("bench", "--selfcheck", "-H", "xxh64", "--repeat", "1", "--window", "1ms", "-q", "--data", fifo)
rc, out, err = stop_after(p, 0.5)
check(rc == 130 and err == "", f"SIGINT while bench --selfcheck waits for a FIFO: rc={rc} err={err!r}")

# --- the same FIFOs (the data no one writes, the -o no one reads), the
# signal sent early: once the handler was in and before the open, it only
# asked for a stop that the open never saw, and the run waited for good
# (the first 40 ms of each run here, until 2026-12-07). Before the handler
# is in, the signal's default action ends the process: -2 or -15.
for i, (args, sig) in enumerate([(["bench", "-H", "xxh64", "--data", fifo], signal.SIGINT),
                                 (["thread", "-o", fifo], signal.SIGINT),
                                 (["bench", "-H", "xxh64", "--export-json", fifo], signal.SIGTERM),
                                 (["select", "-H", "xxh64", "-o", fifo], signal.SIGINT),
                                 (["bench", "--selfcheck", "-H", "xxh64", "--data", fifo], signal.SIGHUP)] * 4):
    rc = status_after_signal(start(*args, "--repeat", "1", "-q"), 0.01 * i * SCALE, sig)
    check(rc in (128 + sig, -sig), f"{' '.join(args[:-1])} FIFO, {sig.name} after {10 * i} ms: rc={rc}")
os.unlink(fifo)

# --- a stop while measuring processes start: each holds the SIGTERM passed
# on until its handler is in (one delivered before killed it, and the run
# ended in an error, no report). Many short processes, stops at varied times.
if FORKS:
    for k in range(6):
        p = start("bench", "-H", "xxh64", "--processes", "100", "--repeat", "1", "--window", "1ms", "--warmup", "1ms",
                  "--format", "json", "-q", "-o", target)
        rc, out, err = stop_after(p, 0.2 + 0.07 * k, signal.SIGTERM)
        ok = rc == 143 and json.load(open(target))["interrupted"] is True if os.path.exists(target) else False
        check(ok, f"SIGTERM among starting processes ({k}): rc={rc} err={err[-200:]!r}")
        if os.path.exists(target):
            os.unlink(target)

# --- SIGTERM to the whole process group (kill -- -PGID, timeout(1)): each
# measuring process has it twice, from the group and passed on by the
# parent, and takes the two as one stop (the second ended it with 143 and
# the run with an error, no report, in 5 of 6 tries).
if FORKS:
    for k in range(3):
        # (About 1.5 s: 10 ms windows ended within 0.5 s on the Zen 3 VM, before the last stop.)
        p = subprocess.Popen([BIN, "bench", "-H", "xxh64", "--processes", "10", "--repeat", "1", "--window", "100ms",
                              "--warmup", "1ms", "--no-ceiling", "--format", "json", "-q", "-o", target],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, start_new_session=True)
        time.sleep((0.3 + 0.1 * k) * SCALE)
        os.killpg(p.pid, signal.SIGTERM)
        out, err = p.communicate(timeout=60)
        ok = p.returncode == 143 and os.path.exists(target) and json.load(open(target))["interrupted"] is True
        check(ok, f"SIGTERM to the process group ({k}): rc={p.returncode} err={err[-200:]!r}")
        if os.path.exists(target):
            os.unlink(target)

# --- a stop that comes after the parent looked at the flag and before it
# waits for the measuring process's output: the flag was set for no one to
# see, and the process measured every round before the stop reached it
# (until 2026-12-07). A preloaded shim widens that gap: it sleeps 0.3 s
# before each wait without a timeout, having said so in a file, and the
# signal is sent then (not under a sanitizer's runtime, which must come
# first, nor qemu).
cc = shutil.which("cc") or shutil.which("gcc")
if FORKS and cc and not INSTRUMENTED and b"__asan_init" not in open(BIN, "rb").read():
    shim_c = temp_file(b"""#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static void gap(void) { struct timespec t = { 0, 300000000 }; int fd = open(getenv("SHIM_MARK"), O_WRONLY | O_APPEND);
  if (fd >= 0) { (void)write(fd, "w", 1); close(fd); } nanosleep(&t, NULL); }
int poll(struct pollfd *f, nfds_t n, int ms) { if (ms < 0) gap();
  return ((int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll"))(f, n, ms); }
int ppoll(struct pollfd *f, nfds_t n, const struct timespec *t, const sigset_t *m) { if (!t) gap();
  return ((int (*)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *))dlsym(RTLD_NEXT, "ppoll"))(f, n, t, m); }
""", ".c")
    shim, mark = shim_c[:-2] + ".so", temp_file(b"")
    built = subprocess.run([cc, "-shared", "-fPIC", "-o", shim, shim_c, "-ldl"], capture_output=True).returncode == 0
    check(built, "the poll shim builds")
    if built:
        p = start("bench", "-H", "xxh64", "--processes", "2", "--repeat", "4", "--window", "300ms", "--warmup", "1ms",
                  "--format", "json", "-q", env=dict(ENV, LD_PRELOAD=shim, SHIM_MARK=mark))
        deadline = time.monotonic() + 60
        while not os.path.getsize(mark) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
        res = json.loads(out)["results"] if p.returncode == 143 else None
        check(res is not None and (not res or res[0]["repeats"] < 4),
              f"a stop just before the wait for a measuring process reaches it: rc={p.returncode} "
              f"{[r['repeats'] for r in res or []]} {err.decode()[-200:]!r}")

# --- a stop while the report is written to a FIFO its reader has not
# emptied: the measurement is over and the report is written whole (the
# write failed with EINTR, "cannot write 'FIFO': Interrupted system call",
# the rest of the table lost, until 2026-12-07). The FIFO holds one page,
# and the signal comes once it is full and the writer asleep (the table is
# written 4 KiB at a time; a page of 64 KiB would hold it all).
def asleep_on_full(pid, r, size):
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state == "S" and struct.unpack("i", fcntl.ioctl(r, termios.FIONREAD, b"\0" * 4))[0] >= size


fifo = os.path.join(outdir, f"ksmbench-int-{os.getpid()}.fifo")
os.mkfifo(fifo)
p = start("bench", "--page-size", "64,128,256,512,1K,2K,4K,8K", "--repeat", "1", "--window", "1ms", "--warmup", "1ms",
          "--format", "table", "-q", "-o", fifo)
r = os.open(fifo, os.O_RDONLY)
size = fcntl.fcntl(r, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
deadline = time.monotonic() + 60 * SCALE
while p.poll() is None and not asleep_on_full(p.pid, r, size) and time.monotonic() < deadline:
    time.sleep(0.005)
full = p.poll() is None and time.monotonic() < deadline
p.send_signal(signal.SIGINT)
time.sleep(0.2 * SCALE)  # handled before the FIFO has room again
with os.fdopen(r, "rb") as f:
    out = f.read().decode()
err = p.communicate(timeout=60)[1].decode()
check(not full or (p.returncode == 130 and err == "" and out.endswith("\n") and len(out) > 3 * size),
      f"SIGINT while the report fills a FIFO: written whole: rc={p.returncode} {len(out)} bytes {err!r}")
os.unlink(fifo)

# --- SIGHUP is a stop like SIGTERM's (129); SIGPIPE and a file size limit
# end the command without leaving its -o temporary (SIGXFSZ: the write's
# error instead of a core).
p = start("bench", "-H", "xxh64,jhash2", *LONG, "--format", "json", "-o", target, "--export-markdown", target + ".md")
rc, out, err = stop_after(p, 1.2, signal.SIGHUP)
check(rc == 129 and json.load(open(target))["interrupted"] is True, f"SIGHUP: rc={rc} err={err!r}")
# The note names the signal that stopped the run (it said SIGINT for a SIGHUP).
note = open(target + ".md").read() if os.path.exists(target + ".md") else ""
check("interrupted by SIGHUP:" in note and "SIGINT" not in note, f"SIGHUP named in the note: {note[-300:]!r}")
for path in (target, target + ".md"):
    if os.path.exists(path):
        os.unlink(path)
csv_target = target + ".csv"
p = subprocess.Popen(f"'{BIN}' bench -H xxh64,jhash2,xxh32 --repeat 2 --window 5ms --warmup 1ms --no-ceiling -q "
                     f"--format csv -o '{csv_target}' --export-json - | head -c 10 > /dev/null; "
                     "exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash", env=ENV)
check(p.wait(timeout=60) == 141, f"SIGPIPE on an export: 141, rc={p.returncode}")
p = subprocess.Popen(f"ulimit -f 1; exec '{BIN}' bench -H xxh64 --repeat 1 --window 5ms --warmup 1ms --no-ceiling "
                     f"-q --format json -o '{target}'", shell=True, stderr=subprocess.PIPE, env=ENV)
err = p.communicate(timeout=60)[1].decode()
check(p.returncode == 2 and "File too large" in err and not os.path.exists(target),
      f"past a file size limit: one error, exit 2: rc={p.returncode} {err!r}")
check(not [f for f in os.listdir(outdir) if f.startswith(os.path.basename(target))],
      "SIGPIPE, file size limit: no temporary left")
# Commands without -o and --help too: one error line, exit 2, no signal (153).
for args in ("list --wide", "--help", f"sum --per-page -H xxh64 '{BIN}'"):
    p = subprocess.Popen(f"ulimit -f 1; exec '{BIN}' {args} > '{target}'", shell=True, stderr=subprocess.PIPE, env=ENV)
    err = p.communicate(timeout=60)[1].decode()
    check(p.returncode == 2 and len(err.splitlines()) == 1 and "File too large" in err,
          f"{args} past a file size limit: one error, exit 2: rc={p.returncode} {err!r}")
    if os.path.exists(target):
        os.unlink(target)

# --- select's Markdown stopped early: the note says so (before a choice it
# wrote an empty document)
p = start("select", "--processes", "1", "--format", "markdown")
rc, out, err = stop_after(p, 0.15, signal.SIGTERM)
check(rc == 143 and "interrupted by SIGTERM" in out, f"select markdown interrupted: rc={rc} {out[-300:]!r}")
# thread's too, as a list item as bench's and select's are (it wrote the
# terminal's "note: " line until 2026-12-07)
p = start("thread", "--processes", "1", "--format", "markdown")
rc, out, err = stop_after(p, 1.0, signal.SIGTERM)
check(rc == 143 and "\n- **Note**: " in out and "interrupted by SIGTERM" in out
      and not [l for l in out.splitlines() if l.startswith(("note: ", "warning: "))],
      f"thread markdown interrupted: its notes a list: rc={rc} {out[-300:]!r}")

# --- scan -o, stopped while it reads: the same interrupt path, no temporary
# left, no report, exit 143. The dump is a FIFO nobody writes to, so the
# scan waits in it until the signal.
fifo = os.path.join(outdir, f"ksmbench-int-{os.getpid()}.fifo")
os.mkfifo(fifo)
target = os.path.join(outdir, f"ksmbench-int-scan-{os.getpid()}.json")
p = start("scan", "--format", "json", "-o", target, fifo)
rc, out, err = stop_after(p, 0.5, signal.SIGTERM)
check(rc == 143 and not os.path.exists(target), f"scan -o: SIGTERM exits 143, no report: rc={rc} err={err!r}")
check(not [f for f in os.listdir(outdir) if f.startswith(os.path.basename(target) + ".tmp")],
      "scan -o: no temporary left")
p = start("scan", fifo)
rc, out, err = stop_after(p, 0.5, signal.SIGINT)
check(rc == 130 and out == "", f"scan: SIGINT exits 130: rc={rc}")
os.unlink(fifo)

# --- interrupted during the first round: nothing measured, an empty but valid report
p = start("bench", "-H", "xxh64", "--window", f"{3 * SCALE}s", "--warmup", "1ms", "--repeat", "2", "--format", "json")
rc, out, err = stop_after(p, 0.6)
doc = json.loads(out)
check(rc == 130 and doc["interrupted"] and doc["results"] == [], f"first round cut: {doc['results']}")

# --- the table says so in a note
p = start("bench", "-H", "xxh64,jhash2", *LONG)
rc, out, err = stop_after(p, 1.2)
check(rc == 130 and any(f"note: interrupted by SIGINT: {k} of 2 measurements reported, {k if k < 2 else '2 or 3'}"
                        in out.replace(", 2 of 10 rounds", ", 2 or 3").replace(", 3 of 10 rounds", ", 2 or 3")
                        .replace(", 1 of 10 rounds", ", 1").replace(", 0 of 10 rounds", ", 0")
                        for k in (0, 1, 2)), f"table note: {out!r}")

# --- thread: rows not measured show no figures; JSON marked
p = start("thread", "--repeat", "20", "--working-set", "1M", "--format", "json")  # ~30 s: cut short
rc, out, err = stop_after(p, 1.0)
doc = json.loads(out)
# Interleaved: after its first round every measurement has a result, and a
# slow run (qemu) may be that far; what was cut short is a round count.
# 20 rounds take far longer than the stop, so the run is always cut short.
short = not doc["results"] or any(r["repeats"] < r["repeats_requested"] for r in doc["results"])
check(rc == 130 and doc["interrupted"] is True and short,
      f"thread interrupted: rc={rc} {[(r['hash'], r['repeats']) for r in doc['results']]}")
check(len(doc["thread"]["rows"]) in (7, 8), "thread rows all present (7 without ISA-L)")

# --- a stop is answered quickly even with a long window (checked per batch)
p = start("bench", "-H", "jhash2", "--window", "20s", "--warmup", "1ms", "--repeat", "1", "--format", "json")
time.sleep(0.5 * SCALE)
t0 = time.monotonic()
rc, out, err = stop_after(p, 0)
check(rc == 130 and time.monotonic() - t0 < 2 * SCALE, "a 20 s window stops within 2 s")


# --- terminals: run with stdout and/or stderr on a pty
def run_tty(args, env_extra=None, tty_out=False, tty_err=False, ceiling=False):
    env = dict(ENV)
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm"
    env.update(env_extra or {})
    mo, so = pty.openpty() if tty_out else (None, None)
    me, se = pty.openpty() if tty_err else (None, None)
    p = subprocess.Popen([BIN, *fast_args(args, ceiling)], stdout=so if tty_out else subprocess.PIPE,
                         stderr=se if tty_err else subprocess.PIPE, env=env)
    for fd in (so, se):
        if fd is not None:
            os.close(fd)
    got = {"out": b"", "err": b""}
    fds = {m: k for m, k in ((mo, "out"), (me, "err")) if m is not None}
    pipes = {p.stdout: "out"} if not tty_out else {}
    if not tty_err:
        pipes[p.stderr] = "err"
    open_fds = list(fds) + [f.fileno() for f in pipes]
    names = {**fds, **{f.fileno(): k for f, k in pipes.items()}}
    while open_fds:
        ready, _, _ = select.select(open_fds, [], [], 30)
        if not ready:
            break
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the pty's other side closed
                chunk = b""
            if not chunk:
                open_fds.remove(fd)
            got[names[fd]] += chunk
    p.wait(timeout=30)
    for m in fds:
        os.close(m)
    return p.returncode, got["out"].decode(errors="replace"), got["err"].decode(errors="replace")


BENCH = ["bench", "-H", "xxh64,jhash2", "--window", "2ms", "--warmup", "1ms", "--repeat", "2"]
rc, out, err = run_tty(BENCH, tty_err=True)
check(rc == 0 and "\rksmbench bench: round 1/2, 1/2 " in err and "\rksmbench bench: round 2/2, 2/2 " in err
      and "xxh64" in err and "jhash2" in err, f"progress line on a terminal: {err!r}")
check(err.endswith("\r\033[K") or "\r\033[K" in err, "progress line erased at the end")
rc, out, err = run_tty(BENCH + ["--quiet"], tty_err=True)
check(rc == 0 and "round" not in err, f"--quiet: no progress line: {err!r}")
# The ceiling probes first, with a note that says how to skip them.
rc, out, err = run_tty(BENCH, tty_err=True, ceiling=True)
note = err.find("\rksmbench bench: measuring this CPU's limits (--no-ceiling skips this)")
check(rc == 0 and 0 <= note < err.find("round 1/2, 1/2 "), f"ceiling note first: {err!r}")
rc, out, err = run_tty(BENCH + ["--quiet"], tty_err=True, ceiling=True)
check(rc == 0 and err == "", f"--quiet: no ceiling note: {err!r}")
rc, out, err = run(*BENCH)
check(rc == 0 and "round" not in err and "\r" not in err, "no progress line in a pipe")

# thread's progress names its phases, counts every measurement of a round
# (14 turns, never back to 1 in the middle of one) and the processes (one
# process, where fork() hangs under emulation: then no "process" prefix).
NP = 2 if FORKS else 1
PREFIX = "ksmbench thread: process " if NP > 1 else "ksmbench thread: round"
rc, out, err = run_tty(["thread", "--processes", str(NP), "--repeat", "1", "--window", "1ms", "--working-set", "1M"],
                       tty_err=True)
lines = [l for l in err.split("\r") if l.startswith(PREFIX) and "building" not in l]
turns = [re.search(r"round 1/1, (\d+)/(\d+) (self-test MB/s|ksmd ns/page): ", l) for l in lines]
check(rc == 0 and lines and all(turns), f"thread progress names its phase: {lines[:3]}")
for proc in [f"process {i}/{NP}, round" for i in range(1, NP + 1)] if NP > 1 else ["round"]:
    mine = [int(m.group(1)) for l, m in zip(lines, turns) if m and l.startswith(f"ksmbench thread: {proc}")]
    total = {int(m.group(2)) for m in turns if m}
    check(mine == list(range(1, len(mine) + 1)) and total == {len(mine)} and len(mine) in (14, 16),
          f"{proc}: turns 1..N in order: {mine}")
check(any("self-test MB/s" in l for l in lines) and any("ksmd ns/page" in l for l in lines), "both phases named")

base = temp_file(b"", ".json")
new = temp_file(b"", ".json")
values = [1e9, 1.01e9, 0.99e9, 1.02e9, 0.98e9]
for path, scale in ((base, 1.0), (new, 0.5)):
    rs = [x * scale for x in values]
    json.dump({"schema": "ksmbench-results/2", "results": [{
        "hash": "xxh64", "data": "random", "cache": "hot", "timer": "window", "page_size_bytes": 4096,
        "bytes_per_second_best": max(rs), "bytes_per_second_median": sorted(rs)[2],
        "ns_per_page_min": 4096e9 / max(rs), "ns_per_page_max": 4096e9 / min(rs), "stability": "stable",
        "bytes_per_second_processes": rs}]}, open(path, "w"))
rc, out, err = run_tty(["compare", base, new], tty_out=True)
check(rc == 1 and "\033[1;31mregression\033[0m" in out, f"colour on a terminal: {out!r}")
rc, out, err = run_tty(["compare", base, new], {"NO_COLOR": "1"}, tty_out=True)
check(rc == 1 and "regression" in out and "\033[" not in out, "NO_COLOR: no colour")
rc, out, err = run_tty(["compare", base, new], {"TERM": "dumb"}, tty_out=True)
check(rc == 1 and "\033[" not in out, "TERM=dumb: no colour")
rc, out, err = run("compare", base, new)
check(rc == 1 and "regression" in out and "\033[" not in out, "no colour in a pipe")
os.unlink(base)
os.unlink(new)
finish("interrupt")
