"""CLI tests of `ksmbench capture`: a child process with known pages in a
private anonymous mapping (some never touched, two only read) is captured,
and the core is read back with `sum --per-page`: present pages at their
addresses with the known hashes, untouched ones counted as holes, never as
zero pages; as root the pages only read (mapping the zero page) are left
out (where the kernel maps them to its own zeroed pages instead, they are
present zeros). Its KSMBENCH notes are read back through `scan`: the kernel
release, the zero-page mappings, and with --interval the page the child
keeps rewriting, marked volatile; several PIDs share one interval. A mapping
of 700 one-page segments comes back page by page at its addresses."""
import json
import os
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ksm_guard  # noqa: E402
from clitest import BIN, check, finish, read_fault_maps_zero_page, run, status_after_signal  # noqa: E402

PS = os.sysconf("SC_PAGE_SIZE")
TOUCHED = {0: 1, 1: 2, 5: 3, 6: 0, 15: 4}  # page -> fill byte (0: written zeros)
# A mapping of one-page segments (every other page written): more of them
# than one batch of the capture's reads holds (128 ranges, 512 pages).
MANY_SEGMENTS = 700
CHILD = r"""
import ctypes, mmap, sys
ps = mmap.PAGESIZE
priv = mmap.mmap(-1, 16 * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
for k, v in %r.items():
    priv[k * ps:(k + 1) * ps] = bytes([v]) * ps
sink = priv[2 * ps] + priv[3 * ps]  # only read: the shared zero page
vol = mmap.mmap(-1, ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
def rewrite():
    import time
    n = 0
    while True:
        n += 1
        vol[0:8] = n.to_bytes(8, "little")
        time.sleep(0.001)
import threading
threading.Thread(target=rewrite, daemon=True).start()
shared = mmap.mmap(-1, 2 * ps, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
shared[0:ps] = b"\x77" * ps
many = mmap.mmap(-1, 2 * MANY * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
for k in range(MANY):
    many[2 * k * ps:2 * k * ps + 8] = (k + 1).to_bytes(8, "little")
addr = lambda m: ctypes.addressof(ctypes.c_char.from_buffer(m))
print(hex(addr(priv)), hex(addr(shared)), hex(addr(many)), flush=True)
sys.stdin.read()
""".replace("MANY", str(MANY_SEGMENTS)) % TOUCHED


def err_capture(pid, tmp):
    """The summary of a capture of pid."""
    path = os.path.join(tmp, "again.core")
    err = run("capture", "--pid", str(pid), "-o", path)[2]
    os.unlink(path)
    return err


def pages_of(core):
    rc, out, err = run("sum", "--per-page", "-H", "crc32-zlib", core)
    pages = {}
    summary = ""
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            pages[int(parts[2], 16)] = parts[1]
        else:
            summary = line
    return rc, pages, summary, err


if os.environ.get("KSMBENCH_TEST_EMULATED"):
    # Under qemu-user the emulated ksmbench would read a native process
    # through qemu's syscall translation: not a setup anyone captures with.
    print("skipped: live capture under emulation (KSMBENCH_TEST_EMULATED)")
    finish("capture")

tmp = tempfile.mkdtemp(prefix="ksmbench-capture-")
child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
try:
    priv, shared, many = (int(x, 16) for x in child.stdout.readline().split())
    zero_page = read_fault_maps_zero_page()
    if not zero_page:
        print("note: this kernel maps a page of its own on a read fault, not the zero page: "
              "the two pages only read are present (zeros)")
    core = os.path.join(tmp, "child.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "-o", core)
    # The summary goes to stderr, so that standard output can carry a core.
    check(rc == 0 and out == "" and "captured process" in err, f"capture exit {rc}: {out!r} {err!r}")
    check(stat.S_IMODE(os.stat(core).st_mode) == 0o600, "core file mode 0600")
    check(sorted(os.listdir(tmp)) == ["child.core"], f"no temporary left: {os.listdir(tmp)}")
    # The summary names the file as error lines do: a newline or an escape
    # sequence in the name is shown, not obeyed (it was written raw).
    odd = os.path.join(tmp, "odd\n\x1b[2Jname.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "-o", odd)
    summary_line = [line for line in err.splitlines() if line.startswith("captured process")]
    check(rc == 0 and len(summary_line) == 1 and summary_line[0].endswith(" -> " + tmp + "/odd\\x0a\\x1b[2Jname.core")
          and "\x1b" not in err, f"capture's summary of an odd name: {err!r}")
    os.unlink(odd)
    rc, pages, summary, err = pages_of(core)
    check(rc == 0 and "elf," in summary, f"core readable: {err!r} {summary!r}")
    for k, v in TOUCHED.items():
        want = "%08x" % zlib.crc32(bytes([v]) * PS)
        check(pages.get(priv + k * PS) == want, f"page {k} at {priv + k * PS:#x}: {pages.get(priv + k * PS)} != {want}")
    wrong = [k for k in range(MANY_SEGMENTS) if pages.get(many + 2 * k * PS) != "%08x" % zlib.crc32(
        (k + 1).to_bytes(8, "little") + bytes(PS - 8)) or many + (2 * k + 1) * PS in pages]
    check(not wrong, f"{MANY_SEGMENTS} one-page segments, each page at its address: {len(wrong)} wrong")
    untouched = [k for k in range(16) if k not in TOUCHED and (zero_page or k not in (2, 3))]
    check(all(priv + k * PS not in pages for k in untouched), "untouched pages are not yielded")
    if not zero_page:
        want = "%08x" % zlib.crc32(bytes(PS))
        check(all(pages.get(priv + k * PS) == want for k in (2, 3)), "pages only read: present, zeros")
    holes = int(summary.split(" holes")[0].split()[-1])
    check(holes >= len(untouched), f"untouched pages counted as holes: {summary!r}")
    check(shared not in pages, "shared mapping left out without --all")

    # Headers first: e_phoff right after the ELF header, the data after
    # them on a page boundary, so the core streams through a pipe.
    with open(core, "rb") as f:
        head = f.read(64)
    phoff, phnum = struct.unpack_from("<Q", head, 32)[0], struct.unpack_from("<H", head, 56)[0]
    table = open(core, "rb").read(64 + phnum * 56)
    phdrs = [struct.unpack_from("<IIQQQQQQ", table, 64 + 56 * i) for i in range(phnum)]
    first_data = min(ph[2] for ph in phdrs if ph[0] == 1)
    check(phoff == 64 and first_data % PS == 0 and first_data >= 64 + phnum * 56,
          f"headers first: e_phoff {phoff}, first p_offset {first_data}")
    check(phdrs[0][0] == 4 and phdrs[0][2] == 64 + phnum * 56 and phdrs[0][2] + phdrs[0][5] <= first_data,
          f"the PT_NOTE first, between the headers and the data: {phdrs[0]}")
    notes = open(core, "rb").read()[phdrs[0][2]:phdrs[0][2] + phdrs[0][5]]
    check(b"KSMBENCH\0" in notes and b"ksmbench-system/1\nkernel_release=" + os.uname().release.encode() in notes,
          "the KSMBENCH notes with the kernel release")
    # and the kernel's HZ: a jiffy is CLOCK_MONOTONIC_COARSE's resolution
    HZ = round(1 / time.clock_getres(6))
    check(b"\nhz=%d\n" % HZ in notes, f"the system note has hz={HZ}: {notes[:400]!r}")
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", core)
    doc = json.loads(out) if rc == 0 else {}
    d = doc.get("dumps", [{}])[0]
    check(rc == 0 and d.get("captured") and d.get("kernel_release") == os.uname().release
          and doc["settings"]["kernel_rules_from"] == "capture" and not d.get("two_snapshots")
          and doc["settings"]["hz"] == HZ and doc["settings"]["hz_from"] == "capture",
          f"scan reads the notes: {err!r} {d}")
    # The child offers nothing to KSM (no MADV_MERGEABLE, no prctl): the page
    # words say so, scan notes it, capture says it, --mergeable captures nothing.
    check(d.get("pages_mergeable") == 0, f"no page in a mergeable mapping: {d.get('pages_mergeable')}")
    rc, out, err = run("scan", "--sample-pages", "0", core)
    check(rc == 0 and f"note: KSM may merge none of dump 1's {d.get('pages')} pages (anonymous pages in mappings"
          in " ".join(out.split()), f"scan notes it: {out[:600]!r}")
    check("capture: KSM may merge 0 of process" in err_capture(child.pid, tmp).replace("\n", " "),
          "capture says how many pages KSM may merge")
    only = os.path.join(tmp, "only.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "--mergeable", "-o", only)
    # (until 2026-12-07 an empty core, written after --interval's wait)
    check(rc == 2 and err.count("\n") == 1 and f"process {child.pid} has no page KSM may merge (no private "
          "anonymous mapping has VmFlags mg" in err and "--all looks at file-backed and shared mappings too" in err
          and "no core written" in err and not os.path.exists(only),
          f"--mergeable of none: an error, no file: {err!r}")
    rc, out, err = run("capture", "--pid", str(child.pid), "--all", "--mergeable", "-o", only)
    check(rc == 2 and f"process {child.pid} has no page KSM may merge (no mapping has VmFlags mg" in err
          and "--all" not in err and not os.path.exists(only), f"--all --mergeable of none: {err!r}")
    rc, out, err = run("capture", "--pid", f"{child.pid},{os.getpid()}", "--mergeable", "--interval", "auto",
                       "-o", os.path.join(tmp, "none-%p.core"))
    check(rc == 2 and "none of the 2 processes has a page KSM may merge" in err
          and not any(f.startswith("none-") for f in os.listdir(tmp)), f"--mergeable of two without: {err!r}")
    if os.geteuid() == 0 and zero_page:
        # (the interpreter's own memory has such pages too)
        check(d.get("zero_page_mapped", 0) >= 2 and d.get("pfn_known") and d.get("page_words"),
              f"as root the two pages only read map the zero page and are left out: {d}")
        check(all(priv + k * PS not in pages for k in (2, 3)) and "map the zero page" in err_capture(child.pid, tmp),
              "pages mapping the zero page are not yielded")
    # Two snapshots: the page the child rewrites every millisecond is volatile.
    # (the interpreter's heap may change too: at least one volatile page)
    core2 = os.path.join(tmp, "twice.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "--interval", "60ms", "-o", core2)
    nvol = int(err.split(" volatile")[0].split()[-1]) if " volatile" in err else 0
    check(rc == 0 and "interval 0.060 s" in err and nvol >= 1, f"capture --interval: {err!r}")
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", core2)
    doc = json.loads(out) if rc == 0 else {}
    check(rc == 0 and doc["totals"]["pages_volatile"] == nvol and doc["dumps"][0]["interval_ns"] == 60000000
          and doc["ksm"]["use_zero_pages_0"]["pages_volatile"] == nvol,
          f"scan counts the volatile pages apart: {doc.get('totals')}")
    os.unlink(core2)
    # The interval is said before the wait; Ctrl-C or SIGTERM in the wait
    # (capture measures nothing) end it at once, with no core and no
    # temporary left.
    said = os.path.join(os.path.dirname(tmp), "capture-wait.err")
    line = "capture: interval 20.000 s between the two snapshots\n"

    def stderr_so_far():
        with open(said) as f:
            return f.read()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with open(said, "w") as f:
            p = subprocess.Popen([BIN, "capture", "--pid", str(child.pid), "--interval", "20s", "-o", core2],
                                 stdout=subprocess.DEVNULL, stderr=f)
        t0 = time.monotonic()
        rc = status_after_signal(p, 10, sig, ready=lambda pid: line in stderr_so_far())
        err = stderr_so_far()
        check(rc == 128 + sig and time.monotonic() - t0 < 10 and sorted(os.listdir(tmp)) == ["child.core"]
              and err.startswith(line),
              f"capture stopped by {sig.name} in its interval, said first: rc={rc} {os.listdir(tmp)} {err!r}")
    os.unlink(said)
    # Several processes, one interval: the automatic one, clamped at 50 ms here.
    pattern = os.path.join(tmp, "multi.%p.core")
    rc, out, err = run("capture", "--pid", f"{child.pid},{os.getpid()}", "--interval", "auto", "-o", pattern)
    files = [pattern.replace("%p", str(x)) for x in (child.pid, os.getpid())]
    check(rc == 0 and "one full KSM scan of" in err and f"(HZ {HZ})" in err and err.count("captured process") == 2
          and all(os.path.exists(f) for f in files), f"capture of two PIDs with --interval auto: {err!r}")
    for f in files:
        if os.path.exists(f):
            os.unlink(f)
    # KSM's settings come from KSMBENCH_KSM_DIR where set, as for ksm and
    # thread: recorded in the note, and the automatic interval's.
    fake = tempfile.mkdtemp(prefix="ksmbench-ksm-fake-")
    for name, value in (("pages_to_scan", "777"), ("sleep_millisecs", "35"), ("max_page_sharing", "300")):
        with open(os.path.join(fake, name), "w") as f:
            f.write(value + "\n")
    core3 = os.path.join(tmp, "fake.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "--interval", "auto", "-o", core3,
                       env={"KSMBENCH_KSM_DIR": fake})
    check(rc == 0 and "at pages_to_scan 777, sleep_millisecs 35" in " ".join(err.split()), f"the interval from KSMBENCH_KSM_DIR: {err!r}")
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", core3)
    s = json.loads(out)["settings"] if rc == 0 else {}
    check(s.get("pages_to_scan") == 777 and s.get("sleep_millisecs") == 35 and s.get("max_page_sharing") == 300,
          f"the settings recorded from KSMBENCH_KSM_DIR: {s}")
    # A setting the automatic interval is built on that is there but no
    # number the kernel writes is an error before any core is written (a
    # bare strtol took "abc" as 0, 4294967296 as 0 once cast, -5 as the
    # default); the last --interval counts ("2s" then "auto" slept 2 s).
    os.unlink(core3)
    for name, value in (("pages_to_scan", "abc"), ("pages_to_scan", "-5"), ("sleep_millisecs", "4294967296"),
                        ("sleep_millisecs", "99999999999999999999"), ("sleep_millisecs", "")):
        with open(os.path.join(fake, name), "w") as f:
            f.write(value + "\n")
        rc, out, err = run("capture", "--pid", str(child.pid), "--interval", "2s", "--interval", "auto", "-o", core3,
                           env={"KSMBENCH_KSM_DIR": fake})
        check(rc == 2 and err.count("\n") == 1 and f"{name} in KSMBENCH_KSM_DIR '{fake[:60]}" in err
              and "does not hold a whole number" in err
              and "--interval auto" in err and not os.path.exists(core3), f"{name} {value!r} for --interval auto: {rc} {err!r}")
        with open(os.path.join(fake, name), "w") as f:
            f.write("35\n")
    rc, out, err = run("capture", "--pid", str(child.pid), "--interval", "2s", "--interval", "auto", "-o", core3,
                       env={"KSMBENCH_KSM_DIR": fake})
    check(rc == 0 and "one full KSM scan" in err and "sleep_millisecs 35" in err, f"the last --interval counts: {err!r}")
    # A FIFO in a setting's place is not waited on: it holds no number.
    os.unlink(os.path.join(fake, "sleep_millisecs"))
    os.mkfifo(os.path.join(fake, "sleep_millisecs"))
    rc, out, err = run("capture", "--pid", str(child.pid), "--interval", "auto", "-o", core3,
                       env={"KSMBENCH_KSM_DIR": fake}, timeout=20)
    check(rc == 2 and "sleep_millisecs in KSMBENCH_KSM_DIR" in err and "does not hold a whole number" in err,
          f"a FIFO as sleep_millisecs: {rc} {err!r}")
    rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": fake}, timeout=20)
    check(rc == 0 and "pages_to_scan" in out and "sleep_millisecs" not in out, f"ksm with a FIFO there: {rc} {err!r}")
    # Nor by the note's settings (fopen waited for a writer: capture hung).
    rc, out, err = run("capture", "--pid", str(child.pid), "-o", core3, env={"KSMBENCH_KSM_DIR": fake}, timeout=60)
    check(rc == 0, f"capture with a FIFO among the settings it records: {rc} {err!r}")
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", core3)
    s = json.loads(out)["settings"] if rc == 0 else {}
    check(s.get("pages_to_scan") == 35 and s.get("max_page_sharing") == 300 and s.get("sleep_millisecs") == 20,
          f"the note records the settings that are files, the FIFO left out (the default sleep): {s}")
    # A directory whose paths do not fit is said, not taken for one without KSM.
    rc, out, err = run("ksm", env={"KSMBENCH_KSM_DIR": "/" + "d/" * 2100}, timeout=20)
    check(rc == 2 and len(err.splitlines()) == 1, f"ksm with a 4 KiB directory name: {rc} {err!r}")
    shutil.rmtree(fake)
    os.unlink(core3)
    for args, needle in ((["--pid", f"{child.pid},{child.pid}", "-o", pattern], "given twice"),
                         (["--pid", f"{child.pid},1", "-o", core], "%p"),
                         # "%%p" is a literal "%p": both cores would go to one file.
                         (["--pid", f"{child.pid},1", "-o", core + "%%p"], "would hold two cores"),
                         (["--pid", f"{child.pid},", "-o", core], "bad PID list"),
                         (["--pid", str(child.pid), "--interval", "0", "-o", core], "--interval"),
                         (["--pid", str(child.pid), "--interval", "soon", "-o", core], "--interval")):
        rc, out, err = run("capture", *args)
        check(rc == 2 and needle in err and len(err.splitlines()) == 1, f"capture {args}: {err!r}")
    # --pid given twice takes the last list (ksmbench.1: lists do not add
    # up across repeats): the second PID alone, one core, where the two
    # added up to "several PIDs" (or "given twice" for the same PID).
    once = os.path.join(tmp, "once.core")
    for first in ("1", str(child.pid)):
        rc, out, err = run("capture", "--pid", first, "--pid", str(child.pid), "-o", once)
        check(rc == 0 and os.path.exists(once) and f"captured process {child.pid}:" in err
              and "captured process 1:" not in err, f"capture --pid {first} --pid PID: the last: {rc} {err!r}")
        if os.path.exists(once):
            os.unlink(once)
    if os.geteuid() == 0 and shutil.which("setpriv"):
        # Without CAP_SYS_ADMIN: said once, what cannot be known.
        os.chmod(tmp, 0o777)
        mine = subprocess.Popen(["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups",
                                 sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        try:
            mine.stdout.readline()
            nobody = os.path.join(tmp, "nobody.core")
            rc, out, err = run("capture", "--pid", str(mine.pid), "-o", nobody, user=65534)
            check(rc == 0 and err.count("without CAP_SYS_ADMIN") == 1 and "zero page" in err,
                  f"capture without root says once what it cannot know: {err!r}")
            rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", nobody)
            check(rc == 0 and json.loads(out)["dumps"][0]["pfn_known"] is False, "its note says PFNs unknown")
            os.unlink(nobody)
        finally:
            mine.stdin.close()
            mine.wait(timeout=30)
    cat = subprocess.run(["sh", "-c", 'cat "$1" | "$0" sum --per-page -H crc32-zlib -', BIN, core],
                         capture_output=True, text=True, timeout=120)
    piped = {int(p[2], 16): p[1] for p in (line.split() for line in cat.stdout.splitlines()) if len(p) == 3}
    check(cat.returncode == 0 and piped == pages, f"cat core | sum --per-page -: {cat.returncode} {cat.stderr!r}")
    # -o -: the core on standard output, straight into a reader.
    p1 = subprocess.Popen([BIN, "capture", "--pid", str(child.pid), "-o", "-"], cwd=tmp, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    p2 = subprocess.run([BIN, "sum", "--per-page", "-H", "crc32-zlib", "-"], stdin=p1.stdout,
                        capture_output=True, text=True, timeout=120)
    p1.stdout.close()
    err1 = p1.stderr.read().decode()
    p1.wait(timeout=60)
    streamed = {int(p[2], 16): p[1] for p in (line.split() for line in p2.stdout.splitlines()) if len(p) == 3}
    check(p1.returncode == 0 and p2.returncode == 0 and "-> standard output" in err1
          and all(streamed.get(priv + k * PS) == pages.get(priv + k * PS) for k in TOUCHED),
          f"capture -o - | sum --per-page -: {p1.returncode} {p2.returncode} {err1!r} {p2.stderr!r}")
    check(sorted(os.listdir(tmp)) == ["child.core"], f"no file named '-': {os.listdir(tmp)}")

    core_all = os.path.join(tmp, "all.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "-o", core_all, "--all")
    rc2, pages_all, _, _ = pages_of(core_all)
    check(rc == 0 and rc2 == 0 and pages_all.get(shared) == "%08x" % zlib.crc32(b"\x77" * PS),
          f"--all captures the shared mapping: {err!r}")
    check(len(pages_all) > len(pages), "--all captures more pages")

    if shutil.which("gdb"):
        p = subprocess.run(["gdb", "-batch", "-nx", "-c", core, "-ex", f"x/2xb {priv + 5 * PS:#x}"],
                           capture_output=True, text=True, timeout=120)
        check("0x03\t0x03" in p.stdout, f"gdb reads the core: {p.stdout[-200:]!r}")

    if os.geteuid() == 0 and shutil.which("setpriv"):
        other = os.path.join(tmp, "other.core")
        os.chmod(tmp, 0o777)
        rc, out, err = run("capture", "--pid", str(child.pid), "-o", other, user=65534)
        lines = err.splitlines()
        check(rc == 2 and len(lines) == 1 and "another user" in err and "CAP_SYS_PTRACE" in err,
              f"another user's process: rc={rc} {err!r}")
        check(not os.path.exists(other), "no file after a permission error")
finally:
    child.stdin.close()
    child.wait(timeout=30)

rc, out, err = run("capture", "--pid", str(child.pid), "-o", os.path.join(tmp, "gone.core"))
check(rc == 2 and "no process with PID" in err and len(err.splitlines()) == 1, f"a finished process: {err!r}")
check(not os.path.exists(os.path.join(tmp, "gone.core")), "no file after an error")
# A kernel thread (kthreadd is PID 2 wherever there is a kernel thread at
# all) exists but has no memory of its own: said so, not "no process".
if os.path.exists("/proc/2/stat") and open("/proc/2/stat").read().split()[1] == "(kthreadd)":
    rc, out, err = run("capture", "--pid", "2", "-o", os.path.join(tmp, "kthread.core"))
    check(rc == 2 and "PID 2 has no user memory to read (a kernel thread" in err and len(err.splitlines()) == 1
          and not os.path.exists(os.path.join(tmp, "kthread.core")), f"a kernel thread: {err!r}")
# KSM merges anonymous pages only: in a private file mapping offered to it
# (captured with --all), the pages only read are the file's page cache and
# not mergeable, the pages written are anonymous copies and are.
FILE_CHILD = r"""
import mmap, sys
ps = mmap.PAGESIZE
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), 4 * ps, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
anon = mmap.mmap(-1, 2 * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
try:
    m.madvise(mmap.MADV_MERGEABLE)
    anon.madvise(mmap.MADV_MERGEABLE)
except OSError:  # a kernel without KSM
    print("no-ksm", flush=True)
    sys.exit(0)
sink = m[0] + m[ps]
m[2 * ps] = 1
m[3 * ps] = 2
anon[0] = 3
anon[ps] = 4
print("ready", flush=True)
sys.stdin.read()
"""
backing = os.path.join(tmp, "backing")
with open(backing, "wb") as f:
    f.write(os.urandom(4 * PS))
# (KSM-driving tests wait while this mergeable memory lives: ksm_guard)
with ksm_guard.mergeable_memory():
    child = subprocess.Popen([sys.executable, "-c", FILE_CHILD, backing], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        if child.stdout.readline().strip() == b"ready":
            core = os.path.join(tmp, "file.core")
            rc, out, err = run("capture", "--pid", str(child.pid), "--all", "--mergeable", "-o", core)
            rc2, out2, _ = run("scan", "--format", "json", "--sample-pages", "0", core)
            d = json.loads(out2)["dumps"][0] if rc2 == 0 else {}
            check(rc == 0 and d.get("pages") == 6 and d.get("pages_mergeable") == 4
                  and "KSM may merge 4 of process" in err,
                  f"a private file mapping's page cache is not mergeable, its written pages are: {d} {err!r}")
            # The automatic interval: a full scan of the pages KSM may merge with
            # --mergeable, of every page without it (as scan takes them). Every
            # page at pages_to_scan 1 would be the 10 s clamp: there, 100000.
            fake = tempfile.mkdtemp(prefix="ksmbench-ksm-fake-")
            for extra, per_batch in (["--mergeable"], 1), ([], 100000):
                for name, value in (("pages_to_scan", per_batch), ("sleep_millisecs", 20)):
                    with open(os.path.join(fake, name), "w") as f:
                        f.write(f"{value}\n")
                rc, out, err = run("capture", "--pid", str(child.pid), "--all", *extra, "--interval", "auto",
                                   "-o", core, env={"KSMBENCH_KSM_DIR": fake})
                m = re.search(rf"one full KSM scan of (\d+) pages at pages_to_scan {per_batch},", " ".join(err.split()))
                check(rc == 0 and m and (int(m.group(1)) == 4) == bool(extra),
                      f"--interval auto {extra}: a scan of "
                      f"{'the 4 pages KSM may merge' if extra else 'every page'}: {err!r}")
            shutil.rmtree(fake)
            os.unlink(core)
    finally:
        child.stdin.close()
        child.wait(timeout=30)
os.unlink(backing)

# A /proc/PID/maps line longer than capture's buffer (a file name past
# 4 KiB, nested by openat) is cut, never split: its rest, text the file's
# owner chose, once read as a private anonymous mapping of its own, and
# capture wrote pages the process does not map (until 2026-12-07).
LONG_CHILD = r"""
import ctypes, mmap, sys
m = mmap.mmap(int(sys.argv[1]), mmap.PAGESIZE, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
m[0] = 1
try:
    m.madvise(mmap.MADV_MERGEABLE)
    merge = "mergeable"
except (AttributeError, OSError):  # a kernel without KSM
    merge = "-"
print(hex(ctypes.addressof(ctypes.c_char.from_buffer(m))), merge, flush=True)
sys.stdin.read()
"""
FORGED = 0x10000


def segment_addresses(core):
    """The p_vaddr of every program header of a 64-bit core, which is then
    removed."""
    with open(core, "rb") as f:
        data = f.read()
    os.unlink(core)
    phoff, phnum = struct.unpack_from("<Q", data, 32)[0], struct.unpack_from("<H", data, 56)[0]
    return [struct.unpack_from("<Q", data, phoff + 56 * i + 16)[0] for i in range(phnum)]


deep = tempfile.mkdtemp(prefix="ksmbench-long-")
dfd = os.open(deep, os.O_RDONLY)
depth = 0
# The file's directory ends within 201 bytes of the line's byte 4095 (a
# line's fields before the name are about 73 bytes: 90 keeps it short).
while 90 + len(deep) + (depth + 1) * 201 < 4094:
    os.mkdir("d" * 200, dir_fd=dfd)
    nfd = os.open("d" * 200, os.O_RDONLY, dir_fd=dfd)
    os.close(dfd)
    dfd, depth = nfd, depth + 1
ffd = os.open("f", os.O_RDWR | os.O_CREAT, 0o600, dir_fd=dfd)
os.write(ffd, b"\1" * PS)
child = subprocess.Popen([sys.executable, "-c", LONG_CHILD, str(ffd)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         pass_fds=[ffd])
try:
    mapped, merge = child.stdout.readline().split()
    mapped = int(mapped, 16)

    def long_line():
        with open(f"/proc/{child.pid}/maps", "rb") as maps:
            return next((x for x in maps if b"/ddd" in x), b"")

    # Renamed so that the line's byte 4095 starts the forged mapping (the
    # kernel shows the mapped file's name of the moment).
    forged = "%x-%x rw-p 00000000 00:00 0 " % (FORGED, FORGED + PS)
    pad = 4095 - (len(long_line()) - 2)
    os.rename("f", "p" * pad + forged, src_dir_fd=dfd, dst_dir_fd=dfd)
    line = long_line()
    core = os.path.join(tmp, "long.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "-o", core)
    loads = segment_addresses(core) if rc == 0 else []
    check(line[4095:].startswith(forged.encode()) and rc == 0 and loads and FORGED not in loads,
          f"a maps line past 4 KiB is cut, its rest no mapping: rc={rc} {line[4090:4130]!r} {err!r}")
    # smaps has the same line, then the mapping's VmFlags ("mg": madvised
    # mergeable). Read split, the flag would go to the forged address and
    # the file's copied-on-write page be left out of --all --mergeable.
    if merge == b"mergeable":
        rc, out, err = run("capture", "--pid", str(child.pid), "--all", "--mergeable", "-o", core)
        loads = segment_addresses(core) if rc == 0 else []
        check(rc == 0 and mapped in loads and FORGED not in loads,
              f"an smaps line past 4 KiB is cut: its mapping's mg flag stays its own: rc={rc} {hex(mapped)} "
              f"{[hex(x) for x in loads]} {err!r}")
finally:
    child.stdin.close()
    child.wait(timeout=30)
    os.close(ffd)
    os.close(dfd)
shutil.rmtree(deep)

# A reservation of 64 GiB with three pages written (an ASan shadow is 16-20
# TiB): those three in the core at their addresses, every other page absent.
# The kernel's PAGEMAP_SCAN (6.7+) lets capture pass over it without a page
# map word for each page; older kernels read them all, and must agree.
SPARSE = r"""
import ctypes, mmap, sys
ps = mmap.PAGESIZE
m = mmap.mmap(-1, 64 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000)  # MAP_NORESERVE
for k, off in enumerate((1 << 30, 33 << 30, (64 << 30) - ps)):
    m[off:off + ps] = bytes([k + 1]) * ps
print(hex(ctypes.addressof(ctypes.c_char.from_buffer(m))), flush=True)
sys.stdin.read()
"""
if sys.maxsize > 2 ** 32:
    child = subprocess.Popen([sys.executable, "-c", SPARSE], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        base = int(child.stdout.readline(), 16)
        core = os.path.join(tmp, "sparse.core")
        rc, out, err = run("capture", "--pid", str(child.pid), "-o", core)
        check(rc == 0 and " absent" in err, f"capture of a 64 GiB reservation: {rc} {err!r}")
        absent = int(err.split(" absent")[0].split()[-1]) if " absent" in err else 0
        check(absent >= (64 << 30) // PS - 3, f"its untouched pages counted absent: {absent}")
        # The runs of absent pages the kernel skips are laid out page for
        # page as those read one by one: the reservation's segments follow
        # each other from its start to its end, their data its three pages,
        # and the count said is the core's own (p_memsz beyond p_filesz,
        # less the pages that map the zero page).
        with open(core, "rb") as f:
            data = f.read()
        phoff, phnum = struct.unpack_from("<Q", data, 32)[0], struct.unpack_from("<H", data, 56)[0]
        loads = [struct.unpack_from("<IIQQQQQ", data, phoff + 56 * i) for i in range(phnum)]
        loads = [(va, filesz, memsz) for typ, _, _, va, _, filesz, memsz in loads if typ == 1]
        mine = sorted(x for x in loads if base <= x[0] < base + (64 << 30))
        at = base
        for va, filesz, memsz in mine:
            at = at + memsz if va == at else -1
        zero = re.search(r"(\d+) map(?:s)? the zero page", err)
        tail = sum((memsz - filesz) // PS for _, filesz, memsz in loads)
        check(at == base + (64 << 30) and sum(x[1] for x in mine) == 3 * PS
              and zero and absent + int(zero.group(1)) == tail,
              f"the reservation's segments end to end, {absent} absent as the core holds them: "
              f"{[(hex(v), f, m) for v, f, m in mine][:8]} {tail} {err!r}")
        rc, pages, summary, err = pages_of(core)
        want = {base + off: "%08x" % zlib.crc32(bytes([k + 1]) * PS)
                for k, off in enumerate((1 << 30, 33 << 30, (64 << 30) - PS))}
        check(rc == 0 and all(pages.get(a) == v for a, v in want.items())
              and not [a for a in pages if base <= a < base + (64 << 30) and a not in want],
              f"the three written pages at their addresses, no other page of the reservation: {summary!r}")
        os.unlink(core)
    finally:
        child.stdin.close()
        child.wait(timeout=30)

rc, out, err = run("capture", "--pid", "abc", "-o", "x")
check(rc == 2 and "bad PID" in err, f"bad PID: {err!r}")
rc, out, err = run("capture", "--pid", "1")
check(rc == 2 and "required" in err, f"missing -o: {err!r}")
rc, out, err = run("capture", "--help")
check(rc == 0 and "--pid" in out, "capture --help")
shutil.rmtree(tmp)
finish("capture")
