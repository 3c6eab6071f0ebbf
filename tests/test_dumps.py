"""CLI tests of the dump readers: every format built by dumpgen.py from known
pages, read with `sum --per-page`, each page's address and hash checked
against the known contents and against `sum` of the same bytes as a raw
file; then malformed files of each format."""
import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpgen as g  # noqa: E402
from clitest import check, check_bad_dump as bad_file, finish, run, temp_file  # noqa: E402

PS = 4096


def crc(data):
    return "%08x" % zlib.crc32(data)


def sum_pages(path, *extra, hash_name="crc32-zlib"):
    """(rc, [(addr, hex)], summary line, stderr) of sum --per-page."""
    rc, out, err = run("sum", "--per-page", "-H", hash_name, *extra, path)
    pages, summary = [], ""
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith(path + ":"):
            pages.append((int(parts[2], 16), parts[1]))
        else:
            summary = line
    return rc, pages, summary, err


def counts(summary):
    """The numbers of the summary line, by name."""
    out = {}
    words = summary.replace(",", " ").replace(";", " ").replace("(", " ").split()
    for i in range(1, len(words)):
        word = {"page": "pages", "hole": "holes"}.get(words[i], words[i])  # "1 page", "1 hole"
        if word in ("pages", "holes", "excluded", "partial", "overlapping") and words[i - 1].isdigit():
            out[word] = int(words[i - 1])
    return out


def expected(segments, ps=PS):
    return [(a + k * ps, crc(d[k * ps:(k + 1) * ps])) for a, d in segments for k in range(len(d) // ps)]


def check_format(label, data, segments, want_counts=None, extra=(), ps=PS):
    """Reads data as a dump; checks every page against segments, the
    counts, and the gzip-compressed file giving the same result."""
    path = temp_file(data)
    rc, pages, summary, err = sum_pages(path, *extra, *(("--page-size", str(ps)) if ps != PS else ()))
    want = expected(segments, ps)
    check(rc == 0, f"{label}: exit {rc} {err!r}")
    check(pages == want, f"{label}: pages {pages[:3]}... != {want[:3]}... ({len(pages)} vs {len(want)})")
    got = counts(summary)
    for k, v in (want_counts or {}).items():
        check(got.get(k) == v, f"{label}: {k} = {got.get(k)}, want {v} ({summary!r})")
    gzpath = temp_file(g.gz(data))
    rc2, pages2, summary2, err2 = sum_pages(gzpath, *extra, *(("--page-size", str(ps)) if ps != PS else ()))
    check(rc2 == 0 and pages2 == pages and counts(summary2) == got,
          f"{label} gzip: rc={rc2} {err2!r} {summary2!r}")
    # Cross-check with a second hash against sum of the same bytes as raw.
    rawpath = temp_file(b"".join(d[k * ps:(k + 1) * ps] for _, d in segments for k in range(len(d) // ps)))
    _, xd, _, _ = sum_pages(path, *extra, *(("--page-size", str(ps)) if ps != PS else ()), hash_name="xxh64")
    rc3, out3, _ = run("sum", "--per-page", "-H", "xxh64", "--page-size", str(ps), rawpath)
    rawhex = [line.split()[1] for line in out3.splitlines() if line.startswith(rawpath + ":")]
    check(rc3 == 0 and [h for _, h in xd] == rawhex, f"{label}: xxh64 differs from sum of the raw bytes")
    for p in (path, gzpath, rawpath):
        os.unlink(p)


segs = g.sample_segments()

# ---- ELF cores
check_format("elf64 le, data unaligned, memsz > filesz", g.elf(segs, memsz_extra={1: 2 * PS + 10}), segs,
             {"pages": 6, "holes": 3, "partial": 0})
check_format("elf64 be", g.elf(segs, big=True), segs, {"pages": 6})
check_format("elf32 le", g.elf(segs, cls=32), segs, {"pages": 6})
check_format("elf32 be", g.elf(segs, cls=32, big=True), segs, {"pages": 6})
check_format("elf PN_XNUM", g.elf(segs, pn_xnum=True), segs, {"pages": 6})
check_format("elf32 PN_XNUM", g.elf(segs, cls=32, pn_xnum=True), segs, {"pages": 6})
check_format("elf virtual addresses", g.elf(segs, physical=False), segs, {"pages": 6})
check_format("elf page-aligned data", g.elf(segs, data_align=4096), segs, {"pages": 6})
check_format("elf 1K pages", g.elf(segs), segs, {"pages": 24}, ps=1024)
partial_segs = [(0x1000, g.page("p") + g.page("q")[:100])]
check_format("elf partial page", g.elf(partial_segs), partial_segs, {"pages": 1, "partial": 1})

# Overlapping file ranges: a second PT_LOAD over the first segment's bytes.
nph = 1 + len(segs) + 1
off0 = 64 + nph * 56 + 4
# The first segment in file order yields shared bytes; the later one counts
# them as overlapping (one page here) or partial (a straddling page).
dup = [(1, off0 + PS, 0, 0x900000, PS, PS)]
data = g.elf(segs, extra_phdrs=dup)
check_format("elf overlapping segments", data, segs, {"pages": 6, "overlapping": 1, "partial": 0})
dup = [(1, off0 + 100, 0, 0x900000, 2 * PS, 2 * PS)]
data = g.elf(segs, extra_phdrs=dup)
# Its second page has 100 new bytes (partial), and then segment 1's only
# page has had its first 100 bytes yielded: partial too.
check_format("elf overlap straddling pages", data, [segs[0], segs[2]],
             {"pages": 5, "overlapping": 1, "partial": 2})
# zero-length and empty segments are skipped
data = g.elf(segs, extra_phdrs=[(1, 0, 0, 0x500000, 0, 0)])
check_format("elf zero-length segment", data, segs, {"pages": 6})

# ---- LiME
check_format("lime", g.lime(segs), segs, {"pages": 6, "holes": 0})
odd = [(0x1000, g.page("x") + b"\1" * 10), (0x9000, g.page("y"))]
check_format("lime partial range", g.lime(odd), odd, {"pages": 2, "partial": 1})
check_format("lime-raw", g.raw(segs), segs, {"pages": 6},
             extra=("--input-format", "lime-raw", "--lime-ranges", g.lime_ranges(segs)))
# raw ranges name where consecutive bytes lie: two at one address are two
# ranges' own bytes, both hashed, none overlapping (docs/dump-formats.md)
same = [(0x1000, g.page("s1")), (0x1000, g.page("s2"))]
check_format("lime-raw, two ranges at one address", g.raw(same), same, {"pages": 2, "overlapping": 0},
             extra=("--input-format", "lime-raw", "--lime-ranges", g.lime_ranges(same)))
low = [(0x3000, g.page("l1")), (0x8000, g.page("l2") + g.page("l3"))]
check_format("lime-padded", g.lime_padded(low), low, {"pages": 3, "holes": 3 + 4},
             extra=("--input-format", "lime-padded", "--lime-ranges", g.lime_ranges(low)))
# ranges off page boundaries: each gap is at least one hole (rounded up)
odd_low = [(0x400, g.page("u1")), (0x2000, g.page("u2"))]
check_format("lime-padded, ranges not page-aligned", g.lime_padded(odd_low), odd_low, {"pages": 2, "holes": 2},
             extra=("--input-format", "lime-padded", "--lime-ranges", "0x400-0x13ff,0x2000-0x2fff"))
iomem = temp_file(b"00000000-00000fff : Reserved\n00003000-00003fff : System RAM\n"
                  b"  00003000-00003fff : Kernel code\n00008000-00009fff : System RAM\n")
check_format("lime-padded ranges from an iomem file", g.lime_padded(low), low, {"pages": 3},
             extra=("--input-format", "lime-padded", "--lime-ranges", "@" + iomem))

# ---- kdump-compressed
zero = b"\0" * PS
kpages = {1: g.page("k1"), 2: zero, 3: g.page("k3"), 9: zero, 40: g.page("k40"), 41: b"\1" * PS}
ksegs = [(pfn * PS, kpages[pfn]) for pfn in sorted(kpages)]
for label, kw in [("kdump", {}), ("kdump be", {"big": True}), ("kdump 32-bit", {"bits": 32}),
                  ("kdump uncompressed pages", {"compress": "none"}), ("kdump header v5", {"version": 5}),
                  ("kdump flattened", {"flat": True})]:
    check_format(label, g.kdump(kpages, 100, excluded=(4, 5, 6), **kw), ksegs,
                 {"pages": 6, "excluded": 3})
check_format("flattened ELF (makedumpfile -F -E)", g.flatten(g.elf(segs), 4096), segs, {"pages": 6})
# A named format reads the flattened layer as detection does (--input-format
# elf refused a flattened ELF as "not an ELF file"); raw takes the bytes as
# they lie.
check_format("flattened ELF named elf", g.flatten(g.elf(segs), 4096), segs, {"pages": 6},
             extra=("--input-format", "elf"))
check_format("flattened LiME", g.flatten(g.lime(segs), 4096), segs, {"pages": 6})
check_format("flattened LiME named lime", g.flatten(g.lime(segs), 4096), segs, {"pages": 6},
             extra=("--input-format", "lime"))
check_format("flattened kdump named kdump", g.kdump(kpages, 100, excluded=(4, 5, 6), flat=True), ksegs,
             {"pages": 6, "excluded": 3}, extra=("--input-format", "kdump"))
flat_elf = g.flatten(g.elf(segs), 4096)
path = temp_file(flat_elf)
rc, out, err = run("sum", "--per-page", "--input-format", "raw", path)
hashed = [line for line in out.splitlines() if line.startswith(path + ":") and len(line.split()) == 2]
check(rc == 0 and len(hashed) == len(flat_elf) // PS,
      f"flattened ELF named raw: its bytes as they lie: rc={rc} {len(hashed)} pages {err!r}")
os.unlink(path)
check_format("kdump 1K pages", g.kdump(kpages, 100, excluded=(4,)), ksegs, {"pages": 24, "excluded": 4}, ps=1024)
bad_file("kdump page size not dividing", g.kdump(kpages, 100), "--page-size 4096", "--page-size", "8192")
# More than 4 MiB of pages: after the first 4 MiB, batches of zlib pages are
# inflated on two threads and delivered in order; a bad zlib page after
# that is reported by its pfn, once the pages before it are out. Its 6 MiB
# of page data span 24 of the reader's 256 KiB windows, pages straddling
# their ends: through gzip (check_format's gzip copies) each window's end was
# a step back, and past 16 gzip restarts the file could not be read. The
# flattened copy checks the pages only: from a file its layer reads at any
# offset, so a step back cost reads, not a failure (and a kdump cannot come
# from a pipe). Not under emulation: qemu-i386
# (Debian 12) hangs in any pthread_create.
if os.environ.get("KSMBENCH_TEST_EMULATED") == "1":
    print("skipped under emulation: a kdump large enough for the inflate thread")
else:
    bigk = {pfn: zero if pfn % 7 == 0 else bytes([pfn % 251]) * 2048 + g.page(("bigk", pfn))[:2048]
            for pfn in range(1, 3001)}
    bigkd = g.kdump(bigk, 3100, excluded=(3050,))
    check_format("kdump of 3000 pages, two inflate threads", bigkd, [(p * PS, bigk[p]) for p in sorted(bigk)],
                 {"pages": 3000, "excluded": 1})
    check_format("flattened kdump of 3000 pages", g.kdump(bigk, 3100, excluded=(3050,), flat=True),
                 [(p * PS, bigk[p]) for p in sorted(bigk)], {"pages": 3000, "excluded": 1})
    t = bytearray(bigkd)
    desc_at = (1 + 1 + 2 * (-(-(-(-3100 // 8)) // PS))) * PS + 24 * 1500  # pfn 1501's descriptor
    off = struct.unpack_from("<Q", t, desc_at)[0]
    t[off + 2:off + 10] = b"garbage!"
    path = temp_file(bytes(t))
    rc, pages, summary, err = sum_pages(path)
    check(rc == 2 and "pfn 0x5dd" in err and "zlib" in err and len(err.splitlines()) == 1
          and [a for a, _ in pages] == [p * PS for p in range(1, 1501)],
          f"kdump bad zlib page 1501 of 3000: rc={rc} {err!r}, {len(pages)} pages before it")
    os.unlink(path)
# lzo, snappy and zstd pages: read where this build has the library
# (--version's second line), else refused naming the package to install.
rc, out, _ = run("--version")
codec_line = out.splitlines()[1] if rc == 0 and len(out.splitlines()) > 1 else ""
check(codec_line.startswith("kdump pages: zlib "), f"--version names the kdump page compressions: {out!r}")
for flag, name in ((g.KD_LZO, "lzo"), (g.KD_SNAPPY, "snappy"), (g.KD_ZSTD, "zstd")):
    built = f" {name} " in codec_line and f" {name} (not built" not in codec_line
    if g.can_compress(name):
        data = g.kdump(kpages, 100, excluded=(4, 5, 6), compress=name)
        if built:
            check_format(f"kdump {name}", data, ksegs, {"pages": 6, "excluded": 3})
            check_format(f"kdump {name} flattened", g.kdump(kpages, 100, compress=name, flat=True), ksegs,
                         {"pages": 6})
            if name == "zstd" and os.environ.get("KSMBENCH_TEST_EMULATED") != "1":
                # each of the two threads with its own decoder state
                check_format("kdump of 3000 zstd pages, two threads", g.kdump(bigk, 3100, compress=name),
                             [(p * PS, bigk[p]) for p in sorted(bigk)], {"pages": 3000})
            # A page's data damaged: named by its pfn and compression, after the pages before it.
            t = bytearray(data)
            desc_at = (1 + 1 + 2) * PS + 24 * 5  # pfn 41's descriptor, the last (only it and zeros shrink)
            off, size, flags = struct.unpack_from("<QII", t, desc_at)
            check(flags == flag, f"kdump {name}: pfn 41 stored with flags {flags:#x}")
            t[off + size // 2:off + size] = b"\xff" * (size - size // 2)
            path = temp_file(bytes(t))
            rc, pages, summary, err = sum_pages(path)
            check(rc == 2 and "pfn 0x29" in err and f"{name} data" in err and len(err.splitlines()) == 1
                  and [a for a, _ in pages] == [a for a, _ in ksegs[:-1]],
                  f"kdump {name}, page 41 damaged: rc={rc} {err!r} {pages}")
            os.unlink(path)
        else:
            path = temp_file(data)
            rc, out, err = run("sum", "--per-page", path)
            check(rc == 2 and "built without" in err and name in err and len(err.splitlines()) == 1,
                  f"kdump {name} without its library: rc={rc} {err!r}")
            os.unlink(path)
    else:
        print(f"SKIP kdump {name}: this machine cannot write it (its library is missing)")
    # Stored bytes marked with the flag: not that compression's data.
    path = temp_file(g.kdump(kpages, 100, flags_override={3: flag}))
    rc, out, err = run("sum", "--per-page", path)
    check(rc == 2 and name in err and ("corrupt" if built else "built without") in err
          and len(err.splitlines()) == 1, f"kdump {name} flag on stored bytes: rc={rc} {err!r}")
    os.unlink(path)
# Two compressions on one page: no writer sets that.
path = temp_file(g.kdump(kpages, 100, flags_override={3: g.KD_LZO | g.KD_ZSTD}))
rc, out, err = run("sum", "--per-page", path)
check(rc == 2 and "unknown flags 0x22" in err and len(err.splitlines()) == 1, f"kdump lzo|zstd: rc={rc} {err!r}")
os.unlink(path)

# The 32-bit header's max_mapnr lies where the 64-bit one's block size does:
# a power of two there (from 512 up) read as a 64-bit header and was refused
# ("sub-header of 0 blocks"), or read as no pages. Every max_mapnr, in both
# layouts and byte orders, with pages at the first and last pfns.
mapnrs = [1 << n for n in range(9, 25)] + [100, 4097, 12345, 0x40001, 0xFFFFF, 3 << 20]
for mapnr in mapnrs:
    mpages = {1: g.page(("m", 1)), 2: g.page(("m", 2)), mapnr - 1: g.page(("m", 3))}
    want = [(pfn * PS, crc(mpages[pfn])) for pfn in sorted(mpages)]
    for bits in (32, 64):
        for big in (False, True):
            for version in ((6, 5) if mapnr in (0x1000, 0x40000, 100) else (6,)):
                label = f"kdump {bits}-bit{' be' if big else ''} v{version} max_mapnr {mapnr:#x}"
                data = g.kdump(mpages, mapnr, bits=bits, big=big, version=version)
                # gzip and flattened too, where a layout's misreading reads far
                layered = [("", data)]
                if mapnr in (0x1000, 0x40000, 1 << 24):
                    layered += [(" gzip", g.gz(data)),
                                (" flattened", g.kdump(mpages, mapnr, bits=bits, big=big, version=version,
                                                       flat=True))]
                for how, body in layered:
                    path = temp_file(body)
                    rc, pages, summary, err = sum_pages(path)
                    check(rc == 0 and pages == want, f"{label}{how}: rc={rc} {err!r} {pages[:1]}")
                    os.unlink(path)

# ---- detection, overrides, standard input
elf_bytes = g.elf(segs)
path = temp_file(elf_bytes)
rc, out, err = run("sum", "--per-page", "--input-format", "raw", path)
check(rc == 0 and len(out.splitlines()) == len(elf_bytes) // PS + 1, "--input-format raw reads an ELF as raw")
rc, out, err = run("sum", "--per-page", "-H", "crc32-zlib", "-", stdin=elf_bytes)
check(rc == 0 and [(int(l.split()[2], 16), l.split()[1]) for l in out.splitlines()[:-1]] == expected(segs),
      f"ELF on standard input: {err!r}")
rc, out, err = run("sum", "--per-page", "-", stdin=g.gz(elf_bytes))
check(rc == 0 and "elf, 6 pages" in out, f"gzip ELF on standard input: {err!r}")
rc, out, err = run("sum", "--per-page", "-", stdin=g.kdump(kpages, 100))
check(rc == 2 and "save it to a file" in err, f"kdump on standard input: {err!r}")
bad_file("unknown format", elf_bytes, "unknown input format", "--input-format", "vmdk")
bad_file("lime-padded without ranges", elf_bytes, "--lime-ranges", "--input-format", "lime-padded")
bad_file("bad ranges", elf_bytes, "bad range", "--input-format", "lime-raw", "--lime-ranges", "10-zz")
bad_file("reversed range", elf_bytes, "end is before", "--input-format", "lime-raw", "--lime-ranges", "0x2000-0x1000")
bad_file("padded ranges out of order", g.lime_padded(low), "ascending", "--input-format", "lime-padded",
         "--lime-ranges", "0x8000-0x8fff,0x3000-0x3fff")
bad_file("padded ranges sharing a byte", g.lime_padded(low), "ascending", "--input-format", "lime-padded",
         "--lime-ranges", "0x3000-0x3fff,0x3fff-0x4ffe")
# a LiME header for the whole address space (start 0, end 2^64-1) is corrupt,
# not a range of no bytes
whole = struct.pack("<IIQQ8s", 0x4C694D45, 1, 0, 2**64 - 1, b"\0" * 8) + g.page("w")
bad_file("LiME range of the whole address space", whole + g.lime(segs), "LiME range 0-0xffffffffffffffff")
# an uncompressed kdump page whose descriptor gives fewer bytes than a page
kd = bytearray(g.kdump({1: g.page("k1"), 3: g.page("k3")}, 100, compress="none"))
struct.pack_into("<I", kd, 4 * PS + 8, PS - 100)  # descriptor 0's size
bad_file("kdump uncompressed page short of a page", bytes(kd), f"has {PS - 100} bytes of data (the page size is {PS})")

# raw: a partial page at the end is counted, never hashed (nor anything
# past it), alone or after whole read-ahead chunks (those not under
# emulation: qemu-i386 hangs creating the read-ahead thread)
for whole_pages in (0,) if os.environ.get("KSMBENCH_TEST_EMULATED") == "1" else (0, 1280):
    tail_path = temp_file(os.urandom(whole_pages * PS + 100))
    rc, out, err = run("sum", "--per-page", "-H", "crc32-zlib", tail_path)
    lines = out.splitlines()
    check(rc == 0 and len(lines) == whole_pages + 1 and lines[-1] == f"{tail_path}:{whole_pages} partial page of "
          "100 bytes, not hashed" and all(len(x.split()) == 2 for x in lines[:-1]),
          f"raw of {whole_pages} pages + 100 bytes: {lines[-2:]} {err!r}")
    os.unlink(tail_path)
rc, out, err = run("sum", "--input-format", "elf", path)
check(rc == 2 and "--per-page" in err, "--input-format without --per-page")
os.unlink(path)

# ---- files over 4 GiB: an ELF whose segment data lies past 5 GiB (sparse)
big = temp_file(b"")
far = 5 << 30
hdr = bytearray(g.elf([(0x1000, b"")]))
struct.pack_into("<Q", hdr, 64 + 56 + 8, far + 7)       # p_offset of the PT_LOAD
struct.pack_into("<QQ", hdr, 64 + 56 + 32, 2 * PS, 2 * PS)  # p_filesz, p_memsz
with open(big, "r+b") as f:
    f.write(hdr)
    f.seek(far + 7)
    f.write(g.page("far1") + g.page("far2"))
rc, pages, summary, err = sum_pages(big)
check(rc == 0 and pages == expected([(0x1000, g.page("far1") + g.page("far2"))]), f"ELF data past 5 GiB: {err!r}")
os.unlink(big)

# ---- malformed ELF
e = bytearray(g.elf(segs))
bad_file("elf truncated header", bytes(e[:40]), "truncated")
bad_file("elf truncated data", bytes(e[:-100]), "truncated")
t = bytearray(e)
struct.pack_into("<Q", t, 32, 1 << 40)
bad_file("elf phoff past the end", bytes(t), "program header table")
t = bytearray(e)
struct.pack_into("<Q", t, 64 + 56 + 8, (1 << 64) - 10)
bad_file("elf offset overflow", bytes(t), "overflows")
t = bytearray(e)
struct.pack_into("<QQ", t, 64 + 56 + 32, 2 * PS, PS)
bad_file("elf filesz > memsz", bytes(t), "p_filesz")
t = bytearray(g.elf(segs, pn_xnum=True))
struct.pack_into("<I", t, 64 + 4 * 56 + 44, 0xFFFFFFFF)
bad_file("elf absurd PN_XNUM count", bytes(t), "program header")
t = bytearray(e)
struct.pack_into("<H", t, 54, 8)
bad_file("elf phentsize too small", bytes(t), "too small")
t = bytearray(e)
t[4] = 9
bad_file("elf bad class", bytes(t), "class")
t = bytearray(e)
struct.pack_into("<QQ", t, 64 + 56 + 32, 1 << 62, 1 << 62)
bad_file("elf huge segment", bytes(t), "past the end")
t = bytearray(e)
struct.pack_into("<QQ", t, 64 + 56 + 32, 0, (1 << 64) - segs[0][0])  # up to the top of the space
path = temp_file(bytes(t))
rc, pages, summary, err = sum_pages(path)
check(rc == 0 and counts(summary).get("holes", 0) > 1 << 40, f"elf huge memsz counted as holes: {summary!r} {err!r}")
os.unlink(path)

# ---- malformed LiME
lm = g.lime(segs)
bad_file("lime truncated header", lm[:len(segs[0][1]) + 32 + 10], "truncated")
bad_file("lime truncated data", lm[:-10], "past the end")
t = bytearray(lm)
struct.pack_into("<I", t, 4, 2)
bad_file("lime version", bytes(t), "version")
t = bytearray(lm)
struct.pack_into("<QQ", t, 8, 0x5000, 0x4000)
bad_file("lime end before start", bytes(t), "corrupt")
t = bytearray(lm)
struct.pack_into("<QQ", t, 8, 0, (1 << 64) - 1)
bad_file("lime whole space", bytes(t), "corrupt")
t = bytearray(lm)
t[len(segs[0][1]) + 32] = 0
bad_file("lime bad second magic", bytes(t), "no LiME header")

# ---- malformed kdump
kd = g.kdump(kpages, 100, excluded=(4,))
bad_file("kdump truncated header", kd[:300], "truncated")
bad_file("kdump truncated bitmaps", kd[:2 * PS + 100], "bitmaps")
bad_file("kdump truncated data", kd[:-100], "truncated")
t = bytearray(kd)
struct.pack_into("<I", t, 428, 1000)
bad_file("kdump bad block size", bytes(t), "block size")
t = bytearray(kd)
struct.pack_into("<Q", t, PS + 96, 1 << 40)
bad_file("kdump max_mapnr too big", bytes(t), "do not fit")
desc_off = (1 + 1 + 2) * PS
t = bytearray(kd)
struct.pack_into("<I", t, desc_off + 8, 3 * PS)
bad_file("kdump descriptor size > page", bytes(t), "bytes of data")
t = bytearray(kd)
struct.pack_into("<I", t, desc_off + 12, 0x40)
bad_file("kdump unknown flags", bytes(t), "unknown flags")
t = bytearray(kd)
off = struct.unpack_from("<Q", t, desc_off + 24 * 5)[0]  # pfn 41, compressible
t[off:off + 8] = b"garbage!"
bad_file("kdump bad zlib data", bytes(t), "zlib")
t = bytearray(kd)
struct.pack_into("<Q", t, desc_off, 1 << 50)
bad_file("kdump data offset past the end", bytes(t), "past the end")
fl = g.kdump(kpages, 100, flat=True)
t = bytearray(fl)
struct.pack_into(">q", t, 4096 + 8, -5)
bad_file("flattened negative size", bytes(t), "corrupt")
bad_file("flattened truncated", fl[:6000], "truncated")

# ---- malformed gzip
gzd = g.gz(g.elf(segs))
bad_file("gzip truncated", gzd[:len(gzd) // 2], "truncated")
t = bytearray(gzd)
for i in range(20, 60):
    t[i] ^= 0x5A
bad_file("gzip corrupt", bytes(t), "gzip")

# ---- gzip of several members, each member's end at every place around the
# end of the reader's 128 KiB input buffer (and of the next one): a member
# that ended with one byte left in the buffer was taken for the end of the
# data, and the members after it were silently lost.
GZ_IN = 128 * 1024


def gz_member(data, size=None):
    """One gzip member of data (stored blocks), its FNAME field padded so
    that the member is size bytes long."""
    c = zlib.compressobj(0, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    fixed = 10 + 1 + len(body) + 8
    name = b"n" * ((size or fixed + 1) - fixed)
    assert name and fixed + len(name) == (size or fixed + 1)
    return (b"\x1f\x8b\x08\x08\0\0\0\0\0\xff" + name + b"\0" + body +
            struct.pack("<II", zlib.crc32(data), len(data)))


def page_hashes(path):
    rc, out, err = run("sum", "--per-page", "-H", "xxh64", path)
    return rc, [line.split()[1] for line in out.splitlines() if line.startswith(path + ":")], err


def check_members(label, parts):
    """parts: [(data, member size or None)], concatenated as members; the
    pages must be those of the data concatenated, read as raw."""
    gzpath = temp_file(b"".join(gz_member(d, n) for d, n in parts))
    rawpath = temp_file(b"".join(d for d, _ in parts))
    rc, got, err = page_hashes(gzpath)
    _, want, _ = page_hashes(rawpath)
    check(rc == 0 and got == want, f"{label}: rc={rc} {len(got)} pages, want {len(want)} {err!r}")
    os.unlink(gzpath)
    os.unlink(rawpath)


d1 = b"".join(g.page(("m1", i)) for i in range(31))
d2 = g.page(("m2", 0)) + g.page(("m2", 1))
d3 = b"".join(g.page(("m3", i)) for i in range(32))
# Left in the buffer after the member: nothing, one byte of the next
# member's magic, its magic, and its header cut at each of its bytes.
for left in range(0, 24):
    check_members(f"gzip members, the first ending {left} bytes before the buffer's end",
                  [(d1, GZ_IN - left), (d2, None)])
    check_members(f"gzip members, the second ending {left} bytes before the second buffer's end",
                  [(d1, GZ_IN - 100), (d3, GZ_IN + 100 - left), (d2, None)])
# Trailing bytes that are no member still end the data, wherever they fall.
for left in (1, 2):
    m1 = gz_member(d1, GZ_IN - left)
    for tail in (b"\0" * left, b"\x1f"):
        path = temp_file(m1 + tail)
        rc, got, err = page_hashes(path)
        check(rc == 0 and len(got) == 31, f"gzip member then {tail!r} at the buffer's end: rc={rc} {err!r}")
        os.unlink(path)

# ---- empty and tiny files are raw with no pages
path = temp_file(b"")
rc, out, err = run("sum", "--per-page", path)
check(rc == 0 and out == "", "empty file: no pages")
os.unlink(path)
finish("dumps")
