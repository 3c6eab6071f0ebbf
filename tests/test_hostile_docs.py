"""CLI tests for results documents crafted as an attacker would: strings
that carry markup or terminal control sequences (compare's every format,
plot's SVG parsed by an XML parser), and, read back, numbers out of range,
trailing garbage and oversized input. Each must be shown, never obeyed, or
refused with one error line and exit 2."""
import json
import os
import xml.etree.ElementTree as ET

from clitest import BIN, INSTRUMENTED, run, check, check_usage_error, temp_file, finish

G = 1e9
EVIL = "X<script>alert(1)</script>\n### ksmbench compare: 0 regressions\n\x1b[2J\x1b]0;pwn\x07|`#"


def result(hash_="xxh64", rate=10 * G, page=4096, **over):
    rounds = [rate * f for f in (0.99, 1.0, 1.01, 1.0, 0.995)]
    r = {"hash": hash_, "implementation": hash_, "data": "random", "cache": "hot", "page_size_bytes": page,
         "misalign_bytes": 0, "timer": "window", "repeats": len(rounds), "bytes_per_second_best": max(rounds),
         "bytes_per_second_median": rate, "ns_per_page_best": page * 1e9 / max(rounds),
         "ns_per_page_median": page * 1e9 / rate, "ns_per_page_min": page * 1e9 / max(rounds),
         "ns_per_page_max": page * 1e9 / min(rounds), "interrupted": False, "bytes_per_second_rounds": rounds}
    r.update(over)
    return r


def doc(*results, brand="Test CPU", git="abc", date="2026-11-30T12:00:00Z"):
    return {"schema": "ksmbench-results/1", "interrupted": False,
            "context": {"date": date, "git_revision": git, "cpu": {"brand": brand}},
            "results": list(results)}


made = []


def write(d, raw=None):
    made.append(temp_file(raw if raw is not None else json.dumps(d).encode(), suffix=".json"))
    return made[-1]


def no_controls(text, what, allowed="\n"):
    """Nothing a terminal obeys: no C0 control but newline, no DEL, no C1."""
    bad = [c for c in text if (ord(c) < 0x20 and c not in allowed) or 0x7f <= ord(c) <= 0x9f]
    check(not bad, f"{what}: control characters reach the output: {bad[:5]!r}")


# --- Markup and control sequences in every string compare prints
hostile = dict(hash=EVIL, cache=EVIL, timer=EVIL, data=EVIL)
base = write(doc(result(), result(**hostile), result("only-base" + EVIL), brand=EVIL, git=EVIL, date=EVIL))
new = write(doc(result(rate=5 * G), result(**hostile), result("only-new" + EVIL), brand=EVIL, git=EVIL,
                date=EVIL))
for fmt in ("table", "markdown", "json"):
    rc, out, err = run("compare", base, new, "--format", fmt)
    # Version-1 documents count as one process a side: inconclusive (3).
    check(rc == 3, f"compare --format {fmt} of hostile documents: rc={rc} err={err!r}")
    no_controls(out, f"compare --format {fmt}", "\n\t" if fmt == "json" else "\n")
    if fmt == "json":
        def strings(v):
            if isinstance(v, dict):
                return [s for x in v.values() for s in strings(x)]
            return [s for x in v for s in strings(x)] if isinstance(v, list) else [v]
        # JSON's own escaping carries the strings whole.
        check(EVIL in strings(json.loads(out)), "compare json keeps the strings as they are")
        continue
    lines = out.splitlines()
    heads = [l for l in lines if l.startswith("#")]
    if fmt == "markdown":
        check(len(heads) == 1 and heads[0].startswith("### ksmbench compare: "),
              f"markdown: one heading, none forged: {heads!r}")
        check("<script>" not in out and "\\<script\\>" in out, "markdown: the tag escaped")
        rows = [l for l in lines if l.startswith("| ")]
        check(rows and all(l.count("|") - l.count("\\|") == 12 for l in rows),
              f"markdown: every table row has 11 cells: {rows!r}")
        check(not any(l.startswith("#") or l.startswith("\\#") for l in lines[1:]),
              "markdown: no line starts a heading")
    else:
        check(all(l.startswith("# base ") or l.startswith("# new ") for l in heads),
              f"table: only the two context lines start with '#': {heads!r}")
        check("\\x1b[2J" in out and "\\x0a### ksmbench" in out, "table: the escape and newline shown as codes")
        check(sum(1 for l in lines if l.startswith("only in ")) == 2, "table: one line per result only in one")

# --- plot: the SVG holds no element but the chart's own
rc, svg, err = run("plot", base, "--title", "T<i>" + EVIL)
check(rc == 0, f"plot of a hostile document: rc={rc} err={err!r}")
try:
    root = ET.fromstring(svg)
    tags = {e.tag.split("}")[-1] for e in root.iter()}
    check(tags <= {"svg", "style", "defs", "pattern", "rect", "text", "line", "path", "title"}, f"plot: elements {tags!r}")
    texts = "".join(root.itertext())
    check("<script>" in texts and "alert(1)" in texts, "plot: the brand is shown as text")
    cache = {e.get("data-cache") for e in root.iter() if e.get("data-cache")}
    check(any("<script>" in c for c in cache), f"plot: data-cache holds the string as a value: {cache!r}")
except ET.ParseError as e:
    check(False, f"plot: the SVG does not parse: {e}: {svg[:300]!r}")
no_controls(svg, "plot")

# --- GitHub Actions' workflow commands: its runner obeys "::" starting a
# line of a step's output (after white space, Unicode's too) and "##["
# anywhere in one. A name that starts a table's row carried one into a CI
# log (until 2026-12-07): no output, error line or SVG holds either.
CMD = "::error title=x::pwn ##[warning]y"
WHITE = " \t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"


def no_commands(text, what):
    bad = [l for l in text.splitlines() if l.lstrip(WHITE).startswith("::") or "##[" in l]
    check(not bad, f"{what}: a line a GitHub runner obeys: {bad[:3]!r}")


named = [result(n, data=CMD, cache=CMD, timer=CMD) for n in ("::error::a", " \u3000::error::b", "x ##[error]c")]
base = write(doc(*named, result("only" + CMD), brand=CMD, git=CMD, date=CMD))
new = write(doc(*[dict(r, implementation=CMD) for r in named], brand=CMD, git=CMD, date=CMD))
for fmt in ("table", "markdown", "json"):
    rc, out, err = run("compare", base, new, "--format", fmt)
    check(rc == 0, f"compare --format {fmt} of names holding commands: rc={rc} err={err!r}")
    no_commands(out + err, f"compare --format {fmt}")
    if fmt == "json":
        got = json.loads(out)
        check(sorted(c["hash"] for c in got["comparisons"]) == sorted(r["hash"] for r in named)
              and got["comparisons"][0]["data"] == CMD, "compare json: the names read back whole")
rc, svg, err = run("plot", base, new)
check(rc == 0, f"plot of names holding commands: rc={rc} err={err!r}")
no_commands(svg, "plot")
check(CMD in "".join(ET.fromstring(svg).itertext()), "plot: the name shown as it is")
bad_schema = write(dict(doc(result()), schema="\n" + CMD))
rc, out, err = run("compare", base, bad_schema)
check(rc == 2 and len(err.splitlines()) == 1, f"a schema holding commands refused: rc={rc} {err!r}")
no_commands(err, "compare's error line")

# --- Results matched by their whole names: a string holding the key's
# separator (JSON's \u001f), or a timer alike in its first 40 bytes, made
# two results one (until 2026-12-08): refused as "the same thing" twice in
# one file, matched across two.
for one, two in ((dict(hash_="a", data="b\x1fc"), dict(hash_="a\x1fb", data="c")),
                 (dict(timer="t" * 40 + "A"), dict(timer="t" * 40 + "B"))):
    both = write(doc(result(**one), result(**two)))
    rc, out, err = run("compare", both, both, "--format", "json")
    check(rc == 0 and len(json.loads(out)["comparisons"]) == 2, f"two results told apart: {one} {two}: rc={rc} {err!r}")
    rc, out, err = run("compare", write(doc(result(**one))), write(doc(result(rate=5 * G, **two))))
    check(rc == 2 and "no result of" in err, f"not matched across files: {one} {two}: rc={rc} {err!r}")

# --- A dataset's name longer than a cell's room (512 bytes; bench writes at
# most 300): it was cut at the room's last byte, inside a UTF-8 sequence,
# which compare's JSON then spelled "\\xc3" (until 2026-12-08).
long_name = write(doc(result(data="file:/x/a" + "\u00e9" * 300)))
rc, out, err = run("compare", long_name, long_name, "--format", "json")
name = json.loads(out)["comparisons"][0]["data"] if rc == 0 else ""
check(rc == 0 and "\\x" not in name and "..." in name and name.startswith("file:a\u00e9")
      and name.endswith("\u00e9" * 100) and len(name.encode()) < 512, f"a long dataset name cut in its middle: rc={rc} {name[:40]!r}")

# --- Numbers out of their fields' ranges: refused by plot and compare alike
good = write(doc(result()))
bad_numbers = [
    ("ns_per_page_min", 1e-320, "not 0 or a number from 1e-06 to 1e+15"),  # an infinite rate
    ("ns_per_page_max", 1e300, "ns_per_page_max"),
    ("misalign_bytes", 1e30, "not an integer from 0 to 1e+09"),            # a float-cast overflow
    ("repeats", 1e30, "repeats"),
    ("page_size_bytes", 0, "page_size_bytes"),
    ("page_size_bytes", 4096.5, "page_size_bytes"),
    ("bytes_per_second_median", 1e16, "bytes_per_second_median"),
    ("bytes_per_second_best", -1, "bytes_per_second_best"),
    ("bytes_per_second_rounds", [1e9, 1e300], "bytes_per_second_rounds[1] is not a number from 0 to 1e+15"),
    # A process's value of 0 made compare's interval fail and a 20% loss "noise" (exit 0).
    ("bytes_per_second_processes", [1e10, 0.0], "bytes_per_second_processes[1] is not a number from 1 to 1e+15"),
    ("bytes_per_second_processes", [1e300], "bytes_per_second_processes[0]"),
    # Rounds and the context are read by compare from the JSON itself: checked as they are read.
    ("rounds", [{"effective_clock_hz": 3e9}, {"effective_clock_hz": 1e300}],
     'results[0].rounds[1]: "effective_clock_hz" is missing or not a number from 1e+06 to 1e+12'),
    ("rounds", [{"other_cpus_busy_share": 2}], "results[0].rounds[0]: \"other_cpus_busy_share\""),
    ("rounds", [{"core_throughput_adds_per_ns": -1}], "\"core_throughput_adds_per_ns\""),
    ("rounds", ["x"], "results[0].rounds[0] is not an object"),
]
for field, value, needle in bad_numbers:
    path = write(doc(result(**{field: value})))
    check_usage_error(["plot", path], needle, f"plot refuses {field}={value!r}")
    check_usage_error(["compare", good, path], needle, f"compare refuses {field}={value!r}")
ctx = doc(result())
ctx["context"]["reference_clock_hz"] = 1e300
check_usage_error(["compare", good, write(ctx)], 'context: "reference_clock_hz" is missing or not a number from 1e+06',
                  "compare refuses a context clock of 1e300")
for bad in (2000, -1, "18"):
    ctx = doc(result())
    ctx["context"]["free_core_adds_per_cycle"] = bad
    check_usage_error(["compare", good, write(ctx)], 'context: "free_core_adds_per_cycle" is missing or not a number '
                      'from 0 to 1000', f"compare refuses a free core of {bad!r} additions a cycle")
# Python writes what JSON cannot hold as bare words: not JSON at all.
path = write(None, json.dumps(doc(result(ns_per_page_min=float("inf")))).encode())
check_usage_error(["plot", path], "not a JSON document", "plot refuses Infinity")
# A key given twice in one object is refused, wherever it is: cJSON kept
# the first "results", and the document read as if the second were not there.
text = json.dumps(doc(result())).encode()
median = b'"bytes_per_second_median": '
for what, raw in (("results", text[:-1] + b', "results": []}'),
                  ("bytes_per_second_median", text.replace(median, median + b"1, " + median)),
                  ("brand", text.replace(b'"brand": ', b'"brand": "x", "brand": '))):
    path = write(None, raw)
    for cmd in (["compare", good, path], ["plot", path]):
        check_usage_error(cmd, f'the key "{what}" is given twice in one object', f"{cmd[0]}: {what} given twice")
# A NUL in a string ended cJSON's C string: "xxh64\u0000x" was compared as
# xxh64 (until 2026-12-07). Neither it nor a raw control character, which
# JSON does not allow in a string and cJSON took, is read.
base_raw = json.dumps(doc(result())).encode()
for what, raw, needle in (
        ("\\u0000 in a hash", base_raw.replace(b'"hash": "xxh64"', b'"hash": "xxh64\\u0000x"'),
         "a string holds \\u0000"),
        ("\\u0000 in a key", base_raw.replace(b'"results"', b'"results\\u0000"'), "a string holds \\u0000"),
        ("a raw NUL in a hash", base_raw.replace(b'"hash": "xxh64"', b'"hash": "xxh64\0x"'),
         "control character 0x00 in a string"),
        ("a raw newline in a brand", base_raw.replace(b'"brand": "Test CPU"', b'"brand": "Test\nCPU"'),
         "control character 0x0a in a string")):
    path = write(None, raw)
    check(raw != base_raw, f"{what}: the document changed")
    for cmd in (["compare", good, path], ["plot", path]):
        check_usage_error(cmd, needle, f"{cmd[0]}: {what} refused")
# The text \u0000 (its backslash escaped) is no NUL.
rc, out, err = run("compare", good, write(doc(result(), result("xxh64\\u0000"))), "--format", "json")
check(rc == 0 and json.loads(out)["only_in_new"][0]["hash"] == "xxh64\\u0000",
      f"an escaped backslash before u0000 is text: rc={rc} {err!r}")
# Memory that runs out while the document is parsed is said as such, not as
# text that is not JSON (not where a sanitizer maps the address space).
if not INSTRUMENTED:
    import resource
    import subprocess
    big = write(doc(*[result(f"h{i}") for i in range(30000)]))
    limit = 64 << 20
    p = subprocess.run([BIN, "plot", big, "-o", "/dev/null"], capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and "out of memory reading it" in p.stderr,
          f"a document too large for the memory left: rc={p.returncode} {p.stderr!r}")
# A rate of 0 is a result with none (its rounds faster than the timer
# resolved): read, compared as inconclusive, drawn without a NaN.
norate = write(doc(result(bytes_per_second_median=0, bytes_per_second_best=0)))
rc, out, err = run("compare", good, norate, "--format", "json")
c = json.loads(out)["comparisons"][0] if rc == 3 else {}
check(rc == 3 and c.get("verdict") == "inconclusive" and "no rate in the new run" in c.get("reason", "")
      and c.get("change_percent", 0) is None, f"compare of a result with no rate: rc={rc} {err!r} {c}")
rc, svg, err = run("plot", norate)
check(rc == 0 and "nan" not in svg.lower() and "inf" not in svg, f"plot of a result with no rate: rc={rc} {err!r}")
# A jiffies result has no time per page: 0 is allowed.
rc, svg, err = run("plot", write(doc(result(ns_per_page_min=0, ns_per_page_max=0))))
check(rc == 0 and "nan" not in svg and "inf" not in svg, f"plot of zero times: rc={rc} err={err!r}")

# --- Nesting past the parser's limit (1000 levels): said as such, in a
# string it does not count
deep = write(None, b'{"a": "[[[[", "b": ' + b"[" * 5000 + b"]" * 5000 + b"}")
check_usage_error(["compare", deep, good], "JSON nested deeper than 1000 levels", "compare: nested too deep")
check_usage_error(["plot", deep], "nested deeper than 1000 levels (at byte 1018)", "plot: nested too deep, where")

# --- Nothing after the document but white space
text = json.dumps(doc(result())).encode()
check(run("plot", write(None, text + b" \n\t\r\n"))[0] == 0, "trailing white space is accepted")
for tail, what in ((b"x", "a word"), (b"{}", "a second document"), (b"\0", "a NUL byte"),
                   (b"\n]", "a bracket")):
    check_usage_error(["plot", write(None, text + tail)], "trailing data after the JSON document",
                      f"plot refuses {what} after the document")
    check_usage_error(["compare", good, write(None, text + tail)], "trailing data",
                      f"compare refuses {what} after the document")

# --- Input limits: bytes, JSON values, array elements (docs/input-limits.md)
big = write(None, text[:-1] + b', "pad": "' + b"a" * (16 << 20) + b'"}')
check_usage_error(["plot", big], "is larger than 16777216 bytes", "plot refuses a document over 16 MiB")
with open(big, "rb") as f:
    check_usage_error(["plot", "-"], "is larger than 16777216 bytes", "plot refuses 16 MiB from a pipe",
                      stdin=f.read())
zeros = write(None, text[:-1] + b', "pad": [' + b"0," * 1000000 + b'0]}')
check_usage_error(["plot", zeros], "more than 1000000 JSON values", "plot refuses a million values")
rounds = write(doc(result(bytes_per_second_rounds=[1e9] * 200001)))
check_usage_error(["compare", rounds, good], "\"bytes_per_second_rounds\" has more than 200000 elements",
                  "compare refuses more than 200000 rounds")
many = write(doc(*[result(f"h{i}") for i in range(3000)]))
rc, svg, err = run("plot", many, timeout=60)
check(rc == 0 and svg.count("<rect class=\"bar\"") + svg.count("data-hash=") >= 3000,
      f"plot of 3000 results: rc={rc} err={err[:200]!r}")

for p in made:
    os.unlink(p)
finish("hostile_docs")
