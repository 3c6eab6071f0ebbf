"""CLI tests of scan's kernel model on synthetic ksmbench captures (ELF
cores with KSMBENCH notes built by tests/dumpgen.py, so they run anywhere,
qemu included): volatile pages kept apart, THP zero subpages by kernel
release, stable node chains, pages that already share a PFN, general_profit,
sharing within and across dumps, the settings taken from the note, either
byte order; and malformed notes rejected with one error line."""
import csv
import io
import json
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpgen  # noqa: E402
from clitest import check, check_usage_error, finish, ksmd_period_ns, run, temp_file  # noqa: E402
from dumpgen import KB_MERGEABLE, KB_PAGES_MERGEABLE_KNOWN, KB_THP, KB_THP_HEAD, KB_VOLATILE, elf, ksm_notes, page  # noqa: E402

PS = 4096
Z = bytes(PS)


def capture(pages, words, big=False, **kw):
    """An ELF core of one segment holding pages, with their words."""
    return elf([(0x10000000, b"".join(pages))], big=big, physical=False, notes=ksm_notes(words, big=big, **kw))


# Dump A: a THP (t0, t1, six zero subpages), three volatile copies of "a",
# a fork-shared "c" (PFN 500, as in B), four zero pages, two of "a".
A_PAGES = [page("t0"), page("t1")] + [Z] * 6 + [page("a")] * 3 + [page("c")] + [Z] * 4 + [page("a")] * 2
A_WORDS = ([KB_THP | KB_THP_HEAD | 1000] + [KB_THP | (1001 + i) for i in range(7)] + [KB_VOLATILE | (1100 + i) for i in range(3)]
           + [500] + [2000 + i for i in range(4)] + [3000, 3001])
B_PAGES = [page("t0"), page("t1"), page("c"), page("a")]
B_WORDS = [4000, 4001, 500, 3002]


rc, out, err = run("list", "--format", "json")
build = {32: "xxh32", 64: "xxh64"}
build_bits = next((h["bits"] for h in json.loads(out)["hashes"] if h["name"] == "xxhash"), 64) if rc == 0 else 64


def xxhash_named(bits):
    """KSM's xxhash() in a kernel of bits: this build's alias where the two agree."""
    return "xxhash" if bits == build_bits else build[bits]


def scan_json(*args):
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", *args)
    check(rc == 0, f"scan {args[:-2]}: {err!r}")
    return json.loads(out) if rc == 0 else None


a = temp_file(capture(A_PAGES, A_WORDS, settings={"max_page_sharing": 256, "pages_to_scan": 1000,
                                                  "sleep_millisecs": 5}))
b = temp_file(capture(B_PAGES, B_WORDS))
doc = scan_json(a, b)
s, t = doc["settings"], doc["totals"]
check(s["kernel_release"] == "6.18.0" and s["kernel_rules_from"] == "capture" and s["thp_split_maps_zero_subpages"]
      and s["rmap_item_bytes"] == 64, f"rules of the capture's kernel: {s}")
check(s["pages_to_scan"] == 1000 and s["sleep_millisecs"] == 5 and s["max_page_sharing"] == 256,
      f"settings from the capture's note: {s}")
# A value no kernel shows in a capture's note (a max_page_sharing below 2,
# which the kernel refuses, junk, a negative or huge number, an HZ no
# CONFIG_HZ has) is one error naming the dump, the key and the option that
# replaces it, not a default modelled without a word (until 2026-12-07);
# given that option, the note's value is not read.
for key, bad, option, value in (("max_page_sharing", 0, "--max-page-sharing", "300"),
                                ("max_page_sharing", 1, "--max-page-sharing", "300"),
                                ("pages_to_scan", -5, "--pages-to-scan", "50"),
                                ("pages_to_scan", "abc", "--pages-to-scan", "50"),
                                ("pages_to_scan", 4294967296, "--pages-to-scan", "50"),
                                ("sleep_millisecs", "99999999999999999999", "--sleep-ms", "7"),
                                ("sleep_millisecs", "", "--sleep-ms", "7"),
                                ("smart_scan", 2, "--smart-scan", "0"),
                                ("hz", 5, "--hz", "100"),
                                ("use_zero_pages", "yes", None, None)):
    kw = {"hz": bad} if key == "hz" else {"settings": {key: bad}}
    odd = temp_file(capture(A_PAGES, A_WORDS, **kw))
    name = key if key == "hz" else "ksm." + key
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", odd)
    check(rc == 2 and err.count("\n") == 1 and f"{odd}: its capture note gives {name}={bad}, which no kernel shows" in err
          and (option is None or f"{option} N models another" in err), f"{name}={bad!r} in a note: {rc} {err!r}")
    if option:
        got = scan_json(option, value, odd)
        field = {"hz": "hz", "smart_scan": "smart_scan"}.get(key, key)
        check(got and str(got["settings"].get(field)).lower() in (value, {"0": "false"}.get(value, value)),
              f"{option} {value} replaces {name}={bad!r}: {got and got['settings']}")
    os.unlink(odd)
check(t["pages_volatile"] == 3 and t["pages"] == len(A_PAGES) + len(B_PAGES), f"totals: {t}")
check(t["within_dump_duplicates"] == 10 and t["across_dump_duplicates"] == 4
      and [d["across_dump_duplicates"] for d in doc["dumps"]] == [0, 4], f"within and across dumps: {t}")
k0, k1 = doc["ksm"]["use_zero_pages_0"], doc["ksm"]["use_zero_pages_1"]
check((k0["pages_shared"], k0["pages_sharing"], k0["pages_unshared"], k0["pages_volatile"], k0["thp_zero_subpages"])
      == (5, 8, 0, 3, 6), f"6.18, use_zero_pages 0: the THP's zero subpages leave, volatile apart: {k0}")
check(k0["rmap_items"] == 16 and k0["general_profit"] == 8 * PS - 16 * 64, f"general_profit: {k0}")
check(k0["pages_already_shared"] == 1 and k0["pages_really_saved"] == 7 and k0["bytes_really_saved"] == 7 * PS,
      f"the fork-shared pair saves nothing: {k0}")
check((k1["pages_shared"], k1["pages_sharing"], k1["ksm_zero_pages"]) == (4, 5, 4), f"use_zero_pages 1: {k1}")
# CSV: the same model's counters on every hash's row, JSON's values.
rc, out, err = run("scan", "--format", "csv", "--sample-pages", "0", a, b)
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
want = {"within_dump_duplicates": t["within_dump_duplicates"], "across_dump_duplicates": t["across_dump_duplicates"],
        "pages_volatile": t["pages_volatile"], "zero_page_mapped": t["zero_page_mapped"]}
for suffix, k in (("", k0), ("_zp", k1)):
    for key in ("stable_node_chains", "stable_node_dups", "general_profit", "bytes_really_saved"):
        want[key + suffix] = k[key]
check(rc == 0 and len(rows) == 1 and all(rows[0].get(key) == str(v) for key, v in want.items()),
      f"csv has the model's counters: {[(key, rows[0].get(key), v) for key, v in want.items()] if rows else err}")

# A volatile subpage leaves its THP whole: the merged head splits it, and
# its zero subpage leaves KSM's view as it does with no volatile page.
thp = [KB_THP | KB_THP_HEAD | 1000] + [KB_THP | (1001 + i) for i in range(7)] + [5000]
thp_pages = [page("t0"), page("v"), Z] + [page("u%d" % i) for i in range(5)] + [page("t0")]
for vol in (False, True):
    words = [w | (KB_VOLATILE if vol and i == 1 else 0) for i, w in enumerate(thp)]
    k = scan_json(temp_file(capture(thp_pages, words)))["ksm"]["use_zero_pages_0"]
    check((k["thp_zero_subpages"], k["pages_unshared"], k["pages_volatile"], k["pages_shared"])
          == (1, 5 + (not vol), int(vol), 1), f"a THP with{'' if vol else 'out'} a volatile subpage: {k}")

doc = scan_json("--kernel-release", "6.6.30", a, b)
k0 = doc["ksm"]["use_zero_pages_0"]
check(doc["settings"]["kernel_rules_from"] == "option" and not doc["settings"]["thp_split_maps_zero_subpages"]
      and (k0["pages_shared"], k0["pages_sharing"], k0["thp_zero_subpages"]) == (5, 14, 0),
      f"6.6: KSM merges the THP's zero subpages: {k0}")
# The remap of a split THP's zero subpages came in 6.12: 6.11 merges them.
for release, remaps in (("6.11.11", False), ("6.12", True)):
    doc = scan_json("--kernel-release", release, a, b)
    k0 = doc["ksm"]["use_zero_pages_0"]
    check(doc["settings"]["thp_split_maps_zero_subpages"] == remaps
          and (k0["pages_sharing"], k0["thp_zero_subpages"]) == ((8, 6) if remaps else (14, 0)),
          f"{release}: the THP's zero subpages {'leave' if remaps else 'merge'}: {k0}")
# A head page starts its own THP even where its PFN follows the last THP's:
# the first THP splits (its head is merged), the second's zero subpage stays.
two = [KB_THP | KB_THP_HEAD | 1000] + [KB_THP | (1001 + i) for i in range(7)]
two += [KB_THP | KB_THP_HEAD | 1008] + [KB_THP | (1009 + i) for i in range(7)] + [5000]
two_pages = [page("t0")] + [page("u%d" % i) for i in range(7)] + [Z] + [page("w%d" % i) for i in range(7)] + [page("t0")]
k = scan_json(temp_file(capture(two_pages, two)))["ksm"]["use_zero_pages_0"]
check((k["thp_zero_subpages"], k["pages_shared"], k["pages_sharing"], k["pages_unshared"]) == (0, 1, 1, 15),
      f"two THPs with PFNs end to end are two: {k}")
# Four fork-shared mappings of one page (one PFN) in chains of two save two
# pages, both already shared: none really saved (not 2 - 3, wrapped).
k = scan_json("--max-page-sharing", "2", temp_file(capture([page("f")] * 4, [700] * 4)))["ksm"]["use_zero_pages_0"]
check((k["pages_saved"], k["pages_already_shared"], k["pages_really_saved"], k["bytes_really_saved"]) == (2, 2, 0, 0),
      f"already shared, at most what is saved: {k}")
# PFN 0 is unknown (a capture without CAP_SYS_ADMIN): never already shared.
k = scan_json(temp_file(capture([page("f")] * 4, [0] * 4)))["ksm"]["use_zero_pages_0"]
check((k["pages_saved"], k["pages_already_shared"], k["pages_really_saved"]) == (3, 0, 3),
      f"copies of unknown PFN are not already shared: {k}")
# A forked pair sharing a THP (the same PFNs in both captures): on 6.12+
# KSM splits it to merge its head and its zero subpages leave KSM's view,
# counted nowhere, so they are not merged mappings that were already shared
# either (until 2026-12-08 each pair of them was: 3 + 1 already shared,
# clamped to the 2 saved, and nothing really saved). Only the head's pair
# was already one page; "x", at two PFNs, really saves one.
fork_thp = [KB_THP | KB_THP_HEAD | 2048] + [KB_THP | (2049 + i) for i in range(3)]
fork_pages = [page("fh"), Z, Z, Z, page("x")]
fa = temp_file(capture(fork_pages, fork_thp + [7000]))
fb = temp_file(capture(fork_pages, fork_thp + [7001]))
for uzp in (0, 1):
    k = scan_json(fa, fb)["ksm"]["use_zero_pages_%d" % uzp]
    check((k["thp_zero_subpages"], k["pages_saved"], k["pages_already_shared"], k["pages_really_saved"])
          == (6, 2, 1, 1), f"a fork-shared THP's zero subpages leave, not already shared (use_zero_pages {uzp}): {k}")
# Before 6.12 they merge, and each fork-shared pair of them was one page already.
k = scan_json("--kernel-release", "6.11", fa, fb)["ksm"]["use_zero_pages_0"]
check((k["thp_zero_subpages"], k["pages_saved"], k["pages_already_shared"], k["pages_really_saved"])
      == (0, 7, 4, 3), f"6.11: a fork-shared THP's zero subpages merge, already shared: {k}")
doc = scan_json("--kernel-release", "6.6", "--max-page-sharing", "2", a, b)
k0 = doc["ksm"]["use_zero_pages_0"]
check(doc["settings"]["max_page_sharing"] == 2 and k0["stable_node_chains"] == 1 and k0["stable_node_dups"] == 5
      and k0["pages_unshared"] == 1, f"max_page_sharing 2: ten zero pages are a chain of five dups: {k0}")
doc = scan_json("--kernel-release", "4.9", "--max-page-sharing", "0", a, b)
check(doc["ksm"]["use_zero_pages_0"]["stable_node_chains"] is None and not doc["settings"]["max_page_sharing_applies"]
      and not doc["settings"]["use_zero_pages_applies"] and doc["settings"]["max_page_sharing"] == 0
      and doc["ksm"]["use_zero_pages_0"]["pages_sharing"] == 14,
      "before 4.13 there is no max_page_sharing (nor its counters), before 4.11 no use_zero_pages")
# A limit asked of a release without one is an error, as --smart-scan 1 on
# 6.6 is; without the option a 4.9 capture's model has none (0, not the
# default 256, in JSON and CSV).
rc, out, err = run("scan", "--sample-pages", "0", "--kernel-release", "4.9", "--max-page-sharing", "2", a)
check(rc == 2 and out == "" and err.strip() == "ksmbench scan: --max-page-sharing 2: kernel 4.9 has no "
      "max_page_sharing (it came in 4.13)", f"--max-page-sharing 2 on 4.9: {rc} {err!r}")
rc, out, err = run("scan", "--format", "csv", "--sample-pages", "0", "--kernel-release", "4.9", a)
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(rc == 0 and rows and rows[0]["max_page_sharing"] == "0", f"csv of 4.9: max_page_sharing 0 (no limit): {rows}")
check(all(doc["ksm"][f"use_zero_pages_{zp}"][name] is None for zp in (0, 1)
          for name in ("stable_node_chains", "stable_node_dups")),
      f"4.9: stable_node_chains and stable_node_dups are both null: {doc['ksm']}")
# The counters that came after KSM are null in releases before them:
# general_profit 6.4, ksm_zero_pages 6.6 (and general_profit counts them
# from then on); the table says so under the counters.
for release, zero_counted, has_profit in (("6.1", False, False), ("6.5.9", False, True), ("6.6", True, True)):
    rdoc = scan_json("--kernel-release", release, a, b)
    for zp in (0, 1):
        k = rdoc["ksm"][f"use_zero_pages_{zp}"]
        profit = (k["pages_sharing"] + (k["ksm_zero_pages"] or 0)) * PS - k["rmap_items"] * 64 if has_profit else None
        check(k["general_profit"] == profit and (k["ksm_zero_pages"] is not None) == zero_counted
              and k["stable_node_chains"] is not None and k["pages_saved"] == k["pages_sharing"] + 10 * zp,
              f"{release}, use_zero_pages {zp}: general_profit {profit}, ksm_zero_pages counted {zero_counted}: {k}")
    check(rdoc["settings"]["use_zero_pages_applies"], f"{release} has use_zero_pages")
k1 = scan_json("--kernel-release", "6.5", a, b)["ksm"]["use_zero_pages_1"]
check(k1["general_profit"] == k1["pages_sharing"] * PS - k1["rmap_items"] * 64 and k1["pages_saved"] > k1["pages_sharing"],
      f"6.5: general_profit leaves out the pages merged with the zero page: {k1}")
notes = {"6.1": "-: kernel 6.1 has no such counter (ksm_zero_pages from 6.6, general_profit from 6.4)",
         "6.5": "-: kernel 6.5 has no such counter (ksm_zero_pages from 6.6); its general_profit counts pages_sharing "
                "alone, as 6.4 and 6.5 did",
         "4.9": "-: kernel 4.9 has no such counter (ksm_zero_pages from 6.6, stable_node_chains from 4.13, "
                "stable_node_dups from 4.13, general_profit from 6.4); use_zero_pages came in 4.11: only its =0 "
                "column applies",
         "6.6": None}
for release, note in notes.items():
    rc, out, err = run("scan", "--sample-pages", "0", "--kernel-release", release, a)
    lines = out.splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.split() and line.split()[0] in
            ("ksm_zero_pages", "general_profit")}
    text = " ".join(out.split())
    check(rc == 0 and (note in text if note else "-: kernel" not in text)
          and (rows["ksm_zero_pages"] == ["-", "-"]) == (release != "6.6")
          and (rows["general_profit"] == ["-", "-"]) == (release in ("6.1", "4.9")),
          f"{release}: the table's dashes and the note under it: {out!r}")
rc, out, err = run("scan", "--format", "csv", "--sample-pages", "0", "--kernel-release", "6.1", a, b)
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(rc == 0 and rows and rows[0]["general_profit"] == "" and rows[0]["ksm_zero_pages_zp"] == ""
      and rows[0]["stable_node_chains"] != "", f"csv of 6.1: the missing counters are empty: {rows}")
# 4.11 and 4.12 have use_zero_pages but not yet max_page_sharing: both
# columns apply, and the line under the table does not say otherwise.
s412 = scan_json("--kernel-release", "4.12", a)["settings"]
check(s412["use_zero_pages_applies"] and not s412["max_page_sharing_applies"],
      f"4.12: use_zero_pages applies, max_page_sharing not: {s412}")
rc, out, err = run("scan", "--sample-pages", "0", "--kernel-release", "4.12", a)
text = " ".join(out.split())
check(rc == 0 and "-: kernel 4.12 has no such counter (ksm_zero_pages from 6.6, stable_node_chains from 4.13, "
      "stable_node_dups from 4.13, general_profit from 6.4)" in text and "use_zero_pages came in" not in text,
      f"4.12: the note without use_zero_pages' line: {out!r}")
# smart_scan (6.7+, on by default) in the cost once merged: the unshared
# and volatile pages are checksummed one full scan in 9, the merged ones
# visited without a checksum; from the capture's setting, --smart-scan, or
# off before 6.7 (where --smart-scan 1 is an error).
FAST = ["--sample-pages", "16", "--working-set", "1M", "--repeat", "1", "--window", "1ms"]
# ksmd's period at sleep_millisecs 20 and HZ 250 (no HZ in these captures:
# the kernel's default): 5 jiffies due, fired a tick late; a batch's
# checksums here take microseconds, within the jiffy, so nothing is added.
uniq = [page("u%d" % i) for i in range(60)]
mixed = temp_file(capture(uniq + [page("d")] * 40, [KB_VOLATILE | i for i in range(10)] + list(range(10, 100)),
                          settings={"smart_scan": 0}))
def share(ns_per_page, hz=250):
    """ksmd's checksum share of a CPU at pages_to_scan 100 and sleep 20 ms:
    a batch's work over its period, which that work lengthens."""
    return 100 * ns_per_page / ksmd_period_ns(20, hz, 100 * ns_per_page)


def batches(visited):
    """A full scan's batches at pages_to_scan 100."""
    return math.floor(visited / 100) + 1


for extra, smart, label in (([], False, "the capture's smart_scan=0"), (["--smart-scan", "1"], True, "--smart-scan 1"),
                            (["--kernel-release", "6.6"], False, "6.6 has none")):
    rc, out, err = run("scan", "--format", "json", *FAST, *extra, mixed)
    d = json.loads(out) if rc == 0 else {}
    h, k = (d["hashes"][0], d["ksm"]["use_zero_pages_0"]) if rc == 0 else ({}, {})
    checked = (k.get("pages_unshared", 0) + k.get("pages_volatile", 0)) / (9 if smart else 1)
    visited = k.get("pages_shared", 0) + k.get("pages_sharing", 0) + checked
    check(rc == 0 and d["settings"]["smart_scan"] == smart and (k["pages_unshared"], k["pages_volatile"]) == (50, 10)
          and abs(k["steady_scan_checksummed_pages"] - checked) < 1e-9 and abs(k["steady_scan_visited_pages"] - visited) < 1e-9
          and (abs(k["steady_scan_skipped_pages"] - (60 - checked)) < 1e-9 if d["settings"]["smart_scan_applies"]
               else k["steady_scan_skipped_pages"] is None)
          and abs(h["steady_full_scan_seconds"] - batches(visited) * ksmd_period_ns(
              20, 250, checked * h["ns_per_page_median"] / batches(visited)) / 1e9) < 1e-9
          and abs(h["steady_scan_checksum_ms"] / h["full_scan_checksum_ms"] - checked / 100) < 0.01
          and abs(h["ksmd_steady_checksum_cpu_share"] - share(checked / visited * h["ns_per_page_median"])) < 1e-12,
          f"{label}: steady cost of {checked:.1f} pages checksummed of {visited:.1f} visited: {err!r} {h} {k}")
rc, out, err = run("scan", "--sample-pages", "0", "--smart-scan", "1", "--kernel-release", "6.6", mixed)
check(rc != 0 and out == "" and err.strip() == "ksmbench scan: --smart-scan 1: kernel 6.6 has no smart_scan (it came "
      "in 6.7)", f"--smart-scan 1 on 6.6: {rc} {err!r}")
# Said before any dump is read: a missing one is not reached.
for opt, release, said in (("--smart-scan 1", "6.6", "--smart-scan 1: kernel 6.6 has no smart_scan"),
                           ("--max-page-sharing 16", "4.12", "--max-page-sharing 16: kernel 4.12 has no max_page_sharing")):
    rc, out, err = run("scan", "--sample-pages", "0", *opt.split(), "--kernel-release", release, "/nonexistent.raw")
    check(rc == 2 and said in err and len(err.splitlines()) == 1, f"{opt} on {release}, before the dumps: {rc} {err!r}")
check_usage_error(["scan", "--smart-scan", "2", mixed], "--smart-scan", "--smart-scan 2")
for extra, want in (([], "smart_scan 0"), (["--smart-scan", "1"], "smart_scan 1"),
                    (["--kernel-release", "6.6"], "no smart_scan (before 6.7)")):
    rc, out, err = run("scan", "--sample-pages", "0", *extra, mixed)
    check(rc == 0 and want in " ".join(out.split()[:40]), f"the header says {want}: {out[:300]!r}")
rc, out, err = run("scan", "--sample-pages", "0", a)
check(rc == 0 and "sleep_millisecs 5 (slept 12 ms at HZ 250, the kernel's default), smart_scan 1"
      in " ".join(out.split()[:40]),
      f"a 6.18 capture without the setting: on by default: {out[:300]!r}")
# Which setting is modelled: --smart-scan 0 over the default, off where the
# release lacks it whatever the capture's default, and no other option
# standing for --smart-scan; smart_scan_applies is the release's, the CSV's
# smart_scan column the setting modelled.
for extra, smart, applies, label in ((["--smart-scan", "0"], False, True, "--smart-scan 0 over the default"),
                                     (["--smart-scan", "0", "--kernel-release", "6.6"], False, False,
                                      "--smart-scan 0 on 6.6"),
                                     (["--kernel-release", "6.6"], False, False, "a 6.18 capture by 6.6's rules"),
                                     (["--max-page-sharing", "2"], True, True, "--max-page-sharing given"),
                                     ([], True, True, "the default")):
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", *extra, a)
    d = json.loads(out) if rc == 0 else {}
    k = d["ksm"]["use_zero_pages_0"] if rc == 0 else {}
    unmerged = k.get("pages_unshared", 0) + k.get("pages_volatile", 0)
    check(rc == 0 and unmerged and d["settings"]["smart_scan"] == smart and d["settings"]["smart_scan_applies"] == applies
          and abs(k["steady_scan_checksummed_pages"] - unmerged / (9 if smart else 1)) < 1e-9,
          f"{label}: smart_scan {smart}, smart_scan_applies {applies}: {err!r} {d.get('settings')} {k}")
    rc, out, err = run("scan", "--format", "csv", "--sample-pages", "0", *extra, a)
    rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
    check(rc == 0 and rows and rows[0]["smart_scan"] == str(smart).lower(),
          f"{label}: the csv's smart_scan {smart}: {err!r} {rows[:1]}")
rc, out, err = run("scan", "--format", "csv", "--sample-pages", "0", mixed)
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(rc == 0 and rows and rows[0]["smart_scan"] == "false", f"the csv's smart_scan is the capture's 0: {rows[:1]}")
# The legend under the cost says whether smart_scan is in it.
for extra, want in (([], "every page (once merged) collisions:"),
                    (["--smart-scan", "1"], "every page (once merged, smart_scan visiting what is not merged one "
                                            "scan in 9) collisions:")):
    rc, out, err = run("scan", *FAST, *extra, mixed)
    check(rc == 0 and want in " ".join(out.split()), f"the legend {extra}: {want!r} in {out[-500:]!r}")
# The steady cost follows the use_zero_pages=0 model, where the zero pages
# are merged mappings, visited every scan (with use_zero_pages=1 they would
# be ksm_zero_pages, not visited at all).
zeros = temp_file(capture(uniq[:20] + [Z] * 30, list(range(50))))
rc, out, err = run("scan", "--format", "json", *FAST, zeros)
d = json.loads(out) if rc == 0 else {}
k0, k1 = (d["ksm"]["use_zero_pages_0"], d["ksm"]["use_zero_pages_1"]) if rc == 0 else ({}, {})
h = d["hashes"][0] if rc == 0 else {}
f = k0.get("steady_scan_checksummed_pages", 0) / max(k0.get("steady_scan_visited_pages", 0), 1)
check(rc == 0 and d["settings"]["smart_scan"] and (k0["pages_shared"], k0["pages_sharing"], k1["ksm_zero_pages"]) == (1, 29, 30)
      and abs(k0["steady_scan_visited_pages"] - (30 + 20 / 9)) < 1e-9 and abs(k1["steady_scan_visited_pages"] - 20 / 9) < 1e-9
      and abs(h["ksmd_steady_checksum_cpu_share"] - share(f * h["ns_per_page_median"])) < 1e-12,
      f"the steady ksmd share of use_zero_pages=0 (zero pages visited): {err!r} {h} {k0} {k1}")
check(d["settings"]["cost_use_zero_pages"] == 0, f"a capture without the setting: the cost of =0: {d['settings']}")
# A full scan of exactly pages_to_scan pages sleeps twice: the call that
# finds the scan's end ends a batch of its own (one page fewer: once). Each
# batch is ksmd's period with its share of the scan's checksums (24 ms while
# they end within the first jiffy).
for n, sleeps in ((100, 2), (99, 1)):
    raw = temp_file(b"".join(page("f%d" % i) for i in range(n)))
    rc, out, err = run("scan", "--format", "json", *FAST, "--pages-to-scan", "100", "--sleep-ms", "20", raw)
    h = json.loads(out)["hashes"][0] if rc == 0 else {}
    work = n * (h.get("ns_per_page_median") or 0) / sleeps  # a batch's share of the scan's checksums
    check(rc == 0 and abs(h["full_scan_seconds"] - sleeps * ksmd_period_ns(20, 250, work) / 1e9) < 1e-9,
          f"{n} pages at 100 a batch: {sleeps} sleeps a full scan: {err!r} {h}")
    os.unlink(raw)

# The capture's HZ is the kernel's, which ksmd's sleep is rounded to: at
# HZ 1000 20 ms is a batch every 21 ms, at HZ 100 one every 30; --hz over
# it (300: 7 jiffies of 3.33 ms); a capture that does not record it (before
# 2026-12-06): the default. (A value that is no HZ is an error, above.)
for hz, extra, want, frm in ((1000, [], 21, "capture"), (100, [], 30, "capture"), (1000, ["--hz", "300"], 70 / 3, "option"),
                             (None, [], 24, "default")):
    cap = temp_file(capture(uniq[:20], list(range(20)), hz=hz))
    rc, out, err = run("scan", "--format", "json", *FAST, *extra, cap)
    d = json.loads(out) if rc == 0 else {}
    h, st = (d["hashes"][0], d["settings"]) if rc == 0 else ({}, {})
    # The period with no work is the sleep's (want); a batch's checksums
    # (20 pages a full scan, 100 a batch for the share) lengthen it by the
    # jiffies they span: none where they end within the first, as here
    # natively, but under qemu-user a disturbed sample once measured 4 ms a
    # page, and the period rightly grew with it.
    c = h.get("ns_per_page_median") or 0
    hz_now = st.get("hz") or 250
    check(rc == 0 and st["hz"] == (300 if extra else hz if frm == "capture" else 250) and st["hz_from"] == frm
          and abs(st["sleep_taken_ms"] - want) < 1e-9 and abs(ksmd_period_ns(20, hz_now) - want * 1e6) < 1e-3
          and abs(h["full_scan_seconds"] - ksmd_period_ns(20, hz_now, 20 * c) / 1e9) < 1e-9
          and abs(h["ksmd_checksum_cpu_share"] - share(c, hz_now)) < 1e-12,
          f"the capture's HZ {hz} {extra}: a batch every {want} ms: {err!r} {st} {h}")
    rc, out, err = run("scan", "--sample-pages", "0", *extra, cap)
    said = {"capture": "the capture's", "option": "--hz", "default": "the kernel's default"}[frm]
    check(rc == 0 and f"(slept {want:.0f} ms at HZ {st.get('hz')}, {said})" in " ".join(out.split()),
          f"the header says HZ {st.get('hz')} {said}: {out[:400]!r}")
    os.unlink(cap)
# A capture taken while the scan-time advisor ran: its pages_to_scan was
# the advisor's then, said so (not when --pages-to-scan replaces it).
cap = temp_file(capture(uniq[:20], list(range(20)), settings={"pages_to_scan": 3000, "advisor_mode": "scan-time"}))
for extra, said in (([], True), (["--pages-to-scan", "100"], False)):
    rc, out, err = run("scan", "--sample-pages", "0", *extra, cap)
    text = " ".join(out.split())
    check(rc == 0 and ("the capture's pages_to_scan 3000 was the scan-time advisor's choice" in text) == said
          and ("scan-time advisor" in text) == said, f"advisor's pages_to_scan {extra}: {out[:700]!r} {err!r}")
os.unlink(cap)
# The advisor off (what captures record by default), or pages_to_scan 0
# (ksmd idle: the default modelled, said so): no advisor note.
for settings, idle in (({"pages_to_scan": 3000, "advisor_mode": "none"}, False),
                       ({"pages_to_scan": 0, "advisor_mode": "scan-time"}, True)):
    cap = temp_file(capture(uniq[:20], list(range(20)), settings=settings))
    rc, out, err = run("scan", "--sample-pages", "0", cap)
    text = " ".join(out.split())
    check(rc == 0 and "scan-time advisor" not in text and ("pages_to_scan is 0" in text) == idle,
          f"no advisor note with {settings}: {out[:700]!r} {err!r}")
    os.unlink(cap)
# sleep_millisecs 0: ksmd does not sleep from 5.0 (wait_event_*_timeout
# with 0); before, schedule_timeout(0) slept to the next tick.
cap = temp_file(capture(uniq[:20], list(range(20))))
for release, skips in (("5.0", True), ("4.19", False), ("4.4", False)):
    rc, out, err = run("scan", "--format", "json", *FAST, "--sleep-ms", "0", "--kernel-release", release, cap)
    d = json.loads(out) if rc == 0 else {}
    h, st = (d["hashes"][0], d["settings"]) if rc == 0 else ({}, {})
    ns = h.get("ns_per_page_median", 0)  # a full scan is one batch of the 20 pages; a batch has 100
    check(rc == 0 and abs(st["sleep_taken_ms"] - ksmd_period_ns(0, 250, 0, skips) / 1e6) < 1e-9
          and abs(h["full_scan_seconds"] - ksmd_period_ns(0, 250, 20 * ns, skips) / 1e9) < 1e-12
          and abs(h["ksmd_checksum_cpu_share"] - 100 * ns / ksmd_period_ns(0, 250, 100 * ns, skips)) < 1e-12
          and (h["ksmd_checksum_cpu_share"] == 1) == skips,
          f"sleep_millisecs 0 on {release}: {'no sleep' if skips else 'to the next tick'}: {err!r} {st} {h}")
    rc, out, err = run("scan", *FAST, "--sleep-ms", "0", "--kernel-release", release, cap)
    check(rc == 0 and ("never sleeps" in out) == skips, f"the no-sleep note on {release} only from 5.0: {out[:500]!r}")
os.unlink(cap)
check_usage_error(["scan", "--hz", "10", zeros], "--hz", "--hz 10")
check_usage_error(["scan", "--hz", "20000", zeros], "--hz", "--hz 20000")

# Pages in mappings KSM may merge (the page words' bit, where the page note
# says it is known): counted per dump, and a note when not every page is
# (the model still takes them all); unknown (a capture before 2026-12-06):
# null and no note.
for flags, words, want in ((7 | KB_PAGES_MERGEABLE_KNOWN, [i | (KB_MERGEABLE if i < 4 else 0) for i in range(10)], 4),
                           (7 | KB_PAGES_MERGEABLE_KNOWN, [i | KB_MERGEABLE for i in range(10)], 10),
                           (7 | KB_PAGES_MERGEABLE_KNOWN, list(range(10)), 0), (7, [i | KB_MERGEABLE for i in range(10)], None)):
    cap = temp_file(capture(uniq[:10], words, flags=flags))
    d = scan_json(cap)
    rc, out, err = run("scan", "--sample-pages", "0", cap)
    note = "KSM may merge " + ("none" if want == 0 else f"only {want}") + " of dump 1's 10 pages (anonymous"
    check(d and d["dumps"][0]["pages_mergeable"] == want and d["ksm"]["use_zero_pages_0"]["pages_unshared"] == 10
          and rc == 0 and (note in " ".join(out.split())) == (want is not None and want < 10)
          and ("KSM may merge" in out) == (want is not None and want < 10),
          f"pages in mergeable mappings: {want}: {d and d['dumps'][0]} {out[:500]!r}")
    # --mergeable: the others left out of the census, the model, the sample
    # and the full scan; a dump that does not say is taken whole, said so.
    rc, out, err = run("scan", "--format", "json", *FAST, "--mergeable", cap)
    m = json.loads(out) if rc == 0 else {}
    kept = 10 if want is None else want
    k0 = m["ksm"]["use_zero_pages_0"] if rc == 0 else {}
    h = m["hashes"][0] if rc == 0 else {}
    check(rc == 0 and m["settings"]["mergeable_only"] and m["dumps"][0]["pages_left_out"] == 10 - kept
          and m["totals"]["pages_left_out"] == 10 - kept and k0["pages_unshared"] == kept
          and m["totals"]["distinct_contents"] == kept and m["settings"]["sample_pages"] == min(kept, 16)
          and h["contents"] == kept
          and (kept == 0 and h["ns_per_page_median"] is None
               or abs(h["full_scan_seconds"] - ksmd_period_ns(20, 250, kept * h["ns_per_page_median"]) / 1e9) < 1e-9),
          f"--mergeable keeps {kept} of 10: {err!r} {m.get('totals')} {k0}")
    rc, out, err = run("scan", "--sample-pages", "0", "--mergeable", cap)
    text = " ".join(out.split())
    check(rc == 0 and f"{kept} page{'s' if kept != 1 else ''} ({10 - kept} more left out: --mergeable)" in text
          and (("--mergeable left the others out" in text) == (want is not None and want < 10))
          and (("--mergeable takes it whole" in text) == (want is None)),
          f"--mergeable's lines, {kept} kept: {out[:800]!r}")
    rc, out, err = run("scan", "--format", "csv", "--sample-pages", "0", "--mergeable", cap)
    row = list(csv.DictReader(io.StringIO(out)))[0] if rc == 0 else {}
    check(row.get("mergeable_only") == "true" and row.get("pages_left_out") == str(10 - kept) and row.get("pages") == "10",
          f"--mergeable in csv, {kept} kept: {row}")
    os.unlink(cap)
# --top's second pass leaves out what the census left out: content A on
# three pages outside mergeable mappings, then two inside; B on two inside.
# Its first copy counted is the fourth page, and it has two.
top_a, top_b, top_flags = uniq[0], uniq[1], 7 | KB_PAGES_MERGEABLE_KNOWN
cap = temp_file(capture([top_a] * 5 + [top_b] * 2, [0, 1, 2] + [i | KB_MERGEABLE for i in range(3, 7)], flags=top_flags))
tops = []
for extra in ([], ["--mergeable"]):
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", "--top", "5", *extra, cap)
    tops.append({t["checksum"]: t for t in json.loads(out)["top"]} if rc == 0 else {})
whole, kept = tops
sum_a = next((k for k, t in whole.items() if t["count"] == 5), None)
check(sum_a and len(kept) == 2 and kept[sum_a]["count"] == 2 and kept[sum_a]["where"][0]["count"] == 2
      and kept[sum_a]["where"][0]["first_address"] == whole[sum_a]["where"][0]["first_address"] + 3 * 4096,
      f"--mergeable --top: the copies counted and the first address are of the pages kept: {tops}")
os.unlink(cap)
cap = temp_file(capture([top_a] * 3, [0, 1, 2], flags=top_flags))
rc, out, err = run("scan", "--sample-pages", "0", "--top", "5", "--mergeable", cap)
check(rc == 0 and "among the pages counted (each unique, none zero; --mergeable left out 3)" in " ".join(out.split()),
      f"--top where --mergeable left every page out: {out!r}")
os.unlink(cap)

# A capture taken with use_zero_pages=1: the cost follows that model (its
# zero pages are not visited once merged), and the legend says so; a
# release before 4.11 has no such setting.
zeros1 = temp_file(capture(uniq[:20] + [Z] * 30, list(range(50)), settings={"use_zero_pages": 1}))
rc, out, err = run("scan", "--format", "json", *FAST, zeros1)
d = json.loads(out) if rc == 0 else {}
h = d["hashes"][0] if rc == 0 else {}
f = (20 / 9) / (20 / 9)  # the 20 unique pages alone are visited, each checksummed
check(rc == 0 and d["settings"]["cost_use_zero_pages"] == 1
      and abs(h["ksmd_steady_checksum_cpu_share"] - share(f * h["ns_per_page_median"])) < 1e-12
      and abs(h["steady_full_scan_seconds"] - ksmd_period_ns(20, 250, 20 / 9 * h["ns_per_page_median"]) / 1e9) < 1e-9,
      f"a capture with use_zero_pages=1: the steady cost of that model: {err!r} {d.get('settings')} {h}")
rc, out, err = run("scan", *FAST, zeros1)
check(rc == 0 and "use_zero_pages=1 as captured" in " ".join(out.split()), f"the legend says so: {out!r}")
rc, out, err = run("scan", "--format", "csv", *FAST, zeros1)
row = list(csv.DictReader(io.StringIO(out)))[0] if rc == 0 else {}
check(row.get("cost_use_zero_pages") == "1" and row.get("smart_scan") == "true"
      and abs(float(row.get("ksmd_steady_checksum_cpu_share") or -1) - share(float(row["ns_per_page_median"]))) < 2e-6
      and row.get("hz") == "250",
      f"CSV: the steady figures and the model they follow: {err!r} {row}")
rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", "--kernel-release", "4.9", zeros1)
check(rc == 0 and json.loads(out)["settings"]["cost_use_zero_pages"] == 0, "4.9 has no use_zero_pages")

# KSM's checksum follows the release: jhash2 before 5.0 (the default -H
# then), xxhash since; the header names the rules, and says when the
# checksum KSM would use is not among the hashes examined.
check(doc["settings"]["ksm_checksum"] == "jhash2" and [h["hash"] for h in doc["hashes"]] == ["jhash2"],
      f"4.9: KSM's checksum is jhash2, examined by default: {doc['settings']} {doc['hashes']}")
doc = scan_json("--kernel-release", "5.0", a)
# (the capture a was taken on x86_64: xxh64, named xxhash where this build
# is 64-bit, and examined by default whatever this build's word size)
check(doc["settings"]["ksm_checksum"] == xxhash_named(64) and [h["hash"] for h in doc["hashes"]] == [xxhash_named(64)],
      f"5.0: xxhash {doc['settings']['ksm_checksum']}")
rc, out, err = run("scan", "--sample-pages", "0", "--kernel-release", "4.19", "-H", "xxhash", a)
text = " ".join(out.split())
check(rc == 0 and "KSM modelled: kernel 4.19's rules (from --kernel-release), checksum jhash2, max_page_sharing" in text
      and "# note: that kernel's KSM checksums pages with jhash2, which -H left out" in text,
      f"the header names the rules and the missing checksum: {out[:400]!r}")
old_capture = temp_file(capture(B_PAGES, B_WORDS, release="4.19.0"))
rc, out, err = run("scan", "--sample-pages", "0", old_capture)
text = " ".join(out.split())
check(rc == 0 and "kernel 4.19.0's rules (from the capture), checksum jhash2" in text and "# note: " not in text
      and "jhash2 " in text.split("HASH", 1)[-1],
      f"a capture of 4.19: its rules, and its checksum examined by default (no note): {out[:400]!r}")
rc, out, err = run("scan", "--sample-pages", "0", "-H", "jhash2,xxhash", old_capture)
check(rc == 0 and "# note: " not in out, "with jhash2 among the hashes, no note")
# jhash2 changed under its name in 2.6.38 (lookup2 -> lookup3): KSM's
# first releases checksum with the older one, whose zero page differs.
for release, name, zero in (("2.6.37", "jhash2-lookup2", "31cbe0fa"), ("2.6.38", "jhash2", "61574272")):
    doc = scan_json("--kernel-release", release, a)
    check(doc["settings"]["ksm_checksum"] == name and [h["hash"] for h in doc["hashes"]] == [name]
          and doc["hashes"][0]["zero_checksum"] == zero,
          f"{release}: KSM's checksum is {name}: {doc['settings']} {doc['hashes']}")
# No release given and none captured (a raw file): the newest rules, said so.
raw = temp_file(b"".join(B_PAGES))
newest = scan_json(raw)["settings"]
check(newest["kernel_release"] is None and newest["kernel_rules_from"] == "assumed (the newest rules)"
      and newest["ksm_checksum"] == "xxhash" and newest["thp_split_maps_zero_subpages"]
      and newest["max_page_sharing_applies"], f"a raw file: the newest kernel's rules, assumed: {newest}")
check(newest["smart_scan"] and newest["smart_scan_applies"] and newest["use_zero_pages_applies"],
      f"a raw file: the newest rules have smart_scan, on, and use_zero_pages: {newest}")
os.unlink(raw)
# A release after the newest one checked gets its rules, and the header says so.
for release, said in (("99.0", True), ("6.18.9", False)):
    rc, out, err = run("scan", "--sample-pages", "0", "--kernel-release", release, a)
    head = " ".join(out.split("\n#")[0].split())  # the header, its wrapped lines joined
    check(rc == 0 and ("(from --kernel-release, taken as 6.18, the newest release checked)" in head) == said,
          f"--kernel-release {release}: the header says whether it is taken as 6.18: {head!r}")
rc, out, err = run("scan", "--sample-pages", "0", "--kernel-release", "2.6.31", a)
check(rc == 2 and out == "" and err.strip() == "ksmbench scan: --kernel-release: kernel release '2.6.31' has no KSM (it came in 2.6.32)",
      f"a release before KSM: {err!r}")

# The same capture in big-endian byte order reads the same.
abig = temp_file(capture(A_PAGES, A_WORDS, big=True))
d = scan_json(abig)["dumps"][0]
check(d["pages_volatile"] == 3 and d["page_words"] and d["kernel_release"] == "6.18.0", f"big-endian notes: {d}")
# Another page size: the words do not apply, the rest of the notes does.
d = scan_json("--page-size", "8K", a)["dumps"][0]
check(d["captured"] and not d["page_words"] and d["pages_volatile"] == 0, f"--page-size 8K: no page words: {d}")
rc, out, err = run("scan", "--sample-pages", "0", "--page-size", "8K", b, a)
text = " ".join(out.split())
check(rc == 0 and text.count("page words are for 4096-byte pages, not 8192") == 2
      and "note: dump 2's page words are for 4096-byte pages, not 8192: its volatile pages, THPs and PFNs are left out"
      in text, f"--page-size 8K: the header says the words are left out, per dump: {out[:600]!r}")
rc, out, err = run("scan", "--sample-pages", "0", a)
check(rc == 0 and "page words are for" not in out, "at the capture's page size: no such note")
# A capture of an idle ksmd (pages_to_scan 0): the default modelled, said.
idle = temp_file(capture(B_PAGES, B_WORDS, settings={"pages_to_scan": 0}))
rc, out, err = run("scan", "--sample-pages", "0", idle)
check(rc == 0 and "pages_to_scan 100," in " ".join(out.split()[:40])
      and "note: the capture's pages_to_scan is 0 (ksmd scanned nothing): the cost is modelled at 100"
      in " ".join(out.split()), f"a capture with pages_to_scan 0: {out[:500]!r}")
rc, out, err = run("scan", "--sample-pages", "0", "--pages-to-scan", "50", idle)
check(rc == 0 and "pages_to_scan is 0" not in out, "--pages-to-scan given: no note")
os.unlink(idle)
# Without the notes (a plain core): no capture.
d = scan_json(temp_file(elf([(0x1000, b"".join(B_PAGES))], physical=False)))["dumps"][0]
check(not d["captured"] and d["pages_volatile"] is None and d["kernel_release"] is None, f"a core without notes: {d}")

# --top names the dumps and addresses of each duplicated content.
t1 = temp_file(elf([(0x10000, page("x") * 3 + page("y") + Z)], physical=False))
t2 = temp_file(elf([(0x20000, page("y") + page("x") + page("x"))], physical=False))
top = scan_json("--top", "3", t1, t2)["top"]
check([(x["count"], x["dumps_with_copies"], x["located"]) for x in top] == [(5, 2, True), (2, 2, True), (1, 1, True)]
      and [(w["index"], w["count"], w["first_address"]) for w in top[0]["where"]] == [(0, 3, 0x10000), (1, 2, 0x21000)]
      and [(w["index"], w["first_address"]) for w in top[1]["where"]] == [(0, 0x13000), (1, 0x20000)]
      and top[2]["zero_page"] and top[2]["where"][0]["first_address"] == 0x14000 and top[0]["where"][1]["dump"] == t2,
      f"--top: dumps, counts and first addresses: {top}")
rc, out, err = run("scan", "--sample-pages", "0", "--top", "2", t1, t2)
row = [line for line in out.splitlines() if line.strip().startswith("1 ") and "@" in line]
check(rc == 0 and row and "#1@0x10000 x3; #2@0x21000 x2" in row[0], f"--top table names them by number: {row}")
rc, out, err = run("scan", "--sample-pages", "0", "--top", "2", "--wide", t1, t2)
row = [line for line in out.splitlines() if line.strip().startswith("1 ")]
check(rc == 0 and row and f"{t1}@0x10000 x3; {t2}@0x21000 x2" in row[0], f"--top --wide table names them: {row}")
# In a capture, volatile pages are not copies (as in the census).
top = scan_json("--top", "1", a)["top"]
check(top[0]["zero_page"] and top[0]["where"][0]["count"] == 10, f"--top of a capture: {top}")
with open(t1, "rb") as f:
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", "--top", "1", "-", stdin=f.read())
top = json.loads(out)["top"] if rc == 0 else []
check(rc == 0 and top and not top[0]["located"] and top[0]["where"] == [], f"--top of standard input: {err!r} {top}")

# The kernel's word size: xxhash() is xxh32 on 32-bit kernels and the rmap
# item 36 bytes (32 before smart_scan's age bytes, 6.7); 64 on 64-bit.
# Given, from the capture's machine, else this machine's (uname: the
# emulated i686 under qemu-i386).
for machine, bits in (("i686", 32), ("armv7l", 32), ("x86_64", 64), ("aarch64", 64), ("s390x", 64), ("alpha", 64)):
    d = scan_json(temp_file(capture(B_PAGES, B_WORDS, machine=machine)))
    s, k = d["settings"], d["ksm"]["use_zero_pages_0"]
    check(s["kernel_bits"] == bits and s["kernel_bits_from"] == "capture"
          and s["rmap_item_bytes"] == (64 if bits == 64 else 36)
          and s["ksm_checksum"] == xxhash_named(bits) and [h["hash"] for h in d["hashes"]] == [xxhash_named(bits)]
          and k["general_profit"] == k["pages_sharing"] * PS - k["rmap_items"] * s["rmap_item_bytes"],
          f"a capture on {machine}: a {bits}-bit kernel, its checksum examined by default: {s} {k}")
# The checksum examined by default is the first capture's kernel's, when its
# note can be read before the pass: jhash2 before 5.0, lookup2's before
# 2.6.38; a raw file ahead of it changes nothing; through a pipe it is
# today's, and the header says the tables are not KSM's.
old = temp_file(capture(B_PAGES, B_WORDS, release="4.19"))
older = temp_file(capture(B_PAGES, B_WORDS, release="2.6.32"))
raw = temp_file(b"".join(B_PAGES))
cap32 = temp_file(capture(B_PAGES, B_WORDS, machine="i686"))
for args, want in (([old], "jhash2"), ([older], "jhash2-lookup2"), ([raw, old], "jhash2"),
                   (["--kernel-release", "6.1", old], xxhash_named(64)),
                   (["--kernel-release", "6.1", cap32], xxhash_named(32)), (["-H", "crc32c", old], "crc32c")):
    d = scan_json(*args)
    check(d and d["settings"]["ksm_checksum"] == (want if want != "crc32c" else "jhash2")
          and [h["hash"] for h in d["hashes"]] == [want], f"scan {args[:-1]}: {want} examined: {d and d['hashes']}")
with open(old, "rb") as f:
    rc, out, err = run("scan", "--sample-pages", "0", "-", stdin=f.read())
check(rc == 0 and "that kernel's KSM checksums pages with jhash2, which the default (xxhash) is not: a capture read through a pipe" in
      " ".join(out.split()), f"through a pipe: today's checksum, said so: {out[:600]!r}")
for f in (old, older, raw, cap32):
    os.unlink(f)
d = scan_json(temp_file(capture(B_PAGES, B_WORDS, machine=None)))
s = d["settings"]
check(s["kernel_bits_from"] == "this machine" and s["kernel_bits"] in (32, 64)
      and s["rmap_item_bytes"] == (64 if s["kernel_bits"] == 64 else 36), f"no machine recorded: this machine's: {s}")
for release, rmap in (("6.7", 36), ("6.6", 32)):
    d = scan_json("--kernel-bits", "32", "--kernel-release", release, a)
    s = d["settings"]
    check(s["kernel_bits"] == 32 and s["kernel_bits_from"] == "option" and s["rmap_item_bytes"] == rmap
          and s["ksm_checksum"] == xxhash_named(32) and [h["hash"] for h in d["hashes"]] == [xxhash_named(32)],
          f"--kernel-bits 32 on {release}: xxh32 examined by default, {rmap}-byte rmap items: {s}")
d = scan_json("--kernel-bits", "32", "--kernel-release", "4.19", a)
check(d["settings"]["ksm_checksum"] == "jhash2" and [h["hash"] for h in d["hashes"]] == ["jhash2"],
      f"--kernel-bits 32 before 5.0: jhash2 still: {d['settings']}")
d = scan_json("--kernel-bits", "64", temp_file(capture(B_PAGES, B_WORDS, machine="i686")))
check(d["settings"]["kernel_bits"] == 64 and d["settings"]["kernel_bits_from"] == "option"
      and d["settings"]["rmap_item_bytes"] == 64, f"--kernel-bits over the capture's machine: {d['settings']}")
# A 32-bit capture scanned with the 64-bit default: the header says the
# checksum examined is not that kernel's.
rc, out, err = run("scan", "--sample-pages", "0", "-H", "xxh64", "--wide", temp_file(capture(B_PAGES, B_WORDS, machine="i686")))
check(rc == 0 and f"checksum {xxhash_named(32)} (a 32-bit kernel, from the capture's machine)" in out
      and (build_bits == 32 or "checksums pages with xxh32, which -H left out" in out),
      f"header of a 32-bit capture: {out[:600]!r} {err!r}")
rc, out, err = run("scan", "--sample-pages", "0", "--format", "csv", "--kernel-bits", "32", a)
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check(rows and rows[0].get("hash") == xxhash_named(32) and rows[0].get("kernel_bits") == "32"
      and list(rows[0])[-3:] == ["kernel_bits", "mergeable_only", "pages_left_out"],
      f"csv with --kernel-bits 32: {rows[:1]} {err!r}")
# Under a 32-bit personality uname says i686 (as a 32-bit kernel's would):
# this machine's kernel is then taken as 32-bit, said so in the header; a
# capture from x86_64 still gives xxh64 (named xxhash where this build is
# 64-bit).
if shutil.which("linux32") and os.uname().machine == "x86_64" and not os.environ.get("KSMBENCH_TEST_EMULATED"):
    rc, out, err = run("scan", "--sample-pages", "0", "--format", "json", temp_file(capture(B_PAGES, B_WORDS, machine=None)),
                       prefix=["linux32"])
    s = json.loads(out)["settings"] if rc == 0 else {}
    check(s.get("kernel_bits") == 32 and s.get("kernel_bits_from") == "this machine" and s.get("ksm_checksum") == xxhash_named(32)
          and s.get("rmap_item_bytes") == 36, f"linux32, no machine recorded: a 32-bit kernel, this machine's: {err!r} {s}")
    rc, out, err = run("scan", "--sample-pages", "0", temp_file(capture(B_PAGES, B_WORDS, machine=None)), prefix=["linux32"])
    check(rc == 0 and "(a 32-bit kernel, from this machine's kernel)" in " ".join(out.split()),
          f"linux32: the header says where the 32 bits came from: {out[:500]!r} {err!r}")
    rc, out, err = run("scan", "--sample-pages", "0", "--format", "json", temp_file(capture(B_PAGES, B_WORDS)),
                       prefix=["linux32"])
    d = json.loads(out) if rc == 0 else {}
    check(rc == 0 and d["settings"]["kernel_bits"] == 64 and d["settings"]["ksm_checksum"] == xxhash_named(64)
          and [h["hash"] for h in d["hashes"]] == [xxhash_named(64)],
          f"linux32, a capture from x86_64: xxh64 is KSM's, and examined by default: {err!r} {d.get('settings')}")
for bad_bits in ("16", "", "64x"):
    check_usage_error(["scan", "--kernel-bits", bad_bits, a], "--kernel-bits", f"--kernel-bits {bad_bits!r}")

rc, out, err = run("scan", "--kernel-release", "linux", a)
check(rc == 2 and "MAJOR.MINOR" in err and len(err.splitlines()) == 1, f"bad --kernel-release: {err!r}")
check_usage_error(["scan", "--kernel-release", "", a], "--kernel-release: empty", "an empty --kernel-release")
bad = {
    "too few words": capture(B_PAGES, B_WORDS[:3]),
    "version 2": capture(B_PAGES, B_WORDS, version=2),
    "page size 100": capture(B_PAGES, B_WORDS, page_size=100),
    "no tag": elf([(0x1000, B_PAGES[0])], physical=False,
                  notes=dumpgen.elf_note(b"KSMBENCH\0", dumpgen.KB_NOTE_SYSTEM, b"kernel_release=6.1\n")),
    "runs past": elf([(0x1000, B_PAGES[0])], physical=False,
                     notes=ksm_notes([1])[:-12]),
    # The summary printed the release as it was: to the terminal.
    "a control character in the release": capture(B_PAGES, B_WORDS, release="6.1\x1b[2J"),
}
needles = {"too few words": "describes 3 pages", "version 2": "version 2", "page size 100": "page size 100",
           "no tag": "ksmbench-system/1", "runs past": "note",
           "a control character in the release": "kernel release '6.1\\x1b[2J' is not one uname could show"}
for label, data in bad.items():
    rc, out, err = run("scan", "--sample-pages", "0", temp_file(data))
    check(rc == 2 and needles[label] in err and len(err.splitlines()) == 1 and out == "",
          f"malformed notes ({label}): rc {rc} {err!r}")
# Another program's broken note, or zeros padding the note segment, leave the
# core readable and our notes in force.
foreign = dumpgen.elf_note(b"CORE\0", 1, b"x" * 8)[:-4]
for label, notes in (("a foreign note past its segment", ksm_notes([1]) + foreign),
                     ("a megabyte of zeros after the notes", ksm_notes([1]) + bytes(1 << 20))):
    rc, out, err = run("scan", "--sample-pages", "0", "--format", "json",
                       temp_file(elf([(0x1000, B_PAGES[0])], physical=False, notes=notes)))
    d = json.loads(out)["dumps"][0] if rc == 0 else {}
    check(rc == 0 and d.get("captured") and d.get("pages") == 1, f"{label}: rc {rc} {err!r}")
# The table's summary accounts for every page: the volatile ones (changed
# between the capture's two snapshots) are neither zero nor a content, and
# "18 pages: 10 zero, 4 distinct" without them did not add up (until
# 2026-12-07).
rc, out, err = run("scan", "--sample-pages", "0", "--wide", a)
check(rc == 0 and "18 pages: 3 volatile (changed between the capture's snapshots: not counted as contents), "
      "10 zero, 4 distinct non-zero contents;" in out, f"the summary names the volatile pages: {out!r}")
finish("scan_model")
