"""CLI tests of `ksmbench capture`: a child process with known pages in a
private anonymous mapping (some never touched) is captured, and the core is
read back with `sum --per-page`: present pages at their addresses with the
known hashes, untouched ones counted as holes, never as zero pages."""
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import BIN, check, finish, run  # noqa: E402

PS = os.sysconf("SC_PAGE_SIZE")
TOUCHED = {0: 1, 1: 2, 5: 3, 6: 0, 15: 4}  # page -> fill byte (0: written zeros)
CHILD = r"""
import ctypes, mmap, sys
ps = mmap.PAGESIZE
priv = mmap.mmap(-1, 16 * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
for k, v in %r.items():
    priv[k * ps:(k + 1) * ps] = bytes([v]) * ps
shared = mmap.mmap(-1, 2 * ps, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
shared[0:ps] = b"\x77" * ps
addr = lambda m: ctypes.addressof(ctypes.c_char.from_buffer(m))
print(hex(addr(priv)), hex(addr(shared)), flush=True)
sys.stdin.read()
""" % TOUCHED


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
    priv, shared = (int(x, 16) for x in child.stdout.readline().split())
    core = os.path.join(tmp, "child.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "-o", core)
    # The summary goes to stderr, so that standard output can carry a core.
    check(rc == 0 and out == "" and "captured process" in err, f"capture exit {rc}: {out!r} {err!r}")
    check(stat.S_IMODE(os.stat(core).st_mode) == 0o600, "core file mode 0600")
    check(sorted(os.listdir(tmp)) == ["child.core"], f"no temporary left: {os.listdir(tmp)}")
    rc, pages, summary, err = pages_of(core)
    check(rc == 0 and "elf," in summary, f"core readable: {err!r} {summary!r}")
    for k, v in TOUCHED.items():
        want = "%08x" % zlib.crc32(bytes([v]) * PS)
        check(pages.get(priv + k * PS) == want, f"page {k} at {priv + k * PS:#x}: {pages.get(priv + k * PS)} != {want}")
    untouched = [k for k in range(16) if k not in TOUCHED]
    check(all(priv + k * PS not in pages for k in untouched), "untouched pages are not yielded")
    holes = int(summary.split(" holes")[0].split()[-1])
    check(holes >= len(untouched), f"untouched pages counted as holes: {summary!r}")
    check(shared not in pages, "shared mapping left out without --all")

    # Headers first: e_phoff right after the ELF header, the data after
    # them on a page boundary, so the core streams through a pipe.
    with open(core, "rb") as f:
        head = f.read(64)
    phoff, phnum = struct.unpack_from("<Q", head, 32)[0], struct.unpack_from("<H", head, 56)[0]
    first_data = struct.unpack_from("<Q", open(core, "rb").read(64 + 56), 64 + 8)[0]
    check(phoff == 64 and first_data % PS == 0 and first_data >= 64 + phnum * 56,
          f"headers first: e_phoff {phoff}, first p_offset {first_data}")
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
rc, out, err = run("capture", "--pid", "abc", "-o", "x")
check(rc == 2 and "bad PID" in err, f"bad PID: {err!r}")
rc, out, err = run("capture", "--pid", "1")
check(rc == 2 and "required" in err, f"missing -o: {err!r}")
rc, out, err = run("capture", "--help")
check(rc == 0 and "--pid" in out, "capture --help")
shutil.rmtree(tmp)
finish("capture")
