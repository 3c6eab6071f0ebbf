"""Builds small memory dumps of every format ksmbench reads, from known page
contents, for the CLI tests and as fuzzing seeds.

A dump is described by segments: (address, bytes). Every writer returns the
file's bytes. Run as a script to write one seed file per format:
    python3 tests/dumpgen.py OUTDIR
"""
import ctypes
import gzip
import os
import struct
import sys
import zlib

PT_LOAD, PT_NOTE = 1, 4


def page(tag, size=4096):
    """A page whose bytes are different for every tag."""
    seed = zlib.crc32(repr(tag).encode())
    out = bytearray(size)
    x = seed or 1
    for i in range(0, size, 4):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        out[i:i + 4] = struct.pack("<I", x)
    return bytes(out)


def raw(segments):
    return b"".join(data for _, data in segments)


def elf(segments, cls=64, big=False, data_align=1, memsz_extra=None, pn_xnum=False,
        physical=True, extra_phdrs=(), notes=b"NOTE"):
    """An ELF core: a PT_NOTE, then one PT_LOAD per segment. memsz_extra maps
    segment index -> bytes of p_memsz beyond the data. extra_phdrs are raw
    (type, offset, vaddr, paddr, filesz, memsz) tuples appended as is."""
    e = ">" if big else "<"
    ehsize, phsize, shsize = (64, 56, 64) if cls == 64 else (52, 32, 40)
    memsz_extra = memsz_extra or {}
    nph = 1 + len(segments) + len(extra_phdrs)
    phoff = ehsize
    shoff = phoff + nph * phsize if pn_xnum else 0
    note_off = phoff + nph * phsize + (shsize if pn_xnum else 0)
    off = note_off + len(notes)
    phdrs, blobs = [], []
    phdrs.append((PT_NOTE, note_off, 0, 0, len(notes), len(notes)))
    for i, (addr, data) in enumerate(segments):
        pad = (-off) % data_align
        off += pad
        blobs.append(b"\0" * pad + data)
        v, p = (0, addr) if physical else (addr, 0)
        phdrs.append((PT_LOAD, off, v, p, len(data), len(data) + memsz_extra.get(i, 0)))
        off += len(data)
    phdrs.extend(extra_phdrs)
    ident = b"\x7fELF" + bytes([2 if cls == 64 else 1, 2 if big else 1, 1]) + b"\0" * 9
    phnum = 0xFFFF if pn_xnum else nph
    if cls == 64:
        hdr = ident + struct.pack(e + "HHIQQQIHHHHHH", 4, 62, 1, 0, phoff, shoff, 0, ehsize,
                                  phsize, phnum, shsize if pn_xnum else 0, 1 if pn_xnum else 0, 0)
    else:
        hdr = ident + struct.pack(e + "HHIIIIIHHHHHH", 4, 3, 1, 0, phoff, shoff, 0, ehsize,
                                  phsize, phnum, shsize if pn_xnum else 0, 1 if pn_xnum else 0, 0)
    out = bytearray(hdr)
    for (t, o, v, p, fs, ms) in phdrs:
        if cls == 64:
            out += struct.pack(e + "IIQQQQQQ", t, 4, o, v, p, fs, ms, 4096)
        else:
            out += struct.pack(e + "IIIIIIII", t, o, v, p, fs, ms, 4, 4096)
    if pn_xnum:
        if cls == 64:
            out += struct.pack(e + "IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, nph, 0, 0)
        else:
            out += struct.pack(e + "IIIIIIIIII", 0, 0, 0, 0, 0, 0, 0, nph, 0, 0)
    out += notes
    for b in blobs:
        out += b
    return bytes(out)


KB_NOTE_SYSTEM, KB_NOTE_PAGES = 0x4B420001, 0x4B420002
KB_THP, KB_THP_HEAD, KB_KSM, KB_VOLATILE, KB_EXCLUSIVE = (1 << 56), (1 << 57), (1 << 58), (1 << 59), (1 << 60)
KB_MERGEABLE = 1 << 61
KB_PAGES_MERGEABLE_KNOWN = 8  # the page note's flag: KB_MERGEABLE is meaningful


def elf_note(name, ntype, desc, big=False):
    e = ">" if big else "<"
    return (struct.pack(e + "III", len(name), len(desc), ntype) + name + b"\0" * ((-len(name)) % 4)
            + desc + b"\0" * ((-len(desc)) % 4))


def ksm_notes(words, release="6.18.0", settings=None, flags=7, page_size=4096, zero_page_mapped=0,
              interval_ns=0, big=False, version=1, hz=None, machine="x86_64"):
    """The KSMBENCH notes of a ksmbench capture (docs/dump-formats.md): the
    system text (with hz: the kernel's HZ, as captures since 2026-12-06
    record it; machine: uname's, None leaves it out) and a page word per
    page written (PFN | KB_* flags)."""
    e = ">" if big else "<"
    text = "ksmbench-system/1\nkernel_release=%s\n" % release
    if machine is not None:
        text += "machine=%s\n" % machine
    if hz is not None:
        text += "hz=%s\n" % hz
    for k, v in (settings or {}).items():
        text += "ksm.%s=%s\n" % (k, v)
    pages = struct.pack(e + "IIIIQQQ", version, flags, page_size, 0, len(words), zero_page_mapped, interval_ns)
    pages += b"".join(struct.pack(e + "Q", w) for w in words)
    return (elf_note(b"CORE\0", 1, b"\0" * 8, big) + elf_note(b"KSMBENCH\0", KB_NOTE_SYSTEM, text.encode(), big)
            + elf_note(b"KSMBENCH\0", KB_NOTE_PAGES, pages, big))


def lime(segments):
    out = bytearray()
    for addr, data in segments:
        out += struct.pack("<IIQQ8s", 0x4C694D45, 1, addr, addr + len(data) - 1, b"\0" * 8)
        out += data
    return bytes(out)


def lime_padded(segments):
    out = bytearray()
    for addr, data in segments:
        out += b"\0" * (addr - len(out))
        out += data
    return bytes(out)


def lime_ranges(segments):
    return ",".join(f"{a:#x}-{a + len(d) - 1:#x}" for a, d in segments)


KD_ZLIB, KD_LZO, KD_SNAPPY, KD_ZSTD = 1, 2, 4, 0x20


def _library(name):
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def _lzo(body):
    """LZO1X-1 as makedumpfile -l and QEMU kdump-lzo write a page (liblzo2)."""
    lib = _library("liblzo2.so.2")
    if not lib:
        return None
    out = ctypes.create_string_buffer(len(body) + len(body) // 16 + 67)
    out_len = ctypes.c_ulong(len(out))
    work = ctypes.create_string_buffer(1 << 18)  # LZO1X_1_MEM_COMPRESS is 128 KiB on 64-bit
    rc = lib.lzo1x_1_compress(body, ctypes.c_ulong(len(body)), out, ctypes.byref(out_len), work)
    return out.raw[:out_len.value] if rc == 0 else None


def _snappy(body):
    """snappy as makedumpfile -p and QEMU kdump-snappy write a page (libsnappy)."""
    lib = _library("libsnappy.so.1")
    if not lib:
        return None
    lib.snappy_max_compressed_length.restype = ctypes.c_size_t
    out = ctypes.create_string_buffer(lib.snappy_max_compressed_length(ctypes.c_size_t(len(body))))
    out_len = ctypes.c_size_t(len(out))
    rc = lib.snappy_compress(body, ctypes.c_size_t(len(body)), out, ctypes.byref(out_len))
    return out.raw[:out_len.value] if rc == 0 else None


def _zstd(body):
    """A zstd frame as makedumpfile -z writes a page (libzstd)."""
    lib = _library("libzstd.so.1")
    if not lib:
        return None
    lib.ZSTD_compressBound.restype = lib.ZSTD_compress.restype = ctypes.c_size_t
    lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
    out = ctypes.create_string_buffer(lib.ZSTD_compressBound(ctypes.c_size_t(len(body))))
    n = lib.ZSTD_compress(out, ctypes.c_size_t(len(out)), body, ctypes.c_size_t(len(body)), 1)
    return None if lib.ZSTD_isError(ctypes.c_size_t(n)) else out.raw[:n]


# kdump's page compressions: flag and compressor (None where this machine
# lacks the library that writes it).
KD_CODECS = {"zlib": (KD_ZLIB, zlib.compress), "lzo": (KD_LZO, _lzo), "snappy": (KD_SNAPPY, _snappy),
             "zstd": (KD_ZSTD, _zstd)}


def can_compress(name):
    """Whether kdump(compress=name) can write that compression here."""
    return KD_CODECS[name][1](b"\0" * 64) is not None


def kdump(pages, max_mapnr, block_size=4096, excluded=(), compress="zlib", bits=64, big=False,
          version=6, flat=False, flags_override=None):
    """A kdump-compressed file. pages: {pfn: bytes}; excluded: pfns in
    bitmap 1 only. Zero pages share one copy, as makedumpfile writes them.
    compress: a KD_CODECS name (a page that would not shrink is stored as
    it is) or "none". flags_override: {pfn: flags} to forge flags."""
    e = ">" if big else "<"
    bitmap_bytes = -(-max_mapnr // 8)
    bitmap_blocks = 2 * (-(-bitmap_bytes // block_size))
    sub_hdr_size = 1
    bm1, bm2 = bytearray(bitmap_blocks // 2 * block_size), bytearray(bitmap_blocks // 2 * block_size)
    for pfn in list(pages) + list(excluded):
        bm1[pfn // 8] |= 1 << (pfn % 8)
    for pfn in pages:
        bm2[pfn // 8] |= 1 << (pfn % 8)
    desc_off = (1 + sub_hdr_size + bitmap_blocks) * block_size
    ndesc = len(pages)
    data_off = desc_off + -(-(ndesc * 24) // block_size) * block_size
    zero = b"\0" * block_size
    descs, data = bytearray(), bytearray()
    # The shared zero page comes first, as in makedumpfile and QEMU.
    zero_entry = None
    if any(v == zero for v in pages.values()):
        zero_entry = (data_off, len(zero), 0)
        data += zero
    for pfn in sorted(pages):
        body = pages[pfn]
        if body == zero and zero_entry:
            off, size, flags = zero_entry
        else:
            flags, packer = KD_CODECS.get(compress, (0, None))
            packed = packer(body) if packer else None
            if packed is None or len(packed) >= block_size:
                packed, flags = body, 0  # stored as it is, as the writers do
            off, size = data_off + len(data), len(packed)
            data += packed
        if flags_override and pfn in flags_override:
            flags = flags_override[pfn]
        descs += struct.pack(e + "QIIQ", off, size, flags, 0)
    hdr = bytearray(b"KDUMP   " + struct.pack(e + "I", version) + b"linux".ljust(390, b"\0"))
    if bits == 64:
        hdr += b"\0" * (428 - len(hdr))
    else:
        hdr += b"\0" * (416 - len(hdr))
    hdr += struct.pack(e + "IIIIIIIII", block_size, sub_hdr_size, bitmap_blocks,
                       min(max_mapnr, 0xFFFFFFFF), 0, 0, 0, 0, 1)
    hdr = bytes(hdr).ljust(block_size, b"\0")
    if bits == 64:
        sub = struct.pack(e + "QIIQQQQQQQQQQQ", 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          max_mapnr, max_mapnr)
    else:
        sub = struct.pack(e + "IIIII" + "QIQIQI" + "QQQ", 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, max_mapnr, max_mapnr)
    sub = sub.ljust(block_size, b"\0")
    body = hdr + sub + bytes(bm1) + bytes(bm2)
    body += bytes(descs).ljust(data_off - desc_off, b"\0") + bytes(data)
    return flatten(body, block_size) if flat else body


def flatten(body, chunk):
    """The flattened layout: header block, then (offset, size) records. The
    pieces are emitted out of order (descriptors after data) like a writer
    with separate buffers."""
    out = bytearray(b"makedumpfile".ljust(16, b"\0") + struct.pack(">qq", 1, 1))
    out = out.ljust(4096, b"\0")
    pieces = [(o, body[o:o + chunk]) for o in range(0, len(body), chunk)]
    # headers first, then the second half before the first, to exercise rescans
    head, rest = pieces[:2], pieces[2:]
    half = len(rest) // 2
    for o, d in head + rest[half:] + rest[:half]:
        out += struct.pack(">qq", o, len(d)) + d
    out += struct.pack(">qq", -1, -1)
    return bytes(out)


def gz(data):
    return gzip.compress(data, compresslevel=1)


def sample_segments():
    """Three segments at unaligned places of the address space, one short."""
    return [(0x100000, page("a") + page("b")), (0x200000, page("c")),
            (0x7fff0000, page("d") + page("e") + page("f"))]


def write_seeds(outdir):
    os.makedirs(outdir, exist_ok=True)
    segs = sample_segments()
    small = [(a, d[:1024 * (len(d) // 4096)]) for a, d in segs]  # 1 KiB pages: small seeds
    seeds = {
        "raw": raw(small),
        "elf": elf(small, data_align=1, memsz_extra={1: 4096}),
        "elf32be": elf(small, cls=32, big=True),
        "elfxnum": elf(small, pn_xnum=True),
        "lime": lime(small),
        "lime-padded": lime_padded([(0x400, small[0][1]), (0x2000, small[1][1])]),
        "kdump": kdump({1: page("k1", 1024), 2: b"\0" * 1024, 5: page("k5", 1024)}, 64,
                       block_size=1024, excluded=(3,)),
        "kdump-flat": kdump({1: page("k1", 1024), 4: b"\0" * 1024}, 64, block_size=1024, flat=True),
    }
    seeds["gzip"] = gz(seeds["elf"])
    # a kdump of each page compression this machine can write (pages that shrink)
    for name in KD_CODECS:
        if can_compress(name):
            seeds["kdump-" + name] = kdump({1: b"\1" * 512 + page("c1", 512), 2: b"\2" * 1024}, 64,
                                           block_size=1024, compress=name)
    # a ksmbench capture: its notes, a word per 1 KiB page (THP run, volatile, KSM)
    words = [KB_THP | KB_THP_HEAD | 100, KB_THP | 101, KB_VOLATILE | 7, KB_KSM | 9, 0, 0]
    seeds["elf-ksmnotes"] = elf(small, physical=False, notes=ksm_notes(words, page_size=1024,
                                                                       settings={"max_page_sharing": 16}))
    # fuzz_lime_padded: the ranges on the first line, then the file
    seeds["lime-padded-ranges"] = b"0x400-0x7ff,0x2000-0x23ff\n" + seeds["lime-padded"]
    seeds["lime-raw-ranges"] = b"400-7ff,2000-23ff,1\n" + raw(small)
    # fuzz_ranges: range files, plain and /proc/iomem
    seeds["ranges-list"] = b"# ranges\n1000-1fff\n  0x3000 - 0x3fff\r\n"
    seeds["ranges-iomem"] = (b"00000000-00000fff : Reserved\n00001000-0009fbff : System RAM\n"
                             b"  00001000-00001fff : Kernel code\n100000000-17fffffff : System RAM\n")
    for name, data in seeds.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write_seeds(sys.argv[1] if len(sys.argv) > 1 else "build/fuzz-seeds")
