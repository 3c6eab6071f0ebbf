"""Regression tests of the dump readers against crafted hostile inputs
(issue 13): each file is built here from tests/dumpgen.py, and each case
failed before its fix. Bad input must give exit 2 with one line on stderr
naming the problem; a quirk the documentation accepts must read as it says."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpgen as g  # noqa: E402
from clitest import check, finish, run, temp_file  # noqa: E402

PS = 4096


def bad_file(label, data, needle, *extra):
    """A malformed file: exit 2, one line on stderr naming the problem."""
    path = temp_file(data)
    rc, out, err = run("sum", "--per-page", *extra, path)
    lines = err.splitlines()
    check(rc == 2 and len(lines) == 1 and needle in lines[0], f"{label}: rc={rc} stderr={err!r}")
    os.unlink(path)
    return out


def sum_pages(data, *extra):
    """(rc, [(addr, hex)], last line, stderr) of sum --per-page over data."""
    path = temp_file(data)
    rc, out, err = run("sum", "--per-page", "-H", "crc32-zlib", *extra, path)
    os.unlink(path)
    pages = [(int(p[2], 16), p[1]) for p in (line.split() for line in out.splitlines()) if len(p) == 3]
    lines = out.splitlines()
    return rc, pages, lines[-1] if lines else "", err


# ---- kdump: max_mapnr = 8 * bitmap bytes + 7 passed the size check (integer
# division) and the pfns past the bitmap read stale bitmap bytes.
kpages = {0: g.page("k0"), 1: g.page("k1")}
kd = bytearray(g.kdump(kpages, 8 * PS))  # bitmaps of one block each: 32768 pfns
struct.pack_into("<Q", kd, PS + 96, 8 * PS + 7)
bad_file("kdump max_mapnr one byte past the bitmaps", bytes(kd), "do not fit")
struct.pack_into("<Q", kd, PS + 96, 8 * PS)
rc, pages, _, err = sum_pages(bytes(kd))
check(rc == 0 and [a for a, _ in pages] == [0, PS], f"kdump max_mapnr filling the bitmaps exactly: {pages} {err!r}")

finish("dumps-hostile")
