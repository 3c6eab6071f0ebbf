"""CLI tests of `ksmbench sum` (issues 12 and 13): whole-file sums streamed in
pieces equal the hash of the whole buffer (cross-checked against xxhsum,
Python's zlib and a Python CRC-32C) and stay small in memory on large pipes
and /dev/zero; --tag lines as xxhsum writes them; --check of whole-file,
tagged and per-page lists (OK/FAILED, exit 1, malformed lines exit 2);
--ksm, the page checksum as KSM stores it."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpgen as g  # noqa: E402
from clitest import BIN, INSTRUMENTED, check, check_usage_error, finish, run  # noqa: E402

PS = 4096
MIB = 1 << 20
XXHSUM = shutil.which("xxhsum")
CRC32C_TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
    CRC32C_TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = CRC32C_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def xxhsum(algo, path):
    """xxhsum's hex for path (algo 0, 1, 2 or 3)."""
    out = subprocess.run([XXHSUM, f"-H{algo}", path], capture_output=True, text=True).stdout.split()
    return out[-1] if algo == 3 else out[0]  # XXH3 is printed tagged: "XXH3 (f) = hex"


def digest(hash_name, path, *extra):
    rc, out, err = run("sum", "-H", hash_name, *extra, path)
    return out.split()[0] if rc == 0 and out else f"rc={rc} {err!r}"


rc, out, _ = run("list", "--format", "json")
AVAILABLE = {e["name"] for e in json.loads(out)["hashes"] if e["available"]}
# The kernel's xxhash() is xxh64 on 64-bit builds, xxh32 on 32-bit ones.
XXHASH64 = {e["name"]: e for e in json.loads(out)["hashes"]}["xxhash"]["bits"] == 64
tmp = tempfile.mkdtemp(prefix="ksmbench-sum-")
try:
    # ---- streamed sums equal the whole-buffer references, at the edges of
    # the 1 MiB pieces, from a file and through a pipe
    blob = os.urandom(3 * MIB + 5)
    for size in (0, 1, 4096, MIB - 1, MIB, MIB + 1, 3 * MIB + 4):
        data = blob[:size]
        path = os.path.join(tmp, f"s{size}")
        with open(path, "wb") as f:
            f.write(data)
        want = {"crc32-zlib": "%08x" % zlib.crc32(data)}
        if size <= MIB + 1:  # the Python CRC-32C is slow: the edges only
            want["crc32c"] = want["crc32c-generic"] = want["crc32c-sse42"] = "%08x" % crc32c(data)
        if XXHSUM:
            want.update({"xxh32": xxhsum(0, path), "xxh64": xxhsum(1, path), "xxh128": xxhsum(2, path),
                         "xxh3": xxhsum(3, path), "xxh3-sse2": xxhsum(3, path), "xxh128-lib": xxhsum(2, path)})
        for name, hexval in want.items():
            if name not in AVAILABLE:
                continue
            check(digest(name, path) == hexval, f"sum -H {name} of {size} bytes: {digest(name, path)} != {hexval}")
        for name in ("xxh64", "crc32c", "crc32-zlib", "xxh128"):
            rc, out, err = run("sum", "-H", name, "-", stdin=data)
            check(rc == 0 and out.split()[0] == digest(name, path), f"sum -H {name} - of {size} bytes from a pipe")
        if size % 4 == 0 and size <= MIB:
            check(len(digest("jhash2", path)) == 8, f"jhash2 of {size} bytes")

    # ---- memory: a 1.5 GB pipe, and /dev/zero, do not grow
    MEASURE = r"""
import json, resource, subprocess, sys
gen = subprocess.Popen(["head", "-c", sys.argv[1], "/dev/zero"], stdout=subprocess.PIPE)
p = subprocess.run(sys.argv[2:], stdin=gen.stdout, capture_output=True)
gen.wait()
print(json.dumps({"rc": p.returncode, "out": p.stdout.decode(), "err": p.stderr.decode(),
                  "rss_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""
    size = 1536 * MIB
    for name in ("xxh64", "crc32-zlib"):
        p = subprocess.run([sys.executable, "-c", MEASURE, str(size), BIN, "sum", "-H", name, "-"],
                           capture_output=True, text=True, timeout=600)
        d = json.loads(p.stdout)
        if name == "crc32-zlib":
            c, zeros = 0, bytes(64 * MIB)
            for _ in range(size // len(zeros)):
                c = zlib.crc32(zeros, c)
            want = "%08x" % c
        elif XXHSUM:
            gen = subprocess.Popen(["head", "-c", str(size), "/dev/zero"], stdout=subprocess.PIPE)
            want = subprocess.run([XXHSUM, "-H1", "-"], stdin=gen.stdout, capture_output=True,
                                  text=True).stdout.split()[0]
            gen.wait()
        else:  # no reference here (and no reader for a generator's pipe: it would block)
            want = None
        check(d["rc"] == 0 and (want is None or d["out"].split()[0] == want),
              f"sum -H {name} of 1.5 GB through a pipe: {d['out']!r} != {want} {d['err']!r}")
        check(INSTRUMENTED or d["rss_mib"] < 40, f"sum -H {name} of 1.5 GB through a pipe: peak RSS {d['rss_mib']:.0f} MiB")
    proc = subprocess.Popen([BIN, "sum", "/dev/zero"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rss = []
    for _ in range(4):
        time.sleep(0.5)
        with open(f"/proc/{proc.pid}/status") as f:
            rss += [int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS:")]
    proc.kill()
    proc.wait()
    check(proc.returncode == -9 and (INSTRUMENTED or max(rss) < 40) and max(rss) - rss[0] < 8,
          f"sum /dev/zero streams without growing: RSS {rss} MiB")
    rc, out, err = run("sum", "-H", "jhash2", "/dev/zero", timeout=60)
    check(rc == 2 and "no streaming form" in err and "64 MiB" in err and len(err.splitlines()) == 1,
          f"sum -H jhash2 /dev/zero stops at its documented size: {err!r}")

    # ---- --tag: BSD lines, verified by xxhsum and by sum --check
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    with open(a, "wb") as f:
        f.write(b"hello")
    with open(b, "wb") as f:
        f.write(blob[:10000])
    tags = {"xxh32": "XXH32", "xxh64": "XXH64", "xxhash": "XXH64" if XXHASH64 else "XXH32", "xxh3": "XXH3", "xxh3-avx2": "XXH3",
            "xxh128": "XXH128", "crc32c": "CRC32C", "crc32c-generic": "CRC32C", "crc32-zlib": "CRC32",
            "jhash2": None}
    for name, tag in tags.items():
        if name not in AVAILABLE:
            continue
        rc, out, err = run("sum", "--tag", "-H", name, a)
        want_tag = tag or "JHASH2"
        if name == "jhash2":
            check(rc == 2 and "multiple of 4" in err, "jhash2 of 5 bytes refused")
            continue
        check(rc == 0 and out == f"{want_tag} ({a}) = {digest(name, a)}\n", f"--tag -H {name}: {out!r}")
    lists = os.path.join(tmp, "tagged.list")
    with open(lists, "w") as f:
        for name in ("xxh32", "xxh64", "xxh3", "xxh128", "crc32c", "crc32-zlib"):
            f.write(run("sum", "--tag", "-H", name, a, b)[1])
    rc, out, err = run("sum", "-c", lists)
    check(rc == 0 and out == f"{a}: OK\n{b}: OK\n" * 6 and err == "", f"sum -c of tagged lines: {out!r} {err!r}")
    if XXHSUM:
        xx = subprocess.run([XXHSUM, "-c", "-"], input="".join(
            line + "\n" for line in open(lists).read().splitlines() if line.startswith(("XXH32", "XXH64", "XXH3", "XXH128"))),
            capture_output=True, text=True)
        check(xx.returncode == 0 and xx.stdout.count(": OK") == 8, f"xxhsum -c of ksmbench --tag lines: {xx.stdout!r}")
        theirs = subprocess.run([XXHSUM, "-H1", a, b], capture_output=True, text=True).stdout
        rc, out, err = run("sum", "-c", "-H", "xxh64", "-", stdin=theirs.encode())
        check(rc == 0 and out.count(": OK") == 2, f"sum -c of xxhsum's GNU lines: {out!r} {err!r}")
        theirs = subprocess.run([XXHSUM, "-H2", "--tag", a, b], capture_output=True, text=True).stdout
        rc, out, err = run("sum", "-c", "-", stdin=theirs.encode())
        check(rc == 0 and out.count(": OK") == 2, f"sum -c of xxhsum's XXH128 --tag lines: {out!r} {err!r}")

    # ---- --check of GNU lines: OK, FAILED, unreadable, malformed
    plain = os.path.join(tmp, "plain.list")
    with open(plain, "w") as f:
        f.write(run("sum", a, b)[1])
    rc, out, err = run("sum", "--check", plain)
    check(rc == 0 and out == f"{a}: OK\n{b}: OK\n", f"sum --check: {out!r}")
    rc, out, err = run("sum", "-c", "--quiet", plain)
    check(rc == 0 and out == "", "--quiet prints nothing when all is well")
    with open(b, "ab") as f:
        f.write(b"!")
    rc, out, err = run("sum", "-c", plain)
    check(rc == 1 and out == f"{a}: OK\n{b}: FAILED\n" and "1 computed checksum did NOT match" in err,
          f"a changed file: rc={rc} {out!r} {err!r}")
    rc, out, err = run("sum", "-c", "--quiet", plain)
    check(rc == 1 and out == f"{b}: FAILED\n", "--quiet still prints FAILED")
    rc, out, err = run("sum", "-c", "--status", plain)
    check(rc == 1 and out == "" and err == "", "--status: only the exit status")
    os.unlink(a)
    rc, out, err = run("sum", "-c", plain)
    check(rc == 1 and f"{a}: FAILED open or read" in out and "1 listed file could not be read" in err,
          f"a missing file: {out!r} {err!r}")
    for text, needle in (("garbage\n", "no checksum line"), ("0123  x\n", "4 hex digits where xxhash gives"),
                         ("NOPE (x) = 1234\n", "a tag that names no hash"), ("", "no checksum lines found")):
        bad = os.path.join(tmp, "bad.list")
        with open(bad, "w") as f:
            f.write(text)
        check_usage_error(["sum", "-c", bad], needle, f"malformed list {text!r}")
        check(f"{bad}:1:" in run("sum", "-c", bad)[2] or not text, f"the malformed line is named: {text!r}")
    check_usage_error(["sum", "-c", "/nonexistent.list"], "cannot open", "a missing list")
    check_usage_error(["sum", "-c", "--per-page", plain], "no --per-page", "--check with --per-page")
    check_usage_error(["sum", "--tag", "--per-page", plain], "--tag", "--tag with --per-page")
    # A page size without pages to cut was silently ignored.
    check_usage_error(["sum", "--page-size", "8K", plain], "--page-size need --per-page", "--page-size alone")
    check_usage_error(["sum", "--quiet", plain], "--check", "--quiet without --check")
    check_usage_error(["sum", "--ksm", plain], "--per-page", "--ksm without --per-page")
    check_usage_error(["sum", "-H", "xxhash,", plain], "one hash name", "sum -H with a list")
    check_usage_error(["sum", "-H", "all", plain], "one hash name", "sum -H all")
    check_usage_error(["sum", "--status", plain], "--check", "--status without --check")

    # ---- per-page lists of a dump: addresses checked, a changed page named
    segs = [(0x100000, g.page("c1") + g.page("c2")), (0x900000, g.page("c3"))]
    core = os.path.join(tmp, "core")
    with open(core, "wb") as f:
        f.write(g.elf(segs))
    pages = os.path.join(tmp, "pages.list")
    with open(pages, "w") as f:
        f.write(run("sum", "--per-page", core)[1])
    rc, out, err = run("sum", "-c", pages)
    check(rc == 0 and out == f"{core}: OK\n", f"per-page list of an ELF core: {out!r} {err!r}")
    data = bytearray(g.elf(segs))
    data[data.index(g.page("c2")) + 5] ^= 1
    with open(core, "wb") as f:
        f.write(data)
    rc, out, err = run("sum", "-c", pages)
    check(rc == 1 and out == f"{core}:1: FAILED\n{core}: FAILED\n", f"a changed page is named: {out!r}")
    with open(core, "wb") as f:
        f.write(g.elf(segs))
    lines = open(pages).read().splitlines()
    moved = [lines[0], lines[1].rsplit(" ", 1)[0] + " 0x200000", *lines[2:]]
    rc, out, err = run("sum", "-c", "-", stdin="\n".join(moved).encode() + b"\n")
    check(rc == 1 and f"{core}:1: FAILED" in out, f"a page at another address fails: {out!r}")
    rc, out, err = run("sum", "-c", "-", stdin="\n".join([lines[1], lines[0]]).encode() + b"\n")
    check(rc == 2 and "ascending order" in err, f"pages out of order: {err!r}")

    # ---- per-page lists of a gzip-compressed dump: the file is read to its
    # end, past the last listed page, so that a cut or damaged trailer fails
    # (the check said OK of a file whose last 4 bytes were missing).
    gzcore = os.path.join(tmp, "core.gz")
    gzdata = gzip.compress(g.elf(segs), compresslevel=1)
    with open(gzcore, "wb") as f:
        f.write(gzdata)
    gzpages = os.path.join(tmp, "gzpages.list")
    with open(gzpages, "w") as f:
        f.write(run("sum", "--per-page", gzcore)[1])
    rc, out, err = run("sum", "-c", gzpages)
    check(rc == 0 and out == f"{gzcore}: OK\n", f"per-page list of a gzip core: {out!r} {err!r}")
    first_only = os.path.join(tmp, "gzfirst.list")
    with open(first_only, "w") as f:
        f.write(open(gzpages).read().splitlines()[0] + "\n")
    bad_crc = bytearray(gzdata)
    bad_crc[-8] ^= 1
    for label, data, needle in (("cut by 4 bytes", gzdata[:-4], "truncated"),
                                ("cut by 1 byte", gzdata[:-1], "truncated"),
                                ("with a bad CRC", bytes(bad_crc), "gzip")):
        with open(gzcore, "wb") as f:
            f.write(data)
        for lst, which in ((gzpages, "every page"), (first_only, "the first page")):
            rc, out, err = run("sum", "-c", lst)
            check(rc == 1 and out == f"{gzcore}: FAILED open or read\n" and needle in err,
                  f"list of {which} of a gzip core {label}: rc={rc} {out!r} {err!r}")
        # before the next file's lines too, not only at the end of the list
        both = os.path.join(tmp, "both.list")
        with open(both, "w") as f:
            f.write(open(gzpages).read() + open(pages).read())
        rc, out, err = run("sum", "-c", both)
        check(rc == 1 and out == f"{gzcore}: FAILED open or read\n{core}: OK\n" and needle in err,
              f"list of a gzip core {label}, then another file: rc={rc} {out!r} {err!r}")
        # and before a whole-file line
        with open(both, "w") as f:
            f.write(open(gzpages).read() + run("sum", core)[1])
        rc, out, err = run("sum", "-c", both)
        check(rc == 1 and out == f"{gzcore}: FAILED open or read\n{core}: OK\n" and needle in err,
              f"list of a gzip core {label}, then a whole-file line: rc={rc} {out!r} {err!r}")

    # ---- --ksm: (u32)xxhash(page, PAGE_SIZE, 0), or the -H hash's low 32 bits
    raw = os.path.join(tmp, "pages.raw")
    content = [bytes(PS), g.page("k1"), g.page("k2")]
    with open(raw, "wb") as f:
        f.write(b"".join(content))
    for name in ("xxhash", "xxh64", "crc32c", "xxh128", "jhash2"):
        rc, out, err = run("sum", "--per-page", "--ksm", "-H", name, raw)
        got = [line.split()[1] for line in out.splitlines()]
        want = []
        for k, page in enumerate(content):
            one = os.path.join(tmp, f"one{k}")
            with open(one, "wb") as f:
                f.write(page)
            want.append(digest(name, one)[-8:])  # the low 32 bits: the last 8 hex digits
        check(rc == 0 and got == want, f"--ksm -H {name}: {got} != {want}")
    rc, out, err = run("sum", "--per-page", "--ksm", raw)
    check(out.splitlines()[0] == f"{raw}:0 {digest('xxhash', os.path.join(tmp, 'one0'))[-8:]}", "zero page's KSM digest")
    if XXHSUM:
        check(out.splitlines()[1].split()[1] == xxhsum(1 if XXHASH64 else 0, os.path.join(tmp, "one1"))[-8:],
              "--ksm agrees with xxhsum's XXH64 (XXH32 on 32-bit), truncated as KSM does")
    ksm_list = os.path.join(tmp, "ksm.list")
    with open(ksm_list, "w") as f:
        f.write(out)
    rc, out, err = run("sum", "-c", "--ksm", ksm_list)
    check(rc == 0 and out == f"{raw}: OK\n", f"sum -c --ksm of --ksm lines: {out!r} {err!r}")
    if XXHASH64:  # on 32-bit the KSM digest is the whole xxhash
        check_usage_error(["sum", "-c", ksm_list], "check with --ksm", "--ksm lines checked without --ksm")

    # ---- --check, line by line: what each kind of line may hold, and
    # what --status keeps quiet
    f1 = os.path.join(tmp, "f1")
    with open(f1, "wb") as f:
        f.write(blob[:3 * PS + 10])  # three pages, then 10 bytes
    hex1 = run("sum", f1)[1].split()[0]
    lst = os.path.join(tmp, "one.list")

    def check_text(text, *args):
        with open(lst, "w", newline="") as f:
            f.write(text)
        return run("sum", "-c", *args, lst)

    for text, what in ((f"{hex1} *{f1}\n", "a GNU binary-mode line ('HEX *FILE')"),
                       (f"{hex1}  {f1}\r\n", "a CRLF line")):
        rc, out, err = check_text(text)
        check(rc == 0 and out == f"{f1}: OK\n" and err == "", f"sum -c of {what}: {out!r} {err!r}")
    # --ksm is for page lines: a whole-file line keeps the whole hash.
    rc, out, err = check_text(f"{hex1}  {f1}\n", "--ksm")
    check(rc == 0 and out == f"{f1}: OK\n" and err == "", f"sum -c --ksm of a whole-file line: {out!r} {err!r}")
    odd = os.path.join(tmp, "x) = y")
    with open(odd, "wb") as f:
        f.write(b"odd")
    rc, out, err = check_text(run("sum", "--tag", "-H", "xxh64", odd)[1])
    check(rc == 0 and out == f"{odd}: OK\n", f"a tagged line of a file named 'x) = y': {out!r} {err!r}")
    # A hash without a tag of its own: its name, upper case, read back.
    with open(odd, "wb") as f:
        f.write(blob[:PS])
    tagged = run("sum", "--tag", "-H", "jhash2-lookup2", odd)[1]
    rc, out, err = check_text(tagged)
    check(tagged.startswith(f"JHASH2-LOOKUP2 ({odd}) = ") and rc == 0 and out == f"{odd}: OK\n",
          f"--tag -H jhash2-lookup2, and back: {tagged!r} {out!r} {err!r}")
    # A tag may name any entry, also one this build or CPU cannot run
    # (crc32c-armv8 on x86, crc32c-sse42 on arm64, the AVX-512 ones with
    # avx hidden): the digest is its function's, checked by one that runs.
    # Such a line called the entry: a NULL function (a segfault), or an
    # instruction the CPU lacks.
    crc_hex = "%08x" % crc32c(blob[:PS])
    names = [n for n in run("list", "--names")[1].split() if n.startswith("crc32c")]
    for hide in ({}, {"KSMBENCH_DISABLE": "avx,sse4.2,pclmulqdq"}):
        for n in names:
            with open(lst, "w", newline="") as f:
                f.write(f"{n.upper()} ({odd}) = {crc_hex}\n")
            rc, out, err = run("sum", "-c", lst, env=hide)
            check(rc == 0 and out == f"{odd}: OK\n" and err == "",
                  f"a tagged line naming {n} ({hide or 'every feature'}): rc={rc} {out!r} {err!r}")

    pages = run("sum", "--per-page", f1)[1].splitlines()
    check(len(pages) == 4 and pages[3] == f"{f1}:3 partial page of 10 bytes, not hashed",
          f"the partial page is named by its index: {pages}")
    rc, out, err = check_text("\n".join(pages) + "\n")
    check(rc == 0 and out == f"{f1}: OK\n", f"sum -c of its per-page lines: {out!r} {err!r}")
    # The summaries in the singular read back too: a file one byte past a
    # page, a dump of one page (sum -c refused both as no checksum line).
    one_byte, one_page = os.path.join(tmp, "one-byte"), os.path.join(tmp, "one-page.core")
    with open(one_byte, "wb") as f:
        f.write(blob[:PS + 1])
    with open(one_page, "wb") as f:
        f.write(g.elf([(0x100000, g.page("one"))]))
    for path, line in ((one_byte, f"{one_byte}:1 partial page of 1 byte, not hashed"),
                       (one_page, f"{one_page}: elf, 1 page hashed; not hashed:")):
        listed = run("sum", "--per-page", path)[1]
        rc, out, err = check_text(listed)
        check(line in listed and rc == 0 and out == f"{path}: OK\n",
              f"sum -c of a per-page list with '{line}': rc={rc} {listed!r} {out!r} {err!r}")
    rc, out, err = check_text(f"{pages[0]}\n{pages[0]}\n")
    check(rc == 2 and "not listed in ascending order" in err, f"a page listed twice: rc={rc} {err!r}")
    last = pages[2].split()[1]  # a page past the end, with the last page's checksum
    rc, out, err = check_text(f"{f1}:99 {last}\n")
    check(rc == 1 and out == f"{f1}:99: FAILED (no such page)\n{f1}: FAILED\n",
          f"a page the file does not have: {out!r}")
    # An index past 2^64 is a malformed line (strtoull took it as
    # 18446744073709551615 and reported that page as missing).
    with open(lst, "w") as f:
        f.write(f"{f1}:99999999999999999999 {last}\n")
    check_usage_error(["sum", "-c", lst], f"{lst}:1: a page index past 2^64", "a page index past 2^64")
    wrong = "0" * len(last)
    missing = os.path.join(tmp, "missing")
    for text, what in ((f"{f1}:1 {wrong}\n", "a changed page"), (f"{hex1}  {missing}\n", "a missing file"),
                       (f"{missing}:0 {wrong}\n", "the pages of a missing file")):
        rc, out, err = check_text(text, "--status")
        check(rc == 1 and out == "" and err == "", f"--status, {what}: rc={rc} {out!r} {err!r}")
    rc, out, err = check_text(f"{hex1}  {missing}\n")
    check(rc == 1 and out == f"{missing}: FAILED open or read\n" and "1 listed file could not be read" in err,
          f"a list of only a missing file: rc={rc} {out!r} {err!r}")
    for text in (f" ({f1}) = {hex1}\n", f"{f1}:0 {last} 0x1000zz\n", f"{f1}: {last}\n",
                 f"{f1}:3 partial page of 10 bytes, not hashed!\n", f"{hex1}  \n"):
        with open(lst, "w") as f:
            f.write(text)
        check_usage_error(["sum", "-c", lst], f"{lst}:1: no checksum line", f"malformed line {text!r}")
    good = os.path.join(tmp, "good.list")
    with open(good, "w") as f:
        f.write(f"{hex1}  {f1}\n")
    rc, out, err = run("sum", "-c", good, lst)
    check(rc == 2 and f"{lst}:1: no checksum line" in err, f"lines are counted in each list: {err!r}")
    # ---- names with a newline, a carriage return or a backslash: escaped as
    # GNU's sha256sum escapes them (a leading backslash, then \n, \r, \\),
    # so that a name cannot end its line early, and read back by --check
    # (a newline in a name split the line: the list could not be checked).
    odd_names = {"nl\nname": "nl\\nname", "cr\rname": "cr\\rname", "back\\slash": "back\\\\slash",
                 "plain \x1b[31m": "plain \x1b[31m"}
    odd_paths = []
    for raw_name in odd_names:
        path = os.path.join(tmp, raw_name)
        with open(path, "wb") as f:
            f.write(blob[:PS + 3])
        odd_paths.append(path)
    shown = [os.path.join(tmp, s) for s in odd_names.values()]
    lead = ["\\", "\\", "\\", ""]  # the line's mark: the name is escaped
    hexo = digest("xxh64", odd_paths[-1])  # the same bytes in each
    for args, want in (((), [f"{m}{hexo}  {s}" for m, s in zip(lead, shown)]),
                       (("--tag",), [f"{m}XXH64 ({s}) = {hexo}" for m, s in zip(lead, shown)])):
        rc, out, err = run("sum", "-H", "xxh64", *args, *odd_paths)
        check(rc == 0 and out.split("\n")[:-1] == want, f"sum {args} of odd names: {out!r} != {want!r}")
        rc, back, err = check_text(out, "-H", "xxh64")
        check(rc == 0 and back.split("\n")[:-1] == [f"{m}{s}: OK" for m, s in zip(lead, shown)],
              f"sum -c {args} of odd names: rc={rc} {back!r} {err!r}")
    rc, out, err = run("sum", "--per-page", odd_paths[0])
    esc = "\\" + shown[0]
    check(rc == 0 and out.split("\n")[:-1] == [f"{esc}:0 {out.split()[1]}", f"{esc}:1 partial page of 3 bytes, not hashed"],
          f"sum --per-page of a name with a newline: {out!r}")
    rc, back, err = check_text(f"{esc}:0 {'0' * len(out.split()[1])}\n")
    check(rc == 1 and back == f"{esc}:0: FAILED\n{esc}: FAILED\n", f"a failed page of a name with a newline: {back!r}")
    rc, out, err = check_text(f"\\{hexo}  {tmp}/a\\qb\n")
    check(rc == 2 and "a backslash in an escaped name" in err and len(err.splitlines()) == 1,
          f"an escaped name with an unknown escape: rc={rc} {err!r}")
    # A list line is bounded and holds no NUL byte: sum -c /dev/zero read
    # one endless line until memory ran out.
    for src, needle in (("/dev/zero", "a NUL byte"), (None, "a line longer than 64 KiB")):
        if src:
            rc, out, err = run("sum", "-c", src, timeout=20)
        else:
            rc, out, err = run("sum", "-c", "-", stdin=b"y" * (65 * 1024), timeout=20)
        check(rc == 2 and needle in err and len(err.splitlines()) == 1, f"sum -c of {src or 'a long line'}: rc={rc} {err!r}")
    rc, out, err = check_text(f"{hex1}  {f1}\0junk\n")
    check(rc == 2 and "a NUL byte" in err, f"a NUL byte in a list line: rc={rc} {out!r} {err!r}")

    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            p = subprocess.run([BIN, "sum", f1], stdout=full, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and "No space left on device" in p.stderr and len(p.stderr.splitlines()) == 1,
              f"sum > /dev/full: one error, exit 2: rc={p.returncode} {p.stderr!r}")
        # A check that fails (exit 1) and could not say so: exit 2 too.
        with open(lst, "w") as f:
            f.write(f"{'0' * len(hex1)}  {f1}\n")
        with open("/dev/full", "w") as full:
            p = subprocess.run([BIN, "sum", "-c", lst], stdout=full, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and "No space left on device" in p.stderr,
              f"sum -c of a changed file > /dev/full: exit 2: rc={p.returncode} {p.stderr!r}")
finally:
    shutil.rmtree(tmp)
finish("sum")
