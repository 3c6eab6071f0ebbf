"""Many dumps read one after another hold bounded memory and file
descriptors (issue 13): a reader gives back its buffers, its layers and its
descriptor at the end of each dump and reopens the file only when `scan`
fetches one of its pages again. Each run is measured in a child of its own
(peak RSS from getrusage) under a small `ulimit -n`."""
import json
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpgen as g  # noqa: E402
from clitest import BIN, INSTRUMENTED, check, finish, quoted, run  # noqa: E402

PS = 4096
NDUMPS = 300
FDS = 48  # far fewer than the dumps: every descriptor must be given back
# Peak RSS bounds (MiB): about 15 and 11 measured, 309 and 82 before the
# readers gave their memory back. A sanitizer's shadow memory and
# quarantine, and under qemu-user the emulator's own memory (seen to jump
# between runs), are counted too, so those builds are held to the
# descriptor limit only (and get no address-space cap: TSan's shadow does
# not fit in one).
ELF_RSS_MIB, KDUMP_RSS_MIB = 60, 40

MEASURE = r"""
import json, resource, subprocess, sys
lim = int(sys.argv[1])
p = subprocess.run(sys.argv[2:], capture_output=True,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (lim, lim)))
print(json.dumps({"rc": p.returncode, "out": p.stdout.decode(), "err": p.stderr.decode(),
                  "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def measured(*args, fds=FDS):
    """(exit code, stdout, stderr, peak RSS in MiB) of ksmbench args."""
    p = subprocess.run([sys.executable, "-c", MEASURE, str(fds), BIN, *args], capture_output=True,
                       text=True, timeout=600)
    d = json.loads(p.stdout)
    return d["rc"], d["out"], d["err"], d["maxrss_kib"] / 1024


def scan_case(label, paths, rss_bound):
    """scan of paths: memory first (descriptors to spare), then under the
    descriptor limit; the JSON document, or None."""
    rc, out, err, rss = measured("scan", "--sample-pages", "0", *paths, fds=4096)
    check(rc == 0 and (INSTRUMENTED or rss < rss_bound),
          f"scan of {label}: rc={rc}, peak RSS {rss:.0f} MiB (bound {rss_bound})")
    rc, out, err, rss = measured("scan", "--sample-pages", "0", "--format", "json", *paths)
    check(rc == 0, f"scan of {label} under ulimit -n {FDS}: rc={rc} {err[-300:]!r}")
    return json.loads(out) if rc == 0 else None


def quick_page(tag):
    return struct.pack("<QQ", hash(tag) & (2**64 - 1), len(str(tag))) * (PS // 16)


tmp = tempfile.mkdtemp(prefix="ksmbench-resources-")
try:
    # 20 distinct 1 MiB ELF cores, each written 15 times (the readers see 300
    # files; scan refuses links to one file): half of every core's pages are
    # shared by all, so the census reads representatives of earlier dumps
    # again through reopened files.
    shared = [quick_page(("shared", k)) for k in range(128)]
    paths = []
    for d in range(20):
        own = [quick_page(("own", d, k)) for k in range(128)]
        core = g.elf([(0x100000, b"".join(shared + own))], data_align=1)
        for k in range(NDUMPS // 20):
            paths.append(os.path.join(tmp, f"d{d}-{k}.core"))
            with open(paths[-1], "wb") as f:
                f.write(core)
    paths.sort()
    t = scan_case(f"{NDUMPS} 1 MiB ELF dumps", paths, ELF_RSS_MIB)
    if t:
        check(t["totals"]["pages"] == NDUMPS * 256 and t["totals"]["distinct_contents"] == 128 + 20 * 128,
              f"scan counts of the ELF dumps: {t['totals']}")
        check(t["census"]["fetches"] > 0, "representatives were read again")

    # gzip-compressed flattened kdumps: four cursors each, each a gzip
    # stream and a flattened layer.
    kpages = {pfn: quick_page(("k", pfn)) for pfn in range(1, 200, 3)}
    kd = g.gz(g.kdump(kpages, 256, flat=True))
    kpaths = []
    for d in range(NDUMPS):
        path = os.path.join(tmp, f"k{d:03}.kdump.gz")
        with open(path, "wb") as f:
            f.write(kd)
        kpaths.append(path)
    t = scan_case(f"{NDUMPS} gzipped flattened kdumps", kpaths, KDUMP_RSS_MIB)
    if t:
        check(t["totals"]["pages"] == NDUMPS * len(kpages) and t["totals"]["distinct_contents"] == len(kpages),
              f"scan counts of the kdumps: {t['totals']}")

    # sum --per-page over the same files: one source after another.
    rc, out, err, rss = measured("sum", "--per-page", *kpaths[:100], *paths[:100], fds=16)
    check(rc == 0 and out.count("\n") == 100 * (len(kpages) + 1) + 100 * 257,
          f"sum --per-page of 200 dumps under ulimit -n 16: rc={rc} {err[-200:]!r}")
finally:
    shutil.rmtree(tmp)
# The census spills the pages of a compressed dump to an unnamed file in
# $TMPDIR (glibc's tmpfile() ignored TMPDIR: a bad one still "worked").
spill_dir = tempfile.mkdtemp(prefix="ksmbench-spill-")
try:
    import gzip
    gz = os.path.join(spill_dir, "pages.raw.gz")
    with gzip.open(gz, "wb") as f:
        f.write(os.urandom(64 * PS) * 2)
    missing = os.path.join(spill_dir, "missing")
    rc, out, err = run("scan", gz, env={"TMPDIR": missing})
    check(rc == 2 and f"cannot create a temporary file in TMPDIR '{quoted(missing)}' for pages" in err and err.count("\n") == 1,
          f"scan of a gzip dump with a missing TMPDIR: one error naming it: rc={rc} {err!r}")
    # Longer than a path, it is refused whole, the value cut in the error:
    # copied into a buffer of 4 KiB it was cut, and named the directory
    # before the slashes, which exists.
    long_tmpdir = spill_dir + "/" * 5000 + "missing"
    rc, out, err = run("scan", gz, env={"TMPDIR": long_tmpdir})
    check(rc == 2 and f"TMPDIR '{long_tmpdir[:60]}...' for pages" in err and "File name too long" in err
          and err.count("\n") == 1, f"scan of a gzip dump with a TMPDIR of 5000 bytes: rc={rc} {err!r}")
    work = os.path.join(spill_dir, "tmp")
    os.mkdir(work)
    rc, out, err = run("scan", gz, "--format", "json", env={"TMPDIR": work})
    check(rc == 0 and json.loads(out) and os.listdir(work) == [],
          f"scan of a gzip dump spills into TMPDIR and leaves nothing: rc={rc} {os.listdir(work)} {err[-200:]!r}")
finally:
    shutil.rmtree(spill_dir)

# A gzip'd ELF core of 106 bytes whose ksmbench page note claims 2^29 pages
# (and a segment that would hold them): the note's entries are read as they
# arrive, their buffer grown with them, so the cut note is an error after a
# megabyte, not after 4 GiB were asked for (13 s and 538 MiB under ASan).
import gzip  # noqa: E402
pages = (0xFFFFFFF8 - 40) // 8
name = b"KSMBENCH\0"
descsz = 40 + pages * 8
note = struct.pack("<III", len(name), descsz, g.KB_NOTE_PAGES) + name + b"\0" * 3
note += struct.pack("<IIIIQQQ", 1, 0, PS, 0, pages, 0, 0)
head = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, 64, 0, 0, 64, 56, 2, 64, 0, 0)
ph_note = struct.pack("<IIQQQQQQ", 4, 0, 176, 0, 0, 24 + ((descsz + 3) & ~3), 0, 4)
ph_load = struct.pack("<IIQQQQQQ", 1, 6, 1 << 20, 0, 0, pages * PS, pages * PS, PS)
fd, claim = tempfile.mkstemp(prefix="ksmbench-note-", suffix=".gz")
os.write(fd, gzip.compress(head + ph_note + ph_load + note))
os.close(fd)
# In 1 GiB of address space (not under ASan or qemu, which reserve more).
limit = None if INSTRUMENTED else lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
p = subprocess.run([BIN, "sum", "--per-page", claim], capture_output=True, text=True, timeout=600, preexec_fn=limit)
check(p.returncode == 2 and "is truncated: its page note" in p.stderr and p.stderr.count("\n") == 1,
      f"a page note claiming 2^29 pages, cut: one error in 1 GiB: rc={p.returncode} {p.stderr!r}")
os.unlink(claim)
finish("resources")
