#!/usr/bin/env python3
"""make bench: the fast hashes' speed targets (issues 4 and 14), measured with
`ksmbench bench` on a hot page and printed as ratio beside target: against
ISA-L and xxhsum in the same run, and against this CPU's ceilings
(`ksmbench ceiling`, docs/ceilings.md; the highest of three runs), plus the
ceiling command's own time and its spread between runs. A ceiling is so many
bytes a core cycle: the ratio to it compares bytes a cycle, each figure at
the core clock measured where it ran (the ceiling's add chain; the median
effective clock of the bench rounds), as the core clock of a VM moves
between runs.

Each 4 KiB figure is the best round of --repeat rounds (window timer); a
ratio to a ceiling takes that round less its interrupted batches, as the
ceiling's 0.4 ms probes meet no interruption. The small sizes' ratios to
crc32c-sse42 are medians over six processes (below). The ratios are
informative, not a pass/fail test: a busy sibling CPU changes them.
usage: scripts/bench_targets.py [KSMBENCH] [--repeat N] [--cpu N]
"""
import json
import re
import shutil
import subprocess
import sys

args = sys.argv[1:]
binary = args.pop(0) if args and not args[0].startswith("-") else "./ksmbench"
extra = args  # passed through: --repeat, --cpu, --window


# What this CPU and build can run, asked once.
LISTING = {h["name"]: h for h in json.loads(subprocess.run([binary, "list", "--format", "json"], check=True,
                                                           capture_output=True, text=True).stdout)["hashes"]}
AVAILABLE = {n for n, h in LISTING.items() if h["available"]}
AVX512 = "xxh3-avx512" in AVAILABLE  # the goals differ with AVX-512


def ceiling_runs(runs):
    """`ksmbench ceiling --format json`, one process per run."""
    cpu = ["--cpu", extra[extra.index("--cpu") + 1]] if "--cpu" in extra[:-1] else []
    return [json.loads(subprocess.run([binary, "ceiling", "--format", "json", *cpu], check=True,
                                      capture_output=True, text=True).stdout) for _ in range(runs)]


CLOCK = {}      # implementation -> median effective core clock of its rounds (Hz), where measured
# implementation -> its best round's bytes a core cycle, at that round's clock,
# over the round's uninterrupted batches (docs/ceilings.md)
PER_CYCLE = {}


def uninterrupted_rate(rnd, page_size):
    """A round's bytes/s over its batches no interruption met, as the
    ceiling's short probes run (its wall rate where they were not logged)."""
    ns = rnd.get("uninterrupted_ns_per_page")
    return page_size * 1e9 / ns if ns else rnd["bytes_per_second"]


def bench(hashes, page_size, processes=None, apart=False):
    """Best bytes/s per implementation at one page size; unavailable ones left out.
    With processes=(N, rounds): N measuring processes, and the median over
    processes per implementation instead. apart: each call timed apart
    (bench --apart), as ksmd calls it."""
    names = [h for h in hashes if h in AVAILABLE]
    if not names:
        return {}
    # One measuring process unless --processes is passed: best rounds, side by side.
    runs = ["--processes", str(processes[0]), *extra, "--repeat", str(processes[1])] if processes \
        else ["--processes", "1", *extra]
    out = subprocess.run([binary, "bench", "-H", ",".join(names), "--page-size", str(page_size),
                          "--format", "json", *runs, *(["--apart"] if apart else [])], check=True,
                         capture_output=True, text=True).stdout
    # An alias measured with its target is listed among the result's aliases.
    results = json.loads(out)["results"]
    if processes:
        return {name: r["bytes_per_second_median"] for r in results for name in [r["hash"], *r["aliases"]]}
    for r in results if not apart else []:  # the ceilings' figures are back to back
        used = [x for x in r["rounds"] if x.get("effective_clock_hz") and not x["disturbed"]]
        hz = sorted(x["effective_clock_hz"] for x in used)
        for name in [r["hash"], *r["aliases"]]:
            CLOCK[name] = hz[len(hz) // 2] if hz else None
            PER_CYCLE[name] = max((uninterrupted_rate(x, page_size) / x["effective_clock_hz"] for x in used),
                                  default=None)
    return {name: r["bytes_per_second_best"] for r in results for name in [r["hash"], *r["aliases"]]}


def xxhsum_xxh3_4k():
    """xxhsum's own XXH3_64b figure at 4 KiB (variant 5), bytes/s, or None."""
    if not shutil.which("xxhsum"):
        return None
    # The same CPU as ksmbench when --cpu N is given.
    cpu = extra[extra.index("--cpu") + 1] if "--cpu" in extra[:-1] else None
    cmd = (["taskset", "-c", cpu] if cpu and shutil.which("taskset") else []) + ["xxhsum", "-b5", "-B4K"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    text = (p.stdout + p.stderr).replace("\r", "\n")  # xxhsum reports on stderr
    m = re.search(r"#XXH3_64b\s*:\s*\d+ ->\s*\d+ it/s \(\s*([\d.]+) MB/s\)", text)
    return float(m.group(1)) * 1e6 if m else None


rows = []


# A result may pass its measured ceiling by a few per cent (docs/ceilings.md:
# both are measured); far above it, the ceiling runs
# met a busy host core throughout (a deep loop read 25 cycles instead of 18)
# and the ratio says nothing.
CEILING_SLACK = 1.10


def ratio(label, num, den, target, cmp=">=", bound=False, resolution=0.0):
    """One row; a ratio short of its target by no more than resolution is
    not told from it ("met (within N%)")."""
    if num is None or den is None:
        rows.append((label, "n/a", f"{cmp} {target:.2f}", "not measurable here"))
        return
    r = num / den
    if bound and r > CEILING_SLACK:
        rows.append((label, f"{r:.3f}", f"{cmp} {target:.2f}", "ceiling low: its runs were disturbed"))
        return
    verdict = "met" if r >= target else f"met (within {100 * resolution:.0f}%)" \
        if resolution and r >= target - resolution else "MISSED"
    rows.append((label, f"{r:.3f}", f"{cmp} {target:.2f}", verdict))


crc = ["crc32c-sse42", "crc32c-3way", "crc32c-3way-fit", "crc32c-vpclmul", "crc32c-vpclmul-avx2",
       "crc32c-fused", "crc32c-fused-intel", "crc32c-fused6", "crc32c-fused-avx2", "crc32c-isal", "crc32c-isal-3way", "crc32c-isal-by16",
       "crc32c-generic"]
at4k = bench(crc + ["crc32c", "xxh3"], 4096)
for name, v in sorted(at4k.items(), key=lambda kv: -kv[1]):
    print(f"  {name:18s} {v / 1e9:7.2f} GB/s at 4 KiB")
xxhsum = xxhsum_xxh3_4k()
if xxhsum:
    print(f"  {'xxhsum XXH3_64b':18s} {xxhsum / 1e9:7.2f} GB/s at 4 KiB (xxhsum -b5 -B4K)")
print()
ceil_docs = ceiling_runs(3)
# Each hash's highest ceiling of the three runs: a run whose every round met a
# busy sibling gives low limits (docs/ceilings.md), never high ones.
ceiling, per_cycle = {}, {}
for d in ceil_docs:
    hz = d["limits"]["core_clock_hz"]["value"]
    for c in d["ceilings"]:
        if c["ceiling_bytes_per_second"]:
            ceiling[c["hash"]] = max(ceiling.get(c["hash"], 0), c["ceiling_bytes_per_second"])
            per_cycle[c["hash"]] = max(per_cycle.get(c["hash"], 0), c["ceiling_bytes_per_second"] / hz)


def of_ceiling(name):
    """(bytes a cycle of the bench's best round, of the ceiling), or the
    bytes/s pair where the rounds' clock was not measured."""
    if at4k.get(name) is None or name not in ceiling:
        return None, None
    if PER_CYCLE.get(name):
        return PER_CYCLE[name], per_cycle[name]
    return at4k[name], ceiling[name]
alias = {n: LISTING[n]["alias_of"] for n in ("crc32c", "xxh3")}
print(f"  crc32c = {alias['crc32c']} ({LISTING['crc32c']['chosen_by']}), xxh3 = {alias['xxh3']} "
      f"({LISTING['xxh3']['chosen_by']}); AVX-512 {'yes' if AVX512 else 'no'}")
for name in ("crc32c", "crc32c-3way-fit", "xxh3"):
    if ceiling.get(name):
        at = f", {per_cycle[name] * CLOCK[name] / 1e9:.2f} at the bench's {CLOCK[name] / 1e9:.2f} GHz" \
            if CLOCK.get(name) else ""
        print(f"  {'ceiling ' + name:18s} {ceiling[name] / 1e9:7.2f} GB/s at 4 KiB (ksmbench ceiling{at})")
print()
ratio("crc32c / its ceiling @4K", *of_ceiling("crc32c"), 0.95, bound=True)
ratio("crc32c / ISA-L crc32_iscsi @4K", at4k.get("crc32c"), at4k.get("crc32c-isal"), 1.20 if AVX512 else 1.00)
ratio("crc32c-3way-fit / ISA-L crc32_iscsi_01 @4K", at4k.get("crc32c-3way-fit"), at4k.get("crc32c-isal-3way"), 1.00)
# The same two with each call timed apart, as ksmd calls them: back to back
# the next call overlaps the last one's end, and ISA-L's sparse end overlaps
# more (docs/measurement.md, "Calls apart").
apart4k = bench(["crc32c-3way-fit", "crc32c-isal-3way"], 4096, apart=True)
ratio("  the same, calls apart", apart4k.get("crc32c-3way-fit"), apart4k.get("crc32c-isal-3way"), 1.00)
ratio("crc32c-3way-fit / crc32q ceiling @4K", *of_ceiling("crc32c-3way-fit"), 0.95, bound=True)
ratio("crc32c-3way / ISA-L crc32_iscsi_01 @4K", at4k.get("crc32c-3way"), at4k.get("crc32c-isal-3way"), 0.95)
ratio("xxh3 / its ceiling @4K", *of_ceiling("xxh3"), 0.90, bound=True)
ratio("crc32c-vpclmul / ISA-L crc32_iscsi @4K", at4k.get("crc32c-vpclmul"), at4k.get("crc32c-isal"), 0.95)
ratio("crc32c-fused / ISA-L crc32_iscsi @4K", at4k.get("crc32c-fused"), at4k.get("crc32c-isal"), 1.20)
ratio("crc32c-fused-intel / ISA-L crc32_iscsi @4K", at4k.get("crc32c-fused-intel"), at4k.get("crc32c-isal"), 1.20)
ratio("crc32c-fused6 / ISA-L crc32_iscsi @4K", at4k.get("crc32c-fused6"), at4k.get("crc32c-isal"), 1.20)
ratio("xxh3 / xxhsum XXH3_64b @4K", at4k.get("xxh3"), xxhsum, 1.40 if AVX512 else 1.10)
longest = max(d["elapsed_s"] for d in ceil_docs)
rows.append(("ksmbench ceiling run time (3 runs)", f"{longest:.2f}s", "<= 3.00s", "met" if longest <= 3 else "MISSED"))
worst, worst_key = 0.0, "-"
for key in ceil_docs[0]["limits"]:
    vals = [d["limits"][key]["value"] for d in ceil_docs if d["limits"][key]["measured"]]
    if vals and 100 * (max(vals) - min(vals)) / min(vals) > worst:
        worst, worst_key = 100 * (max(vals) - min(vals)) / min(vals), key
rows.append((f"ceiling spread, 3 runs (worst: {worst_key})", f"{worst:.1f}%", "<= 5.0%",
             "met" if worst <= 5 else "MISSED"))
# At such sizes one process's address layout moves a call by up to 10% (the
# same code read 17.5-21.6 GB/s at 64 B in eight processes, 19.0 in most): a
# single process's best round made these ratios swing 0.92-1.13 between
# runs. So they are medians over six processes; those of the same code came
# out 0.999-1.003 apart, so a ratio within 1% of the target is not told
# from it. Below 512 B crc32c-3way runs the same loop as crc32c-sse42 (the
# kernel's), so its ratio there is parity up to code placement
# (docs/measurement.md): on the Zen 5 VM that loop ran 16-26 GB/s at 256 B
# over 20 processes, in two groups, and the medians of six read 0.8-1.2
# (docs/hashes.md, "Short inputs").
SMALL_PROCESSES = (6, 3)
SAME_CODE_RESOLUTION = 0.01


for size in (64, 256, 512, 1024):
    small = bench(crc, size, SMALL_PROCESSES)
    base = small.get("crc32c-sse42")
    # Our hardware entries; crc32c-generic (tables) and ISA-L's are not held to this.
    for name in ("crc32c-3way", "crc32c-3way-fit", "crc32c-vpclmul", "crc32c-vpclmul-avx2", "crc32c-fused",
                 "crc32c-fused-intel", "crc32c-fused6", "crc32c-fused-avx2"):
        if name in small:
            ratio(f"{name} / crc32c-sse42 @{size} (medians)", small[name], base, 1.00,
                  resolution=SAME_CODE_RESOLUTION)

width = max(len(r[0]) for r in rows)
print(f"{'ratio':{width}s}  {'measured':>8s}  {'target':>7s}  verdict")
for label, measured, target, verdict in rows:
    print(f"{label:{width}s}  {measured:>8s}  {target:>7s}  {verdict}")
