"""CLI tests for plot's thread panels and runs side by side, on crafted
documents (one short bench run dressed as thread runs): two panels with
their own axes, the thread's published figures as hatched bars, a legend,
foreign strings escaped, several files side by side, bad input refused with
one line and no output file, and the chart rendered to PNG by rsvg-convert
(librsvg2-bin; the PNG checks are skipped where it is not installed)."""
import copy
import json
import os
import shutil
import struct
import subprocess
import tempfile
import xml.etree.ElementTree as ET

from clitest import run, check, check_usage_error, temp_file, finish

SVG = "{http://www.w3.org/2000/svg}"
# The thread's figures (report/thread.c: thread_published): self-test MB/s
# on the Xeon E5-2420 v2, sioh Lee's ksmd ns/page as posted.
PUBLISHED_MB = {"crc32c": 12081, "xxh64": 8770, "xxh32": 4529, "jhash2": 1569}
PUBLISHED_NS = {"crc32c": "1084.10", "crc32c-generic": "7012.51", "xxh32": "2227.75", "xxh64": "1413.16",
                "jhash2": "5128.30"}
ROWS = [("crc32c", "crc32c-3way", True, 14927, 1082.2), ("xxh64", "xxh64", True, 4664, 1035.6),
        ("xxh32", "xxh32", True, 2577, 1530.1), ("jhash2", "jhash2", True, 2168, 2272.9),
        ("crc32c-generic", "crc32c-generic", True, 1055, 2779.9), ("xxh3-avx2", "xxh3-avx2", False, 14478, 639.1),
        ("crc32c-isal", "crc32c-isal", False, 15882, 1230.2), ("crc32c-fused-avx2", "crc32c-fused-avx2", False, 21931,
                                                               716.5)]

tmp = tempfile.mkdtemp(prefix="ksmbench-plot-")
rc, out, err = run("bench", "-H", "xxh64", "--window", "2ms", "--repeat", "1", "--format", "json")
check(rc == 0, f"bench for the crafted documents: rc={rc} err={err!r}")
bench = json.loads(out)


def thread_doc(brand, git, rows=ROWS):
    d = copy.deepcopy(bench)
    d["context"]["cpu"]["brand"] = brand
    d["context"]["git_revision"] = git
    d["thread"] = {"rows": [{"hash": h, "implementation": i, "in_kernel": k, "kernel_mb_per_s_here": mb,
                             "ns_per_page_here": ns} for h, i, k, mb, ns in rows]}
    return d


def write(name, doc):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def texts(root):
    return [t.text or "" for t in root.iter(SVG + "text")]


a = write("a.json", thread_doc("Test CPU A", "1111111"))
b_rows = [r if r[0] != "xxh3-avx2" else ("xxh3-avx512", "xxh3-avx512", False, 30000, 500.0) for r in ROWS]
b = write("b.json", thread_doc('Evil <CPU> & "co"', "2222222\u202e", b_rows))

# --- one thread run: two panels, own axes, hatched published bars, legend
svg = os.path.join(tmp, "one.svg")
rc, out, err = run("plot", a, "-o", svg)
check(rc == 0 and out == "" and err == "", f"plot a thread run: rc={rc} err={err!r}")
root = ET.parse(svg).getroot()
t = texts(root)
panels = [x.text for x in root.iter(SVG + "text") if x.get("class") == "panel"]
check(len(panels) == 2 and "kernel MB/s (count*4096>>17)" in panels[0] and "ns per page" in panels[1],
      f"two panels titled: {panels}")
axis_titles = [x.text for x in root.iter(SVG + "text") if x.get("class") == "axis-title"]
check(axis_titles == ["kernel MB/s (count*4096>>17)", "ns per page in ksmd's pattern (median)"],
      f"each panel its own axis title: {axis_titles}")
check(len([x for x in root.iter(SVG + "line") if x.get("class") == "axis"]) == 4, "two axes per panel")
legend = [x.text for x in root.iter(SVG + "text") if x.get("class") == "legend"]
check(len(legend) == 2 and legend[0].startswith("Test CPU A, git 1111111")
      and legend[1] == "published in the linux-mm thread (2017-2018)", f"legend: {legend}")
check(any("Xeon E5-2420 v2" in x for x in t) and any("sioh Lee" in x and "Xeon E5-2620 v3" in x for x in t),
      "the published figures' machines named")
labels = [x.text for x in root.iter(SVG + "text") if x.get("class") == "label"]
for h, impl, *_ in ROWS:
    check(sum(1 for x in labels if x.split(" ")[0] == h) == 2, f"{h} labelled in both panels")
check("crc32c (crc32c-3way)" in labels, "the kernel's crc32c names what was measured")
groups = [x.text for x in root.iter(SVG + "text") if x.get("class") == "group"]
check(groups == ["What the kernel can run", "Contenders outside the kernel"] * 2, f"blocks: {groups}")
bars = [x for x in root.iter(SVG + "rect") if x.get("class") == "bar"]
check(len(bars) == 2 * len(ROWS), f"a bar per row and panel: {len(bars)}")
pub = [x for x in root.iter(SVG + "rect") if x.get("class") == "published"]
check(all(x.get("fill") == "url(#hatch)" for x in pub) and root.find(f".//{SVG}pattern[@id='hatch']") is not None,
      "published bars hatched")
pub_mb = {x.get("data-hash").split(" ")[0]: float(x.get("data-value")) for x in pub
          if x.get("data-panel") == "kernel-mb"}
pub_ns = {x.get("data-hash").split(" ")[0]: x.get("data-value") for x in pub if x.get("data-panel") == "ksmd-ns"}
check(pub_mb == PUBLISHED_MB, f"the thread's self-test figures: {pub_mb}")
check(pub_ns == PUBLISHED_NS, f"sioh Lee's ns/page: {pub_ns}")
for v in list(PUBLISHED_NS.values()) + [str(v) for v in PUBLISHED_MB.values()]:
    check(any(x.startswith(v + " (thread)") for x in t), f"published {v} written at its bar")
# Bars of one panel share its axis: widths proportional to the values.
mb = {x.get("data-hash").split(" ")[0]: (float(x.get("width")), float(x.get("data-value"))) for x in bars
      if x.get("data-panel") == "kernel-mb"}
check(abs(mb["xxh64"][0] / mb["jhash2"][0] - 4664 / 2168) < 0.01, "self-test bars proportional")
check(abs(float(pub[0].get("width")) / mb["crc32c"][0] - 12081 / 14927) < 0.01, "published bar on the same axis")

# --- two runs side by side: a colour each, labels escaped
svg2 = os.path.join(tmp, "two.svg")
rc, out, err = run("plot", a, b, "-o", svg2, "--title", "A & B <two>")
check(rc == 0 and err == "", f"plot two runs: rc={rc} err={err!r}")
raw = open(svg2, encoding="utf-8").read()
root = ET.fromstring(raw)
legend = [x.text for x in root.iter(SVG + "text") if x.get("class") == "legend"]
check(len(legend) == 3 and legend[0].endswith(" - a.json") and legend[1].startswith('Evil <CPU> & "co", git 2222222')
      and legend[1].endswith(" - b.json"), f"legend of two runs: {legend}")
check("Evil &lt;CPU&gt; &amp; &quot;co&quot;" in raw and "\u202e" not in raw and "\\u202e" in raw.lower(),
      "foreign strings escaped, a bidi override made visible")
check("A &amp; B &lt;two&gt;" in raw, "title escaped")
# A title longer than the chart is wide ran off its right edge, cut (until
# 2026-12-07): it is fitted to the width; a short one is left as it is.
for doc in (a, write("bench.json", bench)):
    for title, fitted in (("PR 1234: crc32c " + "prefetch " * 12 + "against main", True), ("short", False)):
        rc, out, err = run("plot", doc, "--title", title)
        node = next((x for x in ET.fromstring(out).iter(SVG + "text") if x.get("class") == "title"), None) \
            if rc == 0 else None
        scale = (node.get("transform") or "").partition("scale(")[2].split(" ")[0] if node is not None else ""
        check(node is not None and node.text == title
              and (0 < float(scale or 0) < 1 if fitted else node.get("transform") is None),
              f"--title of {len(title)} characters {'fitted to' if fitted else 'within'} the width: rc={rc} {err!r}")
bars = [x for x in root.iter(SVG + "rect") if x.get("class") == "bar"]
check(len(bars) == 2 * (2 * len(ROWS)), f"a bar per run, row and panel: {len(bars)}")
check({x.get("fill") for x in bars if x.get("data-run") == "0"} != {x.get("fill") for x in bars
                                                                      if x.get("data-run") == "1"},
      "a colour per run")
labels = [x.text for x in root.iter(SVG + "text") if x.get("class") == "label"]
check("xxh3-avx2" in labels and "xxh3-avx512" in labels, "rows of either run")
check(sum(1 for x in texts(root) if x == "not in this run") == 4, "a row a run lacks says so")

# --- a thread run whose ksmd style called back to back (before December
# 2026, or --back-to-back) says so in its legend entry; one apart does not.
for apart, said in ((False, True), (True, False)):
    d = thread_doc("Test CPU C", "3333333")
    d["results"][0]["timer"] = "ksmd"
    d["results"][0]["calls_apart"] = apart
    rc, out, err = run("plot", write("c.json", d))
    legend = [x.text for x in ET.fromstring(out).iter(SVG + "text") if x.get("class") == "legend"] if rc == 0 else []
    check(rc == 0 and legend and ("ksmd calls back to back" in legend[0]) == said,
          f"ksmd apart {apart}: the legend {'says' if said else 'does not say'} back to back: {legend} {err!r}")

# --- bench documents side by side
benchpath = write("bench.json", bench)
rc, out, err = run("plot", benchpath, benchpath)
root = ET.fromstring(out) if rc == 0 else None
check(rc == 0 and len([x for x in root.iter(SVG + "rect") if x.get("class") == "bar"]) == 2 * len(bench["results"])
      and len([x for x in root.iter(SVG + "text") if x.get("class") == "legend"]) == 2,
      f"two bench documents side by side: rc={rc} err={err!r}")

# --- PNG: rendered, of the SVG's size
png = os.path.join(tmp, "two.png")
if shutil.which("rsvg-convert"):
    p = subprocess.run(["rsvg-convert", svg2, "-o", png], capture_output=True, timeout=60)
    data = open(png, "rb").read() if p.returncode == 0 else b""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"rsvg-convert renders a PNG: {p.stderr[:200]!r}")
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        width, height = struct.unpack(">II", data[16:24])
        check(width == 960 and height == int(float(root_h := ET.parse(svg2).getroot().get("height"))),
              f"PNG {width}x{height}, SVG height {root_h}")
        check(len(data) > 20000, f"PNG holds a drawing: {len(data)} bytes")
else:
    print("SKIP plot PNG checks: rsvg-convert not installed (scripts/install-deps.sh --test installs librsvg2-bin)")

# --- bad input: one line, exit 2, no output file
out_svg = os.path.join(tmp, "bad.svg")
check_usage_error(["plot", a, benchpath, "-o", out_svg], "no common axis", "a thread run mixed with bench results")
d = thread_doc("x", "y")
d["thread"]["rows"] = {"hash": "x"}
check_usage_error(["plot", write("rows.json", d), "-o", out_svg], "\"rows\" is missing or not an array",
                  "thread rows not an array")
d = thread_doc("x", "y")
d["thread"]["rows"][0]["kernel_mb_per_s_here"] = -5
check_usage_error(["plot", write("neg.json", d), "-o", out_svg], "kernel_mb_per_s_here", "a negative MB/s")
d = thread_doc("x", "y")
d["thread"]["rows"][1]["ns_per_page_here"] = "fast"
check_usage_error(["plot", write("str.json", d), "-o", out_svg], "ns_per_page_here", "ns/page not a number")
d = thread_doc("x", "y", [(f"h{i}", f"h{i}", True, 1, 1.0) for i in range(65)])
check_usage_error(["plot", write("many.json", d), "-o", out_svg], "more than 64 thread rows", "too many rows")
d = thread_doc("x", "y", [])
check_usage_error(["plot", write("none.json", d), "-o", out_svg], "no rows", "a thread object without rows")
d = thread_doc("x", "y")
d["thread"] = [1]
check_usage_error(["plot", write("arr.json", d), "-o", out_svg], "\"thread\" is not an object", "thread not an object")
check_usage_error(["plot"] + [a] * 9 + ["-o", out_svg], "at most 8 runs", "more runs than colours")
check(not os.path.exists(out_svg), "no SVG left after a refused plot -o")

shutil.rmtree(tmp)
finish("plot")
