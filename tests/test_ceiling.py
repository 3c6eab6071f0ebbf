"""CLI tests for `ksmbench ceiling`: the JSON parsed (every limit present,
measured ones positive with a spread, the stability figure, ceilings per
available implementation with their limiting resource), the text table, and
bad options. No absolute speed is asserted."""
import json
import re

from clitest import run, check, check_usage_error, crc32c_sse42_ceiling, finish

rc, out, err = run("ceiling", "--format", "json", "--repeat", "3")
check(rc == 0 and err == "", f"ceiling --format json: rc={rc} {err!r}")
doc = json.loads(out)
check(doc.get("schema") == "ksmbench-ceiling/1", f"the document names its schema: {doc.get('schema')}")
KEYS = ["core_clock_hz", "crc32q_throughput_cycles", "crc32q_latency_cycles", "crc32q_page_chain_cycles",
        "pclmulqdq_xmm_cycles",
        "vpclmulqdq_ymm_cycles", "vpclmulqdq_zmm_cycles", "mixed_crc32q_vpclmulqdq_ymm_cycles",
        "fused_crc32q_vpclmulqdq_ymm_cycles", "fused_light_crc32q_vpclmulqdq_ymm_cycles",
        "fused_wide_crc32q_vpclmulqdq_ymm_cycles", "fused_deep_crc32q_vpclmulqdq_ymm_cycles",
        "fused_nine_crc32q_vpclmulqdq_ymm_cycles",
        "pmuludq_xmm_cycles", "vpmuludq_ymm_cycles", "xxh3_step_ymm_cycles",
        "xxh3_block_xmm_cycles", "xxh3_block_ymm_cycles", "l1_load_ymm_bytes_per_cycle",
        "memory_stream_bytes_per_second", "cold_page_ns"]
for k in KEYS:
    check(k in doc["limits"], f"limit {k} present")
for k, v in doc["limits"].items():
    if v["measured"]:
        check(v["value"] > 0 and v["spread_pct"] >= 0 and v["unit"] and v["what"], f"{k} positive, with spread")
    else:
        check(v["value"] is None and v["spread_pct"] is None, f"{k} unmeasured is null")
for k in ("core_clock_hz", "memory_stream_bytes_per_second", "cold_page_ns"):
    check(doc["limits"][k]["measured"], f"{k} is measured on every architecture")
check(doc["repeats"] == 3 and doc["elapsed_s"] > 0 and doc["largest_spread_pct"] >= 0, "run facts")
check(doc["stream_bytes"] >= 64 << 20 and doc["page_size"] == 4096, "stream buffer and page size")
# Flushed, the buffer is the 64 MiB of the ksmd style's set; cold by size, 4x the L3 (at least 64 MiB).
check(doc["stream_cold_by"] == "size" or (doc["stream_cold_by"] == "flush" and doc["stream_bytes"] == 64 << 20),
      "stream buffer made cold by flushing 64 MiB, or by its size")
check(set(doc["coissue"]) == {"xmm", "ymm", "zmm"} and all(v is None or 0 <= v <= 1 for v in doc["coissue"].values()),
      "co-issue fractions in [0, 1] or null")
listed = {h["name"]: h for h in json.loads(run("list", "--format", "json")[1])["hashes"]}
names = {c["hash"] for c in doc["ceilings"]}
check(names == {n for n, h in listed.items() if h["available"]}, "a ceiling entry for every available hash")
lim = doc["limits"]
for c in doc["ceilings"]:
    if c["ceiling_bytes_per_second"] is None:
        check(c["limited_by"] and c["formula"] is None, f"{c['hash']}: why there is no ceiling")
        continue
    check(c["ceiling_bytes_per_second"] > 0 and 0 < c["cold_ceiling_bytes_per_second"] <= c["ceiling_bytes_per_second"],
          f"{c['hash']} ceiling positive, cold <= hot")
    check(c["limited_by"] and c["formula"], f"{c['hash']} names its limit and formula")
by = {c["hash"]: c for c in doc["ceilings"]}
if "crc32c-sse42" in by and lim["crc32q_latency_cycles"]["measured"]:
    want = crc32c_sse42_ceiling(lim, lim["core_clock_hz"]["value"])
    got = by["crc32c-sse42"]["ceiling_bytes_per_second"]
    check(abs(got - want) <= 1e-6 * want, f"crc32c-sse42 = a page's crc32q chain less the calls' overlap: {got} vs {want}")
# The clock is the core's: crc32q's latency is 3 cycles on every x86-64 with
# SSE4.2 (Nehalem on, Zen on); a chain the CPU shortcuts (Golden Cove
# resolves adds of an immediate in the renamer) made it read 11.6 here.
if lim["crc32q_latency_cycles"]["measured"]:
    got = lim["crc32q_latency_cycles"]["value"]
    check(2 <= got <= 5, f"crc32q latency in core cycles near 3: {got}")
    # Never faster than the port; slower than the latency only where its
    # loads are not plain (a sanitizer's checks), and then no overlap is taken.
    page = lim["crc32q_page_chain_cycles"]
    check(page["measured"] and 0.9 * lim["crc32q_throughput_cycles"]["value"] <= page["value"],
          f"a page's chain no faster than the port: {page['value']}")
for name in ("jhash2", "xxh64"):
    check(by[name]["ceiling_bytes_per_second"] is None and "not modelled" in by[name]["limited_by"],
          f"{name}: not modelled")

rc, out, _ = run("ceiling", "--repeat", "2", "--page-size", "256")
lines = out.splitlines()
m = re.search(r", best of (\d+) rounds( \((\d+) on a shared core, out of the spread\))?, largest spread",
              lines[0] if lines else "")
check(rc == 0 and lines[0].startswith("ceiling: ") and m and int(m.group(1)) >= 2
      and re.search(r"\), CPU \d+ pinned \((fastest allowed|only allowed|--cpu)\), ", lines[0])
      and int(m.group(3) or 0) < int(m.group(1)), f"table header: {lines[:1]}")
check(any(line.startswith("core clock") and "GHz" in line for line in lines), "table shows the core clock")
check("ceilings at 256 B per call" in out and "LIMITED BY" in out, "table shows the ceilings at the page size")
# -o: the same document, written atomically; nothing on stdout.
import os
import tempfile
path = os.path.join(tempfile.mkdtemp(prefix="ksmbench-ceiling-"), "c.json")
rc, out, err = run("ceiling", "--repeat", "1", "--format", "json", "-o", path)
saved = json.load(open(path)) if os.path.exists(path) else {}
check(rc == 0 and out == "" and set(saved) == set(doc) and saved["repeats"] == 1, f"ceiling -o FILE: {err!r}")
os.unlink(path)
check_usage_error(["ceiling", "-o", "/nonexistent/dir/c.json"], "/nonexistent/dir", "unwritable -o")
check_usage_error(["ceiling", "--format", "csv"], "(table or json)", "formats named from the registry")
rc, out, _ = run("ceiling", "--help")
check(rc == 0 and "usage: ksmbench ceiling" in out, "ceiling --help")
check_usage_error(["ceiling", "--format", "xml"], "unknown format", "bad format")
check_usage_error(["ceiling", "--repeat", "0"], "repeat", "repeat 0")
check_usage_error(["ceiling", "--repeat", "40"], "at most 31", "repeat 40")
# One bound for every value past it: from 1001 it named bench's 1000.
for many in ("32", "1001", "4294967296"):
    check_usage_error(["ceiling", "--repeat", many], f"ceiling: --repeat: '{many}' is too large (at most 31)",
                      f"repeat {many}: the bound is 31")
check_usage_error(["ceiling", "--page-size", "63"], "page", "page size 63")
check_usage_error(["ceiling", "extra"], "unexpected argument", "extra argument")
finish("ceiling")
