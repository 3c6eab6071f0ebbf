"""CLI tests for the foundation: list, verify, sum, help, exit codes, errors."""
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile

from clitest import BIN, QUICK, run, check, check_usage_error, quoted, temp_file, finish

NAMES = ["jhash2", "xxhash", "xxh32", "xxh64", "xxh3", "xxh128",
         "crc32c-generic", "crc32c-sse42", "crc32c-isal", "crc32-zlib"]

# --help and --version
for args in (["--help"], ["--version"], ["list", "--help"], ["verify", "--help"], ["sum", "--help"]):
    rc, out, err = run(*args)
    check(rc == 0 and out.startswith(("usage:", "ksmbench ")) and err == "", f"{args} prints help")
rc, out, _ = run("--version")
check(out.startswith("ksmbench 0."), "version line")
# The options in place of a command take nothing after them: said, not ignored.
for args in (["--version", "extra"], ["--help", "x"], ["-h", "x"], ["--list-commands", "x"],
             ["--list-input-formats", "x"]):
    check_usage_error(args, f"{args[0]} takes no arguments, '{args[1]}' given", f"{args} refused")
check_usage_error(["--bogus", "x"], "unknown option '--bogus'", "an unknown option before a command")
# "--" ends the options before the command, as with getopt.
rc, out, err = run("--", "list")
check(rc == 0 and out.startswith("NAME") and err == "", "'-- list' runs list")
check_usage_error(["--", "--version"], "unknown command '--version' after '--'", "an option after '--'")
# Plain ksmbench is thread: its options before the command name say where
# they go (until 2026-12-07 only "unknown option", as for a typo).
check_usage_error(["--processes", "2"], "plain ksmbench is 'ksmbench thread': its options go after 'thread'",
                  "thread's option without its command")

# list: every name, a header, json with types
rc, out, err = run("list")
check(rc == 0 and out.splitlines()[0].split()[:3] == ["NAME", "AVAILABLE", "KERNEL"], "list header")
for n in NAMES:
    check(any(line.split()[:1] == [n] for line in out.splitlines()[2:]), f"list shows {n}")
rc, out, err = run("list", "--format", "json")
doc = json.loads(out)
entries = {e["name"]: e for e in doc["hashes"]}
check(set(NAMES) <= set(entries), "json list names")
for e in doc["hashes"]:
    check(isinstance(e["bits"], int) and isinstance(e["available"], bool)
          and isinstance(e["provenance"], str) and isinstance(e["description"], str), f"json types {e['name']}")
# The kernel's xxhash() is xxh64 on 64-bit builds, xxh32 on 32-bit ones.
XXHASH = "xxh64" if entries["xxhash"]["bits"] == 64 else "xxh32"
check(entries["xxhash"]["alias_of"] == XXHASH and entries["xxh128"]["bits"] == 128, "json alias and bits")
check(entries["jhash2"]["provenance"] == "ksmbench"
      and entries["xxh64"]["provenance"].startswith("libxxhash "), "json provenance")

# A CPU without SSE4.2 (masked): listed as unavailable, naming the feature; selecting it fails.
# (Off x86 the entry is not built at all, and says so.)
rc, out, _ = run("list", env={"KSMBENCH_DISABLE": "sse4.2"})
row = [line for line in out.splitlines() if line.startswith("crc32c-sse42 ")]
zero_page = temp_file(bytes(4096))
if entries["crc32c-sse42"]["available"]:
    check(row and "no (needs sse4.2)" in row[0], "masked feature shown in list")
    check_usage_error(["sum", "-H", "crc32c-sse42", zero_page], "sse4.2", "unavailable hash",
                      env={"KSMBENCH_DISABLE": "sse4.2"})
else:
    check(row and "no (not built for this architecture)" in row[0], "unbuilt entry shown in list")
check_usage_error(["list"], "unknown CPU feature", "bad KSMBENCH_DISABLE", env={"KSMBENCH_DISABLE": "sse9"})
# --help names the variables a user sets, each documented in the man page's
# ENVIRONMENT (KSMBENCH_FREE_CORE: for a CPU the free-core table lacks).
rc, out, _ = run("--help")
named = sorted(set(re.findall(r"\bKSMBENCH_[A-Z_]+", out)))
environment = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ksmbench.1")).read()
environment = environment.split("\n.SH ENVIRONMENT\n", 1)[-1].split("\n.SH ", 1)[0]
check(rc == 0 and "KSMBENCH_FREE_CORE" in named and all(f"\n.B {v}\n" in environment for v in named),
      f"--help names the user's variables, each in ENVIRONMENT: {named}")
check_usage_error(["list"], "KSMBENCH_KERNEL_RELEASE: kernel release 'linux' does not start with MAJOR.MINOR",
                  "bad KSMBENCH_KERNEL_RELEASE", env={"KSMBENCH_KERNEL_RELEASE": "linux"})
# A release is printed as it is in list's and thread's text: one uname could
# not show (a control character reached the terminal, a newline broke the
# line) is refused, by the variable and --kernel-release alike.
for release in ("6.1\x1b[2J", "6.1\nINJECTED", "6.1 rc", "6.1\u00e9", "6." + "1" * 64):
    check_usage_error(["list"], "is not one uname could show (at most 64 printable ASCII characters, no space)",
                      f"KSMBENCH_KERNEL_RELEASE={release[:20]!r}", env={"KSMBENCH_KERNEL_RELEASE": release})
    check_usage_error(["list", "--kernel-release", release], "--kernel-release: kernel release",
                      f"--kernel-release {release[:20]!r}")
rc, out, err = run("list", "--format", "json", env={"KSMBENCH_KERNEL_RELEASE": "6.1.0-" + "x" * 58})
check(rc == 0 and json.loads(out)["kernel_crc32c"]["kernel_release"] == "6.1.0-" + "x" * 58,
      f"a release of 64 bytes is one: rc={rc} {err!r}")
for step in ("1", "abc", "5x", "99999999999"):
    check_usage_error(["list"], f"KSMBENCH_SIMULATE_TSC_STEP '{step}': not a whole number of ticks",
                      f"bad KSMBENCH_SIMULATE_TSC_STEP {step}", env={"KSMBENCH_SIMULATE_TSC_STEP": step})
# KSMBENCH_CPU's numbers are decimal or 0x-prefixed, as the man page says:
# "025" is 25 (strtoul's base 0 took it as octal 21, and refused "08"), and
# a sign or a space is no number.
for spec in ("GenuineIntel:6:08", "GenuineIntel:0x6:0X8f", "AuthenticAMD:025:001"):
    rc, out, err = run("list", "--names", env={"KSMBENCH_CPU": spec})
    check(rc == 0 and err == "", f"KSMBENCH_CPU={spec}: decimal with leading zeros, or hex: rc={rc} {err!r}")


def alias_choices(spec):
    doc = json.loads(run("list", "--format", "json", env={"KSMBENCH_CPU": spec})[1])
    return [(h["name"], h["chosen_by"]) for h in doc["hashes"] if h["alias_of"]]


check(alias_choices("AuthenticAMD:025:1") == alias_choices("AuthenticAMD:25:1"), "KSMBENCH_CPU 025 is family 25")
for spec in ("AuthenticAMD:-0:1", "AuthenticAMD:+25:1", "AuthenticAMD: 25:1", "AuthenticAMD:25:1 ",
             "AuthenticAMD:0x:1", "AuthenticAMD:0x1000:1", "AuthenticAMD:25:256", "AuthenticAMD:25", ":25:1"):
    check_usage_error(["list"], f"KSMBENCH_CPU '{spec}' is not VENDOR:FAMILY:MODEL (numbers decimal or 0x-prefixed)",
                      f"KSMBENCH_CPU={spec!r}", env={"KSMBENCH_CPU": spec})
# A value of 100 kB is quoted cut ("..." after 60 bytes), so the one line
# still names the variable and says what is wrong (the message's buffer
# ended inside the value; KSMBENCH_DISABLE's did not name itself).
LONG = "A" * 100000
for var, needle in (("KSMBENCH_DISABLE", "is too long (at most 255 bytes)"),
                    ("KSMBENCH_CPU", "is not VENDOR:FAMILY:MODEL"),
                    ("KSMBENCH_KERNEL_RELEASE", "is not one uname could show"),
                    ("KSMBENCH_SIMULATE_TSC_STEP", "not a whole number of ticks from 2 to 999999999"),
                    ("KSMBENCH_FREE_CORE", "not a number of additions a cycle from 0 to 1000")):
    rc, out, err = run("list", env={var: LONG})
    check(rc == 2 and out == "" and len(err.splitlines()) == 1 and var in err and needle in err
          and "A" * 60 + "..." in err and len(err) < 300,
          f"{var} of 100 kB: one line naming it, the value cut, the reason kept: rc={rc} {err[:400]!r}")

# verify: the full sweep, one line per hash plus a summary
rc, out, err = run("verify", *(["--quick"] if QUICK else []))
lines = out.splitlines()
check(rc == 0 and lines[-1].startswith("verify: ") and " 0 failed" in lines[-1], "verify passes")
for n in NAMES:
    if entries[n]["available"]:
        check(any(line.split()[:2] == ["ok", n] for line in lines), f"verify ok line for {n}")
rc, out, err = run("verify", "--quick", "-H", "jhash2,crc32c-generic")
check(rc == 0 and len(out.splitlines()) == 3, "verify subset")
# A peer verified in the same run is named "(on its own line)" and not
# hashed again at each check (half the cross-checks); verified alone, or
# named before it, it is hashed beside the reference; a hash with no peer
# (jhash2) names none.
rc, out, err = run("verify", "--quick", "-H", "crc32c-generic,jhash2")
alone = {line.split()[1]: line for line in out.splitlines()[:-1]}
check(rc == 0 and "jhash2" in alone and " and " not in alone["jhash2"] and "own line" not in alone["jhash2"],
      f"verify: jhash2 has no peer: {out!r}")
peer = re.search(r" and (\S+)( \(on its own line\))?$", alone.get("crc32c-generic", ""))
check(rc == 0 and "crc32c-generic" in alone and not (peer and peer.group(2)),
      f"verify: crc32c-generic's peer, not verified beside it, is not said to be: {out!r}")
if peer:  # none where this CPU runs no other crc32c
    n_alone = int(re.search(r"(\d+) cross-checks", alone["crc32c-generic"]).group(1))
    rc, out, err = run("verify", "--quick", "-H", "crc32c-generic," + peer.group(1))
    pair = {line.split()[1]: line for line in out.splitlines()[:-1]}
    line = pair.get("crc32c-generic", "")
    check(rc == 0 and line.endswith(f" and {peer.group(1)} (on its own line)")
          and f" {n_alone // 2} cross-checks" in line,
          f"verify: crc32c-generic's peer on its own line, {n_alone} cross-checks alone: {out!r}")
check_usage_error(["verify", "-H", "nope"], "unknown hash 'nope'", "verify unknown hash")

# sum: the values the issue names, and xxhsum agreement
rc, out, err = run("sum", "-H", "jhash2", zero_page)
check(rc == 0 and out == f"61574272  {zero_page}\n", "jhash2 of the zero page")
rc, out, err = run("sum", "-H", "xxh64", zero_page)
check(out == f"ac869b6f32d8bbdb  {zero_page}\n", "xxh64 of the zero page")
rc, out2, err = run("sum", zero_page)
check(out2 == run("sum", "-H", XXHASH, zero_page)[1], f"default hash is xxhash = {XXHASH}")
rc, out, err = run("sum", "-H", "xxh128", zero_page)
check(len(out.split()[0]) == 32, "xxh128 prints 32 hex digits")
if shutil.which("xxhsum"):
    for h, algo in (("xxh32", "0"), ("xxh64", "1"), ("xxh128", "2")):
        mine = run("sum", "-H", h, zero_page)[1].split()[0]
        theirs = subprocess.run(["xxhsum", "-H" + algo, zero_page], capture_output=True, text=True).stdout.split()[0]
        check(mine == theirs, f"{h} agrees with xxhsum")
rc, out, err = run("sum", "-H", "crc32c-generic", "-", stdin=b"123456789")
check(out == "e3069283  -\n", "sum reads stdin")
rc, out, err = run("sum", "-H", "crc32-zlib", stdin=b"123456789")
check(out == "cbf43926  -\n", "sum without files reads stdin")

# sum --per-page: each page's line equals the sum of that page alone
data = bytes(range(256)) * 16 * 2 + b"\x01" * 4096 + b"\x07" * 100
multi = temp_file(data)
rc, out, err = run("sum", "-H", "crc32c", "--per-page", multi)
lines = out.splitlines()
check(rc == 0 and len(lines) == 4, "per-page line count")
for i in range(3):
    page = temp_file(data[i * 4096:(i + 1) * 4096])
    whole = run("sum", "-H", "crc32c-generic", page)[1].split()[0]
    check(lines[i] == f"{multi}:{i} {whole}", f"per-page line {i}")
    os.unlink(page)
check(lines[3] == f"{multi}:3 partial page of 100 bytes, not hashed", "partial page reported")
rc, out, err = run("sum", "--per-page", "--page-size", "64", "-H", "jhash2", multi)
check(rc == 0 and len(out.splitlines()) == 3 * 64 + 2, "64-byte pages")

# Bad input: one line on stderr, exit 2, nothing on stdout
odd = temp_file(b"12345")
check_usage_error(["sum", "-H", "bogus", zero_page], "unknown hash 'bogus'", "unknown hash")
check_usage_error(["sum", "/nonexistent/file"], "No such file", "missing file")
check_usage_error(["sum", tempfile.gettempdir()], "is a directory", "directory")
check_usage_error(["sum", "--bogus", zero_page], "--bogus", "bad long option")
check_usage_error(["sum", "-x", zero_page], "-x", "bad short option")
# standard input named twice would be read empty the second time: refused
# by every command that takes several inputs
for args in (["sum", "-", "-"], ["sum", "--per-page", zero_page, "-", "-"], ["scan", "-", "-"],
             ["compare", "-", "-"], ["plot", "-", "-"]):
    check_usage_error(args, "standard input ('-') is named twice", f"{' '.join(args)}", stdin=b"x" * 4096)
# scan merges across its dumps: one file twice, by name or by a link, would
# make each page a duplicate of itself
link = zero_page + ".link"
os.link(zero_page, link)
check_usage_error(["scan", zero_page, zero_page], f"'{quoted(zero_page)}' is named twice", "scan: a dump twice")
check_usage_error(["scan", zero_page, link], f"'{quoted(zero_page)}' and '{quoted(link)}' are the same file",
                  "scan: a dump and its link")
os.unlink(link)
with open(zero_page, "rb") as f:  # '-' is the file standard input reads
    check_usage_error(["scan", "-", zero_page], f"'-' and '{quoted(zero_page)}' are the same file",
                      "scan: - < the same file",
                      stdin=f)
check_usage_error(["sum", "-H"], "needs a value", "missing option value")
check_usage_error(["sum", "-H", "jhash2", odd], "multiple of 4", "jhash2 of odd length")
check_usage_error(["sum", "--per-page", "--page-size", "100", zero_page], "multiple of 64", "bad page size")
check_usage_error(["frobnicate"], "unknown command", "unknown command")
check_usage_error(["--frob"], "unknown option", "unknown global option")
check_usage_error(["list", "--format", "xml"], "unknown format", "bad list format")
unreadable = temp_file(b"secret")
os.chmod(unreadable, 0)
if os.geteuid() == 0:
    # root reads anything: drop to nobody for this one check
    check_usage_error(["sum", unreadable], "Permission denied", "unreadable file", user=65534)
else:
    check_usage_error(["sum", unreadable], "Permission denied", "unreadable file")
# A bad file among good ones: the good ones are still summed, exit 2.
rc, out, err = run("sum", zero_page, "/nonexistent/file", zero_page)
check(rc == 2 and out.count(zero_page) == 2 and len(err.splitlines()) == 1, "bad file among good ones")

for p in (zero_page, multi, odd, unreadable):
    os.unlink(p)
# Help, version, listings and verify's verdict that cannot be written are an error (saying why), not exit 0.
if os.path.exists("/dev/full"):
    for args in (["--help"], ["--version"], ["bench", "--help"], ["list", "--names"], ["verify", "-H", "xxh64"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([BIN, *args], stdout=full, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and "No space left on device" in p.stderr and len(p.stderr.splitlines()) == 1,
              f"{' '.join(args)} > /dev/full: one error, exit 2: rc={p.returncode} {p.stderr!r}")

# A path too long for the error line (3.8 kB, each part under NAME_MAX) is
# cut before the reason, never the reason: the line used to end inside it.
long_path = "/nonexistent-ksmbench/" + "/".join(["a" * 200] * 19)
for args in (["sum", long_path], ["sum", "-c", long_path], ["scan", long_path], ["compare", long_path, long_path]):
    rc, out, err = run(*args)
    check(rc == 2 and out == "" and len(err.splitlines()) == 1 and len(err) < 600
          and err.rstrip("\n").endswith(("...': No such file or directory", "...: No such file or directory")),
          f"{args[0]} {args[1][:8]}... of a 3.8 kB path: the reason survives: rc={rc} {err[-120:]!r}")
# The same for the messages that quote an existing file or directory (-o
# a directory, an output or input named twice): the path was whole and
# the line ended inside it.
long_dir = os.path.join(tempfile.mkdtemp(), *["d" * 200] * 15)
os.makedirs(long_dir)
long_file = os.path.join(long_dir, "r.json")
with open(long_file, "w") as f:
    f.write("{}")
for args, reason in ((["ceiling", "-o", long_dir], "': it is a directory"),
                     (["bench", "--no-ceiling", "-o", long_file, "--export-json", long_file],
                      "' is written by another output already"),
                     (["plot", long_file, "-o", long_file], "': the report would replace it"),
                     (["compare", long_file, long_file, "-o", long_file], "': the report would replace it"),
                     (["scan", long_file, long_file], "' is named twice: each of its pages would be a duplicate "
                      "of itself")):
    rc, out, err = run(*args)
    check(rc == 2 and out == "" and len(err.splitlines()) == 1 and len(err) < 400
          and err.rstrip("\n").endswith("..." + reason),
          f"{args[0]} with a path of 3 kB: the reason survives: rc={rc} {err[-150:]!r}")
finish("cli")
