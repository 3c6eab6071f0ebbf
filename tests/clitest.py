"""Shared helpers for the CLI tests: run the binary, record checks, report,
and one temporary directory per test script that holds everything it makes."""
import atexit
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./ksmbench")
# Set by tests/cross-test.sh: under qemu-user the full verify sweep of every
# hash takes many minutes, so the CLI tests use `verify --quick` there.
QUICK = os.environ.get("KSMBENCH_TEST_QUICK") == "1"
# Set by tests/cross-test.sh for i386: Debian 12's qemu-i386 hangs in fork()
# (a three-line program does too), so no test starts measuring processes.
FORKS = os.environ.get("KSMBENCH_TEST_NO_FORK") != "1"
# Under a sanitizer (ASan, TSan: their shadow memory and quarantine, and a
# few times slower) or qemu-user (the emulator's memory counted, ten times
# slower) the binary's time and memory are not its own: tests of those
# bounds are lenient or skipped there.
INSTRUMENTED = bool({"ASAN_OPTIONS", "TSAN_OPTIONS"} & set(os.environ) or os.environ.get("KSMBENCH_TEST_EMULATED"))
passed = 0
failed = 0

# Every mkstemp/mkdtemp of a test script that imports this module lands in
# TEST_TMP (tempfile's default directory), removed when the script exits:
# the suite leaves nothing in /tmp. Mode 1777 like /tmp, for the tests that
# run the binary as another user.
TEST_TMP = tempfile.mkdtemp(prefix="ksmbench-test-")
os.chmod(TEST_TMP, 0o1777)
tempfile.tempdir = TEST_TMP
atexit.register(shutil.rmtree, TEST_TMP, True)


MEASURING = ("bench", "thread", "select")


def ksmd_period_ns(sleep_ms, hz, work_ns=0.0, zero_sleep_skips=True):
    """ksmd's batch period as the kernel takes it (written apart from
    common/kernel_timer.c, from the kernel's rules): msecs_to_jiffies rounds
    up; the work delays the sleep by the jiffies it spans; the timer wheel
    (4.8+) fires at the first tick of its level's granularity after the
    jiffy due (1 jiffy below 63 due, 8 below 504, 64 ..., up to the last of
    its 9 levels, 8 at HZ 100 or less). A sleep of 0 does not sleep from
    5.0 (zero_sleep_skips); before, it lasted to the next tick."""
    if sleep_ms == 0 and zero_sleep_skips:
        return work_ns
    jiffy = 1e9 / hz
    due, worked = -(-sleep_ms * hz // 1000), int(work_ns // jiffy)
    gran, start, level = 1, 63, 1
    while due >= start and level < (9 if hz > 100 else 8):
        gran, start, level = gran * 8, start * 8, level + 1
    return ((worked + due) // gran + 1) * gran * jiffy


def fast_args(args, ceiling=False, processes=False):
    """The measuring commands skip this CPU's ceiling probes (--no-ceiling)
    unless a test asks for them: the probes take 0.2-0.4 s per process, far
    longer under the sanitizers, valgrind or qemu, and short runs stay short.
    They measure in this one process (--processes 1) unless the test gives
    --processes or asks for the default (processes=True): each measuring
    process is a start of the binary, slow under qemu and the sanitizers."""
    args = list(args)
    if not ceiling and args and args[0] in MEASURING:
        args.insert(1, "--no-ceiling")
    if not processes and args and args[0] in MEASURING and not any(
            a == "--processes" or a.startswith("--processes=") for a in args):
        args[1:1] = ["--processes", "1"]
    return args


def run(*args, stdin=None, env=None, timeout=600, user=None, ceiling=False, processes=False, prefix=()):
    """Runs ksmbench with args; returns (exit code, stdout, stderr) as text.
    bench, thread and select run with --no-ceiling unless ceiling=True, and
    with --processes 1 unless processes=True or the args give it. prefix: a
    command ksmbench runs under (["linux32"]: a 32-bit personality)."""
    args = fast_args(args, ceiling, processes)
    full_env = dict(os.environ)
    full_env.pop("KSMBENCH_DISABLE", None)
    full_env.pop("KSMBENCH_CPU", None)
    full_env.pop("KSMBENCH_KERNEL_RELEASE", None)
    full_env.pop("KSMBENCH_FREE_CORE", None)
    if env:
        full_env.update(env)
    cmd = [*prefix, BIN, *args]
    if user is not None:
        cmd = ["setpriv", "--reuid", str(user), "--regid", str(user), "--clear-groups", *cmd]
    # stdin: bytes through a pipe, or an open file standard input reads itself.
    piped = stdin is None or isinstance(stdin, bytes)
    p = subprocess.run(cmd, input=stdin if piped else None, stdin=None if piped else stdin, capture_output=True,
                       env=full_env, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


_background = None


def started(*args, **kw):
    """run(*args, **kw) started in the background: its future, whose result()
    is run's. For the runs whose time is wall-clock windows (thread's and
    select's HZ>>3 jiffies a hash): side by side they take about the time of
    one, and the checks on them read what they report, not how fast."""
    global _background
    if _background is None:
        _background = concurrent.futures.ThreadPoolExecutor(max_workers=4)
    return _background.submit(run, *args, **kw)


def crc32c_sse42_ceiling(limits, clock_hz):
    """crc32c-sse42's ceiling at 4 KiB from a document's limits (docs/ceilings.md):
    one crc32q chain of 512 steps, less the overlap of calls back to back
    measured by the page-chain probe, never below the port's throughput."""
    lat = limits["crc32q_latency_cycles"]["value"]
    page = limits.get("crc32q_page_chain_cycles", {})
    overlap = 512 * max(0.0, lat - page["value"]) if page.get("measured") else 0.0
    tput = limits["crc32q_throughput_cycles"]
    port = 512 * tput["value"] if tput.get("measured") else 0.0
    return 4096 / max(512 * lat - overlap, port) * clock_hz


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}", flush=True)
    return cond


def quoted(value):
    """An ASCII value as an error message quotes it (common/quote.h): whole up
    to 60 bytes, else its first 60 and "..." (a test's temporary path under a
    long TMPDIR is cut)."""
    return value if len(value.encode()) <= 60 else value[:60] + "..."


def check_usage_error(args, needle, what, **kw):
    """An input error: exit 2, nothing on stdout, one line on stderr naming it."""
    rc, out, err = run(*args, **kw)
    lines = err.splitlines()
    ok = rc == 2 and out == "" and len(lines) == 1 and lines[0].startswith("ksmbench") \
        and needle in lines[0]
    check(ok, f"{what}: rc={rc} stdout={out[:80]!r} stderr={err!r}")


def check_bad_dump(label, data, needle, *extra, timeout=600):
    """A malformed dump: sum --per-page exits 2 with one line on stderr
    naming the problem. Returns what went to stdout."""
    path = temp_file(data)
    rc, out, err = run("sum", "--per-page", *extra, path, timeout=timeout)
    lines = err.splitlines()
    check(rc == 2 and len(lines) == 1 and needle in lines[0], f"{label}: rc={rc} stderr={err!r}")
    os.unlink(path)
    return out


def temporaries(pid, d):
    """The -o temporaries process pid holds in directory d: named ones
    (FILE.tmp-XXXXXX) and unnamed ones (O_TMPFILE, seen only as an open
    descriptor: "d/#inode (deleted)")."""
    named = [n for n in os.listdir(d) if ".tmp-" in n]
    unnamed = []
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith(os.path.join(d, "#")):
                unnamed.append(target)
    except OSError:
        pass
    return named + unnamed


def markdown_anchors(body):
    """The anchors GitHub gives the headings of a Markdown text (outside
    code fences): lower case, punctuation dropped, spaces as hyphens."""
    in_fence, found = False, set()
    for line in body.split("\n"):
        if line.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and line.startswith("#"):
            found.add(re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-"))
    return found


def status_after_signal(p, delay, sig, timeout=30, ready=None):
    """Sends sig to the process p after delay seconds, or as soon as
    ready(pid) is true when ready is given (delay is then the longest wait);
    its exit status, or, when it has not ended timeout seconds later (a
    hang), -9 once killed."""
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and p.poll() is None and not (ready and ready(p.pid)):
        time.sleep(0.002 if ready else max(0.0, deadline - time.monotonic()))
    p.send_signal(sig)
    try:
        p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
    return p.returncode


def opening_fifo(pid):
    """Whether the process waits in the open of a FIFO for its other end (its
    wait channel, where the kernel shows it; else never: callers wait their
    longest)."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return f.read() == "wait_for_partner"
    except OSError:
        return False


def temp_file(data: bytes, suffix="") -> str:
    fd, path = tempfile.mkstemp(prefix="ksmbench-cli-", suffix=suffix)
    os.write(fd, data)
    os.close(fd)
    return path


def read_fault_maps_zero_page():
    """Whether this kernel maps the shared zero page on a read fault of
    private anonymous memory, as Linux does by default: two pages only
    read share one frame. Some (a Firecracker guest's 6.18) give each its
    own zeroed page. Without privilege frames read 0: the default assumed."""
    import ctypes
    import mmap
    import struct
    ps = mmap.PAGESIZE
    m = mmap.mmap(-1, 2 * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    _ = (m[0], m[ps])  # a read fault on each page, nothing written
    base = ctypes.addressof(ctypes.c_char.from_buffer(m)) // ps
    pfn = []
    with open("/proc/self/pagemap", "rb") as pm:
        for k in (0, 1):
            pm.seek((base + k) * 8)
            pfn.append(struct.unpack("<Q", pm.read(8))[0] & ((1 << 55) - 1))
    return pfn[0] == 0 or pfn[0] == pfn[1]


def finish(label):
    print(f"{label}: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
