"""The README's doc test: every shell block marked as an example
(```sh example, optionally followed by needs=WHAT[,WHAT]) is run, line by
line, with bash in one temporary directory shared by all blocks (so a later
block may use a file an earlier one wrote), and removed at the end.

- `ksmbench` is the binary under test, first on PATH through a wrapper that
  inserts short timing options right after the command name (FAST below:
  2 ms windows, 1 MiB cold sets, two measuring processes, `verify --quick`,
  no ceiling probes), so
  the examples run as written in seconds; options a line gives itself come
  later and win. Plain `ksmbench` runs `ksmbench thread` with them (plain
  ksmbench is thread: tests/test_cli_basics.py checks that). Where fork()
  hangs (qemu-i386) they measure in one process (--processes 1).
- `$PID` is a child process holding duplicated pages in MADV_MERGEABLE
  memory, started by this test and killed at the end.
- Each line must exit 0, or with the status its comment ends with:
  `# ... (exit 1)`, `# ... (exit 0 or 1)`, `# ... (exit 0, 1 or 3)`.
- Where a ksmbench line says `--format json|gha|csv|tsv` (or `plot`), its
  output must parse: the `-o FILE`, else standard output when the line has
  no pipe or redirection. JSON must parse, CSV/TSV rows must all have the
  header's number of fields, an SVG must be XML.
- needs=capture: skipped under qemu-user (KSMBENCH_TEST_EMULATED);
  needs=ksm: /sys/kernel/mm/ksm must exist (the examples only read it);
  needs=qemu: a running qemu-system-x86_64 process.
Also: the README has at most 300 lines, every relative link names an
existing file, and every in-page link (#anchor) a heading; the relative
links of docs/*.md name existing files; every source file and C name
docs/architecture.md quotes (in backticks) is in the tree."""
import csv
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import ksm_guard
from clitest import BIN, FORKS, MEASURING, check, finish, markdown_anchors

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
EMULATED = bool(os.environ.get("KSMBENCH_TEST_EMULATED"))
FAST = {
    "bench": "--no-ceiling --window 2ms --repeat 2 --processes 2",
    "thread": "--no-ceiling --window 2ms --repeat 1 --working-set 1M --processes 2",
    "select": "--no-ceiling --processes 2 -H jhash2,xxh64,crc32c",  # every hash: 7 s
    "scan": "--window 2ms --repeat 1 --working-set 1M --sample-pages 64",
    "ceiling": "--repeat 1",
    "verify": "--quick",
}
if not FORKS:  # qemu-i386 hangs in fork(): measure in the one process there
    for c in MEASURING:
        FAST[c] = FAST[c].replace("--processes 2", "--processes 1")
WRAPPER = """#!/bin/sh
# doc-test wrapper: short timing options after the command name
bin=%s
case "$1" in
%s
"") exec "$bin" thread %s ;;
esac
exec "$bin" "$@"
"""
CHILD = r"""
import mmap, os, sys, time
ps = mmap.PAGESIZE
m = mmap.mmap(-1, 64 * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
m.madvise(mmap.MADV_MERGEABLE)
for k in range(64):
    m[k * ps:(k + 1) * ps] = (b"ab"[k % 2:k % 2 + 1] * ps) if k < 48 else bytes(ps)
print("ready", flush=True)
time.sleep(600)
"""

text = open(README).read()
lines = text.split("\n")
if lines and lines[-1] == "":
    lines.pop()
check(len(lines) <= 300, f"README has {len(lines)} lines (at most 300)")


# --- links: relative files exist, in-page anchors name a heading
def check_links(where, body, base):
    """Every relative link of body names an existing file (relative to base),
    and its #anchor a heading there (of body itself when the path is empty)."""
    links = re.findall(r"\]\(([^)\s]+)\)", body)
    for link in links:
        if re.match(r"[a-z]+://", link):
            continue
        path, _, anchor = link.partition("#")
        target = os.path.join(base, path)
        exists = os.path.exists(target)
        if path:
            check(exists, f"{where}: link {link}: {path} exists")
            if not exists:
                continue
        if anchor and (not path or target.endswith(".md")):
            heads = markdown_anchors(open(target).read() if path else body)
            check(anchor in heads, f"{where}: link {link}: #{anchor} names a heading")
    return links


check(check_links("README", text, ROOT) != [], "the README has links")
# the pages the README points to: their relative links too
for doc in sorted(os.listdir(os.path.join(ROOT, "docs"))):
    if doc.endswith(".md"):
        check_links(f"docs/{doc}", open(os.path.join(ROOT, "docs", doc)).read(), os.path.join(ROOT, "docs"))


# --- docs/architecture.md maps the code: every .c/.h file it quotes in
# backticks exists (a bare name somewhere in the source folders), and
# every C name it quotes (snake_case or UPPER_CASE) is a word of the source,
# so a rename or a removal the page missed shows here. A placeholder such
# as report/format_NAME.c is left alone.
source = {}
for folder in ("bench", "cmd", "common", "datasets", "hashes", "report", "scan"):
    for name in os.listdir(os.path.join(ROOT, folder)):
        if name.endswith((".c", ".h")):
            with open(os.path.join(ROOT, folder, name)) as f:
                source[f"{folder}/{name}"] = f.read()
source_words = set(re.findall(r"\w+", "\n".join(source.values())))
source_names = {path.split("/")[-1] for path in source}
with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
    quoted = " ".join(re.findall(r"`([^`\n]+)`", f.read()))
SOURCE_FILE = r"(?<![\w./*-])[\w./-]+\.[ch](?![\w*])"
files = [p for p in sorted(set(re.findall(SOURCE_FILE, quoted))) if not re.search(r"[A-Z]{2,}", p)]
for path in files:
    check(os.path.exists(os.path.join(ROOT, path)) if "/" in path else path in source_names,
          f"docs/architecture.md: {path} exists")
c_names = sorted(set(re.findall(r"\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b",
                                re.sub(SOURCE_FILE, " ", quoted))))
for name in c_names:
    check(name in source_words, f"docs/architecture.md: {name} is in the source")
check(len(files) > 50 and len(c_names) > 100, f"docs/architecture.md quotes files and names: {len(files)}, {len(c_names)}")


# --- the example blocks
def example_blocks():
    """(needs, [command lines]) per block, backslash continuations joined."""
    blocks, cur, needs = [], None, None
    for line in lines:
        m = re.match(r"^```sh example(?:\s+needs=(\S+))?\s*$", line)
        if cur is None and m:
            cur, needs = [], set((m.group(1) or "").split(",")) - {""}
        elif cur is not None and line.startswith("```"):
            blocks.append((needs, cur))
            cur = None
        elif cur is not None:
            if cur and cur[-1].endswith("\\"):
                cur[-1] = cur[-1][:-1] + line
            elif line.strip():
                cur.append(line)
    return blocks


def skip_reason(needs):
    for need in sorted(needs):
        if need == "capture" and EMULATED:
            return "live capture under emulation (KSMBENCH_TEST_EMULATED)"
        if need == "ksm" and not os.path.isdir("/sys/kernel/mm/ksm"):
            return "no /sys/kernel/mm/ksm"
        if need == "qemu" and subprocess.run(["pidof", "-s", "qemu-system-x86_64"],
                                             capture_output=True).returncode != 0:
            return "no qemu-system-x86_64 process running"
        if need not in ("capture", "ksm", "qemu"):
            return f"unknown need {need!r}"
    return None


def expected_status(line):
    m = re.search(r"#.*\(exit ([\d, ]+?)(?: or (\d+))?\)\s*$", line)
    if not m:
        return {0}
    return {int(x) for x in re.findall(r"\d+", m.group(0).split("(exit")[1])}


def check_output(line, out, cwd):
    """Parses what a ksmbench line says it writes as JSON, CSV, TSV or SVG."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return
    if not words or words[0] != "ksmbench":
        return
    fmt = words[words.index("--format") + 1] if "--format" in words[:-1] else None
    if len(words) > 1 and words[1] == "plot":
        fmt = "svg"
    if fmt not in ("json", "gha", "csv", "tsv", "svg"):
        return
    target = None
    for flag in ("-o", "--output"):
        if flag in words[:-1]:
            target = words[words.index(flag) + 1]
    if target and target != "-":
        with open(os.path.join(cwd, target)) as f:
            data = f.read()
    elif any(w in ("|", ">", ">>") or w.startswith(">") for w in words):
        return
    else:
        data = out
    what = f"{line!r} writes {fmt}"
    try:
        if fmt in ("json", "gha"):
            doc = json.loads(data)
            check(isinstance(doc, (dict, list)) and doc, what)
        elif fmt == "svg":
            check(ET.fromstring(data).tag.endswith("svg"), what)
        else:
            rows = list(csv.reader(io.StringIO(data), delimiter="," if fmt == "csv" else "\t"))
            check(len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), what)
    except (ValueError, ET.ParseError) as e:
        check(False, f"{what}: {e}")


work = tempfile.mkdtemp(prefix="ksmbench-readme-")
bindir = os.path.join(work, ".bin")
os.mkdir(bindir)
cases = "\n".join(f'{c}) shift; exec "$bin" {c} {o} "$@" ;;' for c, o in FAST.items())
# bench takes a set size only where a set is cold (it refuses one that would change nothing).
cases = cases.replace('bench) shift;', 'bench) shift; case " $* " in *cold*|*--ksmd*) set -- --working-set 1M "$@" ;; '
                      'esac;')
with open(os.path.join(bindir, "ksmbench"), "w") as f:
    f.write(WRAPPER % (shlex.quote(BIN), cases, FAST["thread"]))
os.chmod(os.path.join(bindir, "ksmbench"), 0o755)
# (KSM-driving tests wait while the child's mergeable memory lives: ksm_guard)
with ksm_guard.mergeable_memory():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        check(child.stdout.readline().strip() == "ready", "the $PID child started")
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), PID=str(child.pid))
        env.pop("KSMBENCH_DISABLE", None)
        env.pop("KSMBENCH_CPU", None)
        blocks = example_blocks()
        check(len(blocks) >= 6, f"the README has example blocks: {len(blocks)}")
        ran = 0
        for needs, cmds in blocks:
            reason = skip_reason(needs)
            if reason:
                print(f"skipped ({reason}): {cmds}")
                continue
            for line in cmds:
                try:
                    p = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=work, env=env,
                                       capture_output=True, text=True, timeout=300)
                except subprocess.TimeoutExpired:
                    check(False, f"{line!r}: still running after 300 s")
                    continue
                want = expected_status(line)
                # `| head` may end the writer early: SIGPIPE (141) there is head's doing
                ok = p.returncode in want or (p.returncode == 141 and "| head" in line)
                check(ok, f"{line!r}: exit {p.returncode}, expected {sorted(want)}: {p.stderr[-400:]!r}")
                if ok:
                    check_output(line, p.stdout, work)
                ran += 1
        check(ran > 0, "some examples ran")
        print(f"{ran} example lines run")
    finally:
        child.kill()
        child.wait()
    shutil.rmtree(work)
finish("readme")
