"""Tests of what `make install` puts in place: the binary, the man page (it
renders without warnings, names every command and option the binary has,
each command's options in its section both ways, the JSON fields both ways
and the csv columns), the
bash completion (sourced in bash, its function called with COMP_WORDS set),
and `make uninstall` removing them again."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import BIN, run, check, check_usage_error, finish

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAN = os.path.join(ROOT, "ksmbench.1")
COMPLETION = os.path.join(ROOT, "completion", "ksmbench.bash")


def commands():
    rc, out, _ = run("--list-commands")
    return out.split()


# --- the man page renders without a warning, and covers the binary
groff = shutil.which("groff")
if groff:
    p = subprocess.run([groff, "-man", "-ww", "-z", MAN], capture_output=True, text=True)
    check(p.returncode == 0 and p.stderr == "", f"groff -man -ww -z: {p.stderr!r}")
    p = subprocess.run([groff, "-man", "-Tutf8", "-P-cbou", MAN], capture_output=True, text=True)
    page = p.stdout
    # groff warns of neither: words an alternating macro (.BR, .RI) glued
    # together, and a quote left over from one (a literal " after a closing
    # quote)
    glued = re.findall(r"\S*[a-z][.)]+[A-Z][a-z]+[A-Z]\S*|\S*\u201d[,;.]?\"\S*", page)
    check(not glued, f"man page words glued by a macro: {glued[:3]}")
else:
    page = open(MAN).read().replace("\\-", "-")
    print("groff not installed: the page is checked as source")
cmds = commands()
check({"list", "verify", "sum", "capture", "bench", "thread", "select", "compare", "plot"} <= set(cmds),
      f"--list-commands: {cmds}")
for c in cmds:
    check(re.search(rf"^ *{re.escape(c)}\b", page, re.M) is not None, f"man page has a section for {c}")
    rc, out, _ = run(c, "--help")
    for opt in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", out))):
        check(opt in page, f"man page documents {c} {opt}")

# --- each command's section of the man page (its .SS, in the source) names
# every option of the command's --help list, and every option the section
# lists (a .TP tag) is one the command's --help names: an option renamed or
# removed on one side only is caught, not just one missing from the page
source = open(MAN).read().replace("\\-", "-")
sections = dict(re.findall(r'(?ms)^\.SS "?([a-z]+)\b(.*?)(?=^\.S[SH] )', source))
OPT = r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z](?![\w-]))"
for c in cmds:
    body = sections.get(c)
    check(body is not None, f"man page has a .SS section for {c}")
    if body is None:
        continue
    rc, out, _ = run(c, "--help")
    listed = set(re.findall(r"(?m)^  (?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)", out))
    for opt in sorted(listed):
        check(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", body) is not None,
              f"man page's {c} section documents {opt}")
    tags = set(re.findall(OPT, " ".join(re.findall(r"(?m)^\.TP\n(.*)", body))))
    for opt in sorted(tags):
        check(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", out) is not None,
              f"{c} --help names the man page's {opt}")

# --- every field name the JSON documents carry is documented: in the man
# page or in docs/ (the ceiling's probe keys are in docs/ceilings.md), and
# as a name, not a word of the prose (a generic key such as "sequence" or
# "xmm" would pass anywhere): in bold or italics in the man page, in
# backticks in docs/, or quoted as in a JSON example
def keys_of(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(k)
            keys_of(v, out)
    elif isinstance(node, list):
        for v in node:
            keys_of(v, out)
    return out


documented = open(MAN).read().replace("\\-", "-") + "".join(
    open(os.path.join(ROOT, "docs", d)).read() for d in sorted(os.listdir(os.path.join(ROOT, "docs"))))
QUICK = ["-H", "xxh64", "--processes", "1", "--repeat", "1", "--no-ceiling"]
# (a cost sample in a 1 MiB set: the default 4x LLC takes seconds to fault in)
QUICK_SCAN = ["--sample-pages", "16", "--working-set", "1M", "--repeat", "1", "--window", "2ms"]
sources = {"bench": ["bench", "-H", "xxh64", "--processes", "2", "--repeat", "1", "--window", "2ms"],
           "bench --timer jiffies": ["bench", *QUICK, "--timer", "jiffies", "--hz", "10000"],
           "bench --timer rdtsc": ["bench", *QUICK, "--timer", "rdtsc", "--window", "2ms"],
           "bench --ksmd": ["bench", *QUICK, "--ksmd", "--working-set", "1M"],
           "bench --apart cold": ["bench", *QUICK, "--apart", "--window", "2ms", "--cache", "cold",
                                  "--working-set", "1M"],
           "bench --selfcheck": ["bench", "--selfcheck", "-H", "xxh64", "--processes", "1", "--repeat", "1",
                                 "--window", "2ms"],
           "ceiling": ["ceiling", "--repeat", "1"],
           "thread": ["thread", "--processes", "1", "--window", "2ms", "--hz", "1000", "--working-set", "4M",
                      "--no-ceiling"],
           "scan": ["scan", *QUICK_SCAN, os.path.join(ROOT, "ksmbench.1")],
           "select": ["select", "-H", "xxh64,jhash2", "--processes", "1", "--no-ceiling"],
           "list": ["list"]}


def named(key):
    k = re.escape(key)
    return any(re.search(p, documented) for p in (
        rf"(?m)^\.(?:B|I|BR|RB|IR|RI|BI|IB) [^\n]*(?<![\w.-]){k}(?![\w-])",  # .B key, .BR a ", " key
        rf"\\f[BI]{k}\\f[RP]", rf"`{k}`", rf'"{k}"'))


check(not named("xmm_unmarked") and named("pages_sharing"), "the rule for a documented field name")
bench_doc = os.path.join(tempfile.mkdtemp(), "bench.json")  # bench's, for compare below
emitted = set()  # every key of every document below, for the shapes' check after
keys_by_source = {}  # each document's keys, for the field lists of the prose below
selfcheck_row = {}
for what, args in sources.items():
    rc, out, err = run(*args, "--format", "json")
    # A self-check that missed a target (noise) exits 1 with its document whole.
    ok = (0, 1) if "--selfcheck" in args else (0,)
    check(rc in ok, f"{what} --format json: {err!r}")
    if rc in ok:
        emitted |= keys_of(json.loads(out), set())
        keys_by_source[what] = keys_of(json.loads(out), set())
        for key in sorted(keys_of(json.loads(out), set())):
            check(named(key), f"{what}'s JSON field {key} is documented as a name")
        if what == "bench":
            with open(bench_doc, "w") as f:
                f.write(out)
        if what == "bench --selfcheck":
            selfcheck_row = json.loads(out)["checks"][0]
# --selfcheck's row shape in the man page: every key of a row, in order.
shape = source.split(".B --selfcheck\n", 1)[1].split(".EX\n", 1)[1].split("\n.EE", 1)[0]
shown = re.findall(r'"([a-z_0-9]+)"', shape)
check(shown == list(selfcheck_row), f"--selfcheck's row in the man page is the JSON's: {shown}")
# compare's document, and ksm's over a directory of KSM's files (the only
# keys of its own: sysfs and meanings take the files' names)
ksm_dir = tempfile.mkdtemp()
for name, value in (("run", 1), ("pages_to_scan", 100), ("sleep_millisecs", 20), ("full_scans", 3)):
    with open(os.path.join(ksm_dir, name), "w") as f:
        f.write(f"{value}\n")
others = {"compare": (["compare", bench_doc, bench_doc], {}),
          "ksm": (["ksm"], {"KSMBENCH_KSM_DIR": ksm_dir})}
for what, (args, env) in others.items():
    rc, out, err = run(*args, "--format", "json", env=env)
    check(rc == 0, f"{what} --format json: {err!r}")
    if rc == 0:
        doc = json.loads(out)
        doc.pop("sysfs", None)
        doc.pop("meanings", None)
        emitted |= keys_of(doc, set())
        for key in sorted(keys_of(doc, set())):
            check(named(key), f"{what}'s JSON field {key} is documented as a name")

# --- and the other way: every key the man page's JSON shapes (the .EX
# blocks of RESULTS, COMPARE and SCAN DOCUMENT) quote is one a document
# carries, so that a field renamed or dropped in the code cannot stay in the
# page. A key is a quoted name followed by a colon, or by a comma or "|"
# when no colon or "|" comes before it on its line (a value: "hot"|"cold").
# Two documents more fill what the ones above leave empty: a scan with
# duplicates and --top (top, where), a compare of contexts that differ.
tmp_dir = tempfile.mkdtemp()
dump = os.path.join(tmp_dir, "dup.raw")
with open(dump, "wb") as f:
    f.write(bytes(4096) * 3 + bytes([7]) * 4096 * 2 + os.urandom(4096) * 2)
rc, out, err = run("scan", *QUICK_SCAN, "--top", "2", "--format", "json", dump)
check(rc == 0, f"scan --top --format json: {err!r}")
if rc == 0:
    emitted |= keys_of(json.loads(out), set())
if os.path.exists(bench_doc):
    other = json.load(open(bench_doc))
    other["context"]["kernel_release"] = "0.0-other"
    other_doc = os.path.join(tmp_dir, "other.json")
    with open(other_doc, "w") as f:
        json.dump(other, f)
    rc, out, err = run("compare", bench_doc, other_doc, "--format", "json")
    check(rc in (0, 3), f"compare of two contexts --format json: {err!r}")
    if rc in (0, 3):
        emitted |= keys_of(json.loads(out), set())


def shape_keys(section):
    body = source.split(f".SH {section}\n", 1)[1].split("\n.SH ", 1)[0]
    found = set()
    for block in re.findall(r"(?s)\n\.EX\n(.*?)\n\.EE", body):
        for m in re.finditer(r'"([a-z][a-z0-9_.]*)"', block):
            before = block[:m.start()].rsplit("\n", 1)[-1].rstrip()
            after = block[m.end():].lstrip()
            if before.endswith("(") or re.search(r"\bor$", before):
                continue
            if after.startswith(":") or (after.startswith((",", "|")) and not before.endswith((":", "|"))):
                found.add(m.group(1))
    return found


check(shape_keys("RESULTS DOCUMENT") >= {"hz", "tsc_cycles_per_page_median", "rounds", "process_values"}
      and "hot" not in shape_keys("RESULTS DOCUMENT") and "use_zero_pages_1" in shape_keys("SCAN DOCUMENT"),
      "the rule for a key of a shape")
for section in ("RESULTS DOCUMENT", "COMPARE DOCUMENT", "SCAN DOCUMENT"):
    for key in sorted(shape_keys(section) - emitted):
        check(False, f"{section} shows the key {key}, which no document carries")

# --- and the field lists the man page gives in prose (list's, ceiling's,
# thread's rows and verdict, select's selection, ksm --watch's lines): every
# name it sets in bold there is a key of that document, less the values it
# names beside them. ksm --profile needs root and a running ksmd: its
# list is held to the keys profile_json writes (cmd/ksm_live.c).
def bold_names(start, end):
    """The bold words of the source between start and end (end: the next .TP)."""
    body = source.split(start, 1)[1].split(end, 1)[0]
    found = set(re.findall(r"\\fB([^\\]+)\\f[RP]", body))
    for line in body.split("\n"):
        m = re.match(r"\.(B|BR|RB|BI|IB) (.*)", line)
        if m:
            parts = [w.strip('"') for w in re.findall(r'"[^"]*"|\S+', m.group(2))]
            found |= {m.group(2).strip('"')} if m.group(1) == "B" else \
                set(parts[0::2] if m.group(1) in ("BR", "BI") else parts[1::2])
    return {w for name in found for w in name.split(".")}


watch_rc, watch_out, watch_err = run("ksm", "--watch", "10ms", "--count", "1", "--format", "json",
                                     env={"KSMBENCH_KSM_DIR": ksm_dir})
check(watch_rc == 0, f"ksm --watch --format json: {watch_err!r}")
keys_by_source["ksm --watch"] = keys_of(json.loads(watch_out), set()) if watch_rc == 0 else set()
profile_source = open(os.path.join(ROOT, "cmd", "ksm_live.c")).read().split("static int profile_json(", 1)[1]
keys_by_source["ksm --profile"] = set(re.findall(r'\(\w+, "([a-z_]+)"', profile_source.split("\n}\n", 1)[0]))
prose_lists = [  # (source, where the list starts, the values named in bold beside the keys)
    ("list", "The JSON (schema ksmbench-list/1) has", {"table", "measurement", "only candidate"}),
    ("ceiling", "(schema ksmbench-ceiling/1):", set()),
    ("thread", "The JSON's\n.B thread.rows", set()),
    ("select", "The JSON's\n.B selection", set()),
    ("ksm --watch", "one JSON object per line (fields", set()),
    ("ksm --profile", "writes one document,", {"ksmbench-ksmd-profile/1"}),
]
for what, start, values in prose_lists:
    names = bold_names(start, "\n.TP" if what != "ksm --watch" else "A counter this kernel lacks") - values
    check(len(names) > 2 and names <= keys_by_source.get(what, set()),
          f"the man page's field list of {what} names keys {what} does not write: "
          f"{sorted(names - keys_by_source.get(what, set()))}")
check(keys_by_source["ksm --watch"] <= bold_names("one JSON object per line (fields", "A counter this kernel lacks")
      | {"pages_shared", "pages_sharing", "pages_unshared", "pages_volatile", "ksm_zero_pages", "general_profit"},
      "every key of ksm --watch's lines is in its list (the counters by their names)")


# --- the csv columns are those the man page lists: bench's and thread's in
# full (REPORT FORMATS), scan's (SCAN DOCUMENT) as its two listed runs, in
# order, with the hash's fields and the settings between them as said there
def columns(after):
    """The comma list of the first .EX block after the text after."""
    block = source[source.index(after):].split(".EX\n", 1)[1].split("\n.EE", 1)[0]
    return [c for c in re.sub(r"\s+", "", block).split(",") if c]


csv_sources = {"bench": (["bench", *QUICK, "--window", "2ms"], columns(".BR bench 's\ncolumns:")),
               "thread": (sources["thread"], columns("are its rows' fields")),
               "scan": (sources["scan"], columns("The csv and tsv forms have one row per hash")
                        + ["zero_checksum", "contents", "colliding_pairs", "expected_colliding_pairs",
                           "colliding_contents", "expected_colliding_contents", "zero_checksum_matches",
                           "ns_per_page_median", "ns_per_page_p90", "full_scan_checksum_ms",
                           "steady_scan_checksum_ms", "pages_to_scan", "sleep_millisecs",
                           "ksmd_checksum_cpu_share", "ksmd_steady_checksum_cpu_share"]
                        + columns("then the model's further counters"))}
for what, (args, documented_columns) in csv_sources.items():
    rc, out, err = run(*args, "--format", "csv")
    header = out.split("\n", 1)[0].split(",")
    check(rc == 0 and header == documented_columns,
          f"{what} --format csv: the man page's columns: {sorted(set(header) ^ set(documented_columns))}")

# --- make install into a staging directory; the build is not redone (-o)
stage = tempfile.mkdtemp(prefix="ksmbench-stage-")
make = ["make", "--no-print-directory", "-C", ROOT, "-o", BIN, f"OUT={BIN}", "PREFIX=/opt/kb",
        f"DESTDIR={stage}"]
p = subprocess.run(make + ["install"], capture_output=True, text=True)
check(p.returncode == 0, f"make install: {p.stderr[-500:]!r}")
bin_path = os.path.join(stage, "opt/kb/bin/ksmbench")
man_path = os.path.join(stage, "opt/kb/share/man/man1/ksmbench.1")
comp_path = os.path.join(stage, "opt/kb/share/bash-completion/completions/ksmbench")
for path, mode in ((bin_path, 0o755), (man_path, 0o644), (comp_path, 0o644)):
    check(os.path.isfile(path) and (os.stat(path).st_mode & 0o777) == mode, f"installed {path} mode {mode:o}")
if os.path.isfile(bin_path):
    p = subprocess.run([bin_path, "--version"], capture_output=True, text=True)
    check(p.returncode == 0 and p.stdout.startswith("ksmbench "), "the installed binary runs")
check(open(man_path).read() == open(MAN).read(), "the man page installed as is")

# --- completion, sourced from the installed file, asked as bash would ask
SCRIPT = r'''
source "$1"; shift
complete_words() {
	COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
	_ksmbench
	printf '%s\n' "${COMPREPLY[@]}"
}
complete_words "$@"
'''


def complete(*words):
    p = subprocess.run(["bash", "-c", SCRIPT, "complete", comp_path, BIN, *words], capture_output=True, text=True,
                       cwd=tempfile.gettempdir())
    return p.stdout.split()


if shutil.which("bash") and os.path.isfile(comp_path):
    check(set(cmds) <= set(complete("")), "completes every command")
    check(complete("com") == ["compare"], f"a command prefix: {complete('com')}")
    check(set(complete("bench", "--")) >= {"--hash", "--data", "--format", "--quiet", "--output", "--timer",
                                           "--selfcheck", "--repeat"}, "bench options")
    check("--threshold" in complete("compare", "--th"), "compare options")
    check(complete("bench", "--format", "") == ["table", "kernel", "csv", "tsv", "json", "gha", "markdown"],
          f"format values: {complete('bench', '--format', '')}")
    check(complete("compare", "--format", "") == ["table", "json", "markdown"], "compare format values")
    check(complete("ceiling", "--format", "") == ["table", "json"], "ceiling format values (the registry's)")
    check(complete("list", "--format", "") == ["table", "json"], "list format values")
    check({"--output", "--page-size", "--repeat"} <= set(complete("ceiling", "--")), "ceiling options")
    check({"--wide", "--names"} <= set(complete("list", "--")), "list options")
    check(complete("bench", "--timer", "") == ["window", "jiffies", "rdtsc", "ksmd"], "timer values")
    check(complete("bench", "--cache", "c") == ["cold"], "cache values")
    rc, names, _ = run("list", "--names")
    rc, here, _ = run("list", "--names", "--available")
    check(set(here.split()) <= set(names.split()) and "jhash2" in here.split(), "--available: a subset")
    check_usage_error(["list", "--names", "--format", "json"], "--names prints one name a line",
                      "list --names refuses a format it would not write")
    check(set(complete("bench", "-H", "")) == set(here.split()) | {"all"},
          "every hash this CPU can run, and all: no other")
    check(complete("bench", "-H", "xxh6") == ["xxh64"], "a hash name prefix")
    check(complete("verify", "--hash", "jhash2,xxh3-s") == ["jhash2,xxh3-sse2"] or "xxh3-sse2" not in here,
          "a comma-separated list")
    for n in set(names.split()) - set(here.split()):
        check(n not in complete("bench", "-H", n), f"{n}: not offered, this CPU cannot run it")
    rc, formats, _ = run("--list-input-formats")
    check(formats.split()[:2] == ["auto", "raw"] and "kdump" in formats.split(), f"--list-input-formats: {formats!r}")
    check(complete("bench", "--input-format", "") == formats.split(), "input format values")
    check(complete("sum", "--input-format", "li") == ["lime", "lime-raw", "lime-padded"], "an input format prefix")
    check({"--export-json", "--export-csv", "--export-markdown"} <= set(complete("bench", "--exp")),
          "bench's export options")
    check({"--export-json", "--export-markdown"} <= set(complete("select", "--export-")), "select's exports")
    open(os.path.join(tempfile.gettempdir(), "ksmbench-compl-probe.json"), "w").close()
    check("ksmbench-compl-probe.json" in " ".join(complete("bench", "--export-json", "ksmbench-compl-p")),
          "--export-json completes file names")
    os.unlink(os.path.join(tempfile.gettempdir(), "ksmbench-compl-probe.json"))
    check(complete("bench", "--window", "") == [], "a free value is not completed with options")
    # Options come from the usage and option lines, not the prose (list's
    # help mentions -H, plot's --format, scan's sum --per-page); a
    # placeholder is not a value; sum takes one hash, not a list.
    check("-H" not in complete("list", "-") and "--format" not in complete("plot", "--")
          and "--per-page" not in complete("scan", "--") and "--check:" not in complete("sum", "--"),
          f"options from prose: {complete('list', '-')} {complete('plot', '--')}")
    check(complete("capture", "--interval", "") == ["auto"],
          f"capture --interval: {complete('capture', '--interval', '')}")
    check("all" not in complete("sum", "-H", "") and complete("sum", "-H", "xxh6") == ["xxh64"],
          f"sum -H: one name: {complete('sum', '-H', 'xxh6')}")
else:
    print("bash or the completion file missing: completion not tested")

# list's --kernel-release R is in its usage only (list has no option
# lines): a release, not a file name, and none offered.
if shutil.which("bash") and os.path.isfile(comp_path):
    check(complete("list", "--kernel-release", "") == [],
          f"list --kernel-release completes no file names: {complete('list', '--kernel-release', '')[:3]}")

# --- make uninstall removes exactly what was installed
p = subprocess.run(make + ["uninstall"], capture_output=True, text=True)
left = [os.path.join(d, f) for d, _, fs in os.walk(stage) for f in fs]
check(p.returncode == 0 and left == [], f"make uninstall leaves nothing: {left}")
shutil.rmtree(stage)
# --- scripts/install-deps.sh, its commands faked in a directory first on
# PATH: pkg-config finds neither libcjson nor libcpuid, apt-cache knows the
# packages Debian 12 builds for the architecture dpkg names (no libcpuid-dev
# for arm64), apt-get logs what it is asked (and cannot install
# libcpuid-dev), id -u says root or not.
def install_deps(arch, uid, *args):
    fake = tempfile.mkdtemp(prefix="ksmbench-deps-")
    log = os.path.join(fake, "apt.log")
    scripts = {
        "pkg-config": 'for a; do case $a in libcjson|libcpuid) exit 1;; esac; done\nexit 0',
        "dpkg": f'[ "$1" = --print-architecture ] && echo {arch}',
        "apt-cache": 'case $2 in libcpuid-dev:arm64|libisal-dev:i386) exit 100;; esac\nexit 0',
        "apt-get": f'echo "$*" >>{log}\ncase " $* " in *" libcpuid-dev "*) exit 100;; esac\nexit 0',
        "id": f'echo {uid}',
    }
    for name, body in scripts.items():
        with open(os.path.join(fake, name), "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(os.path.join(fake, name), 0o755)
    p = subprocess.run(["sh", os.path.join(ROOT, "scripts", "install-deps.sh"), *args], capture_output=True, text=True,
                       env={**os.environ, "PATH": fake + ":" + os.environ.get("PATH", "/usr/bin:/bin")})
    calls = open(log).read().splitlines() if os.path.exists(log) else []
    shutil.rmtree(fake)
    return p.returncode, p.stderr, calls


rc, err, calls = install_deps("amd64", 1000)
line = [x for x in err.splitlines() if x.startswith("  sudo apt-get install -y ")]
check(rc == 1 and len(line) == 1 and sorted(line[0].split()[4:]) == ["libcjson-dev", "libcpuid-dev"] and not calls,
      f"install-deps as a user: the exact apt-get line: rc={rc} {err!r}")
rc, err, calls = install_deps("arm64", 1000)
check(rc == 1 and "  sudo apt-get install -y libcjson-dev\n" in err and not calls,
      f"install-deps as a user on arm64: no libcpuid-dev, which Debian does not build there: rc={rc} {err!r}")
rc, err, calls = install_deps("arm64", 0)
installs = [c for c in calls if " install " in f" {c} "]
check(rc == 0 and len(installs) == 2 and installs[0].endswith(" libcjson-dev") and installs[1].endswith(" libcpuid-dev")
      and "could not install libcpuid-dev" in err,
      f"install-deps as root on arm64: libcjson-dev installed, libcpuid-dev tried apart: rc={rc} {calls} {err!r}")
rc, err, calls = install_deps("amd64", 0)
installs = [c for c in calls if " install " in f" {c} "]
check(rc != 0 and len(installs) == 1 and {"libcjson-dev", "libcpuid-dev"} <= set(installs[0].split()),
      f"install-deps as root on amd64: libcpuid-dev needed, its failure fatal: rc={rc} {calls}")
# make test: one check of the packages, the build's and the tests' together
# (a user is given one apt-get line, not the build's and then the tests').
p = subprocess.run(["make", "-n", "--no-print-directory", "-C", ROOT, "-o", BIN, f"OUT={BIN}", "test"],
                   capture_output=True, text=True)
deps_lines = [line for line in p.stdout.splitlines() if "install-deps.sh" in line]
check(deps_lines == ["scripts/install-deps.sh --test"], f"make test checks the packages once: {deps_lines}")
finish("install")
