"""CLI tests for the fast hashes: every entry listed on every architecture,
the best-available aliases and their rule, and agreement of all crc32c and
xxh3 variants on inputs far longer than verify's sweep."""
import json

from clitest import run, check, temp_file, finish

CRC = ["crc32c-generic", "crc32c-sse42", "crc32c-3way", "crc32c-vpclmul", "crc32c-fused",
       "crc32c-armv8", "crc32c-isal", "crc32c-isal-3way", "crc32c-isal-by16"]
XXH3 = ["xxh3-avx512", "xxh3-avx2", "xxh3-sse2", "xxh3-neon", "xxh3-dispatch", "xxh3-lib"]
XXH128 = ["xxh128-avx512", "xxh128-avx2", "xxh128-sse2", "xxh128-neon", "xxh128-lib"]


def listing(env=None):
    rc, out, _ = run("list", "--format", "json", env=env)
    return rc, {e["name"]: e for e in json.loads(out)["hashes"]}


rc, entries = listing()
check(rc == 0, "list --format json")
for n in CRC + XXH3 + XXH128 + ["crc32c", "xxh3", "xxh128"]:
    check(n in entries, f"{n} is listed")
for n in CRC + XXH3 + XXH128:
    e = entries[n]
    check(e["family"] == n.split("-")[0] and e["alias_of"] is None, f"{n} family")
    # Unavailable entries say why: a missing feature, or code not built here.
    if not e["available"]:
        rc, out, _ = run("list")
        row = [line for line in out.splitlines() if line.split()[0] == n][0]
        check("no (needs " in row or "not built" in row, f"{n} says why it is unavailable")

# The aliases resolve to an available entry of their family, by the documented order.
ORDER = {"crc32c": ["crc32c-fused", "crc32c-vpclmul", "crc32c-3way", "crc32c-armv8", "crc32c-sse42",
                    "crc32c-generic"],
         "xxh3": ["xxh3-avx512", "xxh3-avx2", "xxh3-neon", "xxh3-sse2", "xxh3-lib"],
         "xxh128": ["xxh128-avx512", "xxh128-avx2", "xxh128-neon", "xxh128-sse2", "xxh128-lib"]}


def check_rule(ents, label):
    for alias, order in ORDER.items():
        want = next(n for n in order if ents[n]["available"])
        check(ents[alias]["alias_of"] == want and ents[alias]["available"], f"{alias} -> {want} ({label})")


check_rule(entries, "this CPU")
rc, out, _ = run("list")
row = [line for line in out.splitlines() if line.split()[0] == "crc32c"][0]
check(f"alias of {entries['crc32c']['alias_of']}" in row, "list table shows what crc32c resolved to")
# Older CPUs, emulated by masking features: the rule steps down.
for masked in ("avx512f", "avx512f,avx2,pclmulqdq", "avx512f,avx2,pclmulqdq,sse4.2,sse2"):
    rc, ents = listing({"KSMBENCH_DISABLE": masked})
    if rc == 0:
        check_rule(ents, f"without {masked}")

# Every available variant gives the same digest on long, odd-sized inputs
# (verify stops at 4200 bytes; these cross the 8 KiB chunks and table caps).
blob = bytes((i * 2654435761 >> 13) & 0xFF for i in range(300001))
big = temp_file(blob)
for family in (CRC, XXH3, XXH128):
    sums = {}
    for n in family:
        if entries[n]["available"]:
            rc, out, _ = run("sum", "-H", n, big)
            sums[n] = out.split()[0] if rc == 0 and out else None
    check(len(sums) >= 1 and len(set(sums.values())) == 1 and None not in sums.values(),
          f"{family[0].split('-')[0]} variants agree on 300001 bytes: {sums}")
# Per page, with page sizes around every threshold.
for page in ("64", "256", "512", "1024", "4K", "8K", "16K"):
    outs = set()
    for n in CRC:
        if entries[n]["available"]:
            outs.add(run("sum", "-H", n, "--per-page", "--page-size", page, big)[1])
    check(len(outs) == 1, f"crc32c variants agree per {page} page")
rc, out, _ = run("sum", "-H", "crc32c", "-", stdin=b"123456789")
check(out == "e3069283  -\n", "crc32c alias check value")

finish("fast")
