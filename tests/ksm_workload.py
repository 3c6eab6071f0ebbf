"""A deterministic KSM workload for the validation tests: one process of a
group of NPROC, all of them holding the same kinds of pages in one
MADV_MERGEABLE mapping, so that what KSM merges is known:
  - contents shared by every process, and groups of copies over
    max_page_sharing (300, 40 and 17 copies in all);
  - pages one byte apart from each other (each content in every process);
  - pages unique to the process, zero pages, 0xff pages;
  - pages only read, which map the shared zero page;
  - volatile pages rewritten every 2 ms with a changing counter;
  - a 2 MiB-aligned MADV_HUGEPAGE region (a THP when the kernel gives one)
    with 32 shared subpages, the other 480 zero.
Run: python3 ksm_workload.py K NPROC [EXTRA]; EXTRA more unique pages (to
keep ksmd checksumming); prints "ready" once filled, then waits for
standard input to close."""
import ctypes
import hashlib
import mmap
import sys
import threading
import time

PS = mmap.PAGESIZE
HUGE = 2 << 20


def page(tag):
    """A page whose bytes differ for every tag."""
    d = hashlib.sha256(repr(tag).encode()).digest()
    return d * (PS // len(d))


def layout(k, nproc, extra=0):
    """(name, list of page contents or None for a read-only page) in order."""
    base = page("base")
    one_byte = [base[:i] + b"\x01" + base[i + 1:] for i in range(20)]
    g17 = 17 // nproc + (1 if k < 17 % nproc else 0)
    return [
        ("shared", [page(("s", i)) for i in range(40)]),
        ("g300", [page("g300")] * (300 // nproc)),
        ("g40", [page("g40")] * (40 // nproc)),
        ("g17", [page("g17")] * g17),
        ("one_byte", one_byte),
        ("unique", [page(("u", k, i)) for i in range(30 + extra)]),
        ("zero", [bytes(PS)] * 30),
        ("ff", [b"\xff" * PS] * 25),
        ("read_only", [None] * 40),
    ]


VOLATILE = 16
THP_SHARED = 32


def main():
    k, nproc = int(sys.argv[1]), int(sys.argv[2])
    parts = layout(k, nproc, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    npages = sum(len(p) for _, p in parts) + VOLATILE
    size = npages * PS + 2 * HUGE
    m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    thp = (-(base + npages * PS)) % HUGE + npages * PS
    m.madvise(mmap.MADV_HUGEPAGE, thp, HUGE)
    m.madvise(mmap.MADV_MERGEABLE)
    at, sink = 0, 0
    for _, pages in parts:
        for p in pages:
            if p is None:
                sink += m[at * PS]
            else:
                m[at * PS:(at + 1) * PS] = p
            at += 1
    vol = at
    for i in range(THP_SHARED):
        m[thp + i * PS:thp + (i + 1) * PS] = page(("t", i))

    def rewrite():
        n = 0
        while True:
            n += 1
            for i in range(VOLATILE):
                off = (vol + i) * PS
                m[off:off + 24] = b"%08d%08d%08d" % (k, i, n % 10 ** 8)
            time.sleep(0.002)

    for i in range(VOLATILE):
        m[(vol + i) * PS:(vol + i + 1) * PS] = page(("v", k, i))
    threading.Thread(target=rewrite, daemon=True).start()
    print("ready", sink, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
