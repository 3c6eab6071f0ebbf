"""CLI tests of the shared option parser (cmd/cli.c): every command's
value-taking long and short options, found in its --help, given without a
value say so by name; unknown, ambiguous and misused options get one clear
line; every short option a parser takes is one its --help names. Every command is covered: one that parsed with getopt_long instead of
cli_getopt_long would call a missing value an unknown option."""
import glob
import os
import re

from clitest import check, check_usage_error, finish, run

rc, out, _ = run("--help")
commands = re.findall(r"^  ([a-z]+)  ", out, re.M)
ALL = {"list", "verify", "sum", "capture", "bench", "thread", "select", "compare", "plot", "scan", "ksm",
       "ceiling"}
check(rc == 0 and ALL <= set(commands), f"commands: {commands}")

# "--repeat N", "--format table|json", "--output F": an option and its value's name.
VALUE = re.compile(r"--([a-z][a-z0-9-]+)[ =](?:[A-Z][A-Z_]*\b|[a-z]+(?:\|[a-z]+)+)")
# "  -o, --output FILE": a short option that takes a value.
SHORT = re.compile(r"^ +-([a-zA-Z]), --[a-z-]+ [A-Z]+", re.M)
tried = 0
for cmd in commands:
    rc, helptext, _ = run(cmd, "--help")
    names = sorted(set(VALUE.findall(helptext)))
    # Every command takes at least --format or a hash or a file.
    check(rc == 0 and names, f"{cmd} --help names value-taking options: {names}")
    for name in names:
        # Last on the line: getopt_long finds nothing to take as the value.
        check_usage_error([cmd, f"--{name}"], f"option '--{name}' needs a value", f"{cmd} --{name} without a value")
        tried += 1
    for letter in sorted(set(SHORT.findall(helptext))):
        check_usage_error([cmd, f"-{letter}"], f"option '-{letter}' needs a value", f"{cmd} -{letter} without a value")
    check_usage_error([cmd, "--no-such-option"], "unknown option '--no-such-option'", f"{cmd}: unknown long option")
    check_usage_error([cmd, "--help=1"], "option '--help' takes no value", f"{cmd} --help=1")
check(tried >= 60, f"value-taking long options found in the help texts: {tried}")

# Every short option a command's parser takes (its getopt string in cmd/)
# is one its --help names, -h aside: list took an -f for --format that no
# text mentioned.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in sorted(glob.glob(os.path.join(ROOT, "cmd", "cmd_*.c"))):
    for letters in re.findall(r'cli_getopt_long\(argc, argv, "([^"]*)"', open(path).read()):
        cmd = re.sub(r"_options$", "", os.path.basename(path)[4:-2])
        rc, helptext, _ = run(cmd, "--help")
        for letter in sorted(set(letters.replace(":", "")) - {"h"}):
            check(re.search(rf"(?<![\w-])-{letter}(?![\w-])", helptext) is not None,
                  f"{cmd} takes -{letter}, which its --help names")
check_usage_error(["list", "-f", "json"], "unknown option '-f'", "list has no -f")

# The cases of the issue, with arguments before the option.
check_usage_error(["compare", "a", "b", "--threshold"], "option '--threshold' needs a value", "compare a b --threshold")
check_usage_error(["capture", "--pid"], "option '--pid' needs a value", "capture --pid")
# An abbreviation is named by the option it stands for.
check_usage_error(["bench", "--rep"], "option '--repeat' needs a value", "abbreviated --rep")
check_usage_error(["bench", "--w"], "ambiguous option '--w'", "ambiguous abbreviation")
check_usage_error(["bench", "--selfcheck=1"], "option '--selfcheck' takes no value", "a value for a flag")
check_usage_error(["bench", "--nope"], "unknown option '--nope'", "unknown long option")
# Short options: unknown ones are unknown wherever they stand, value-taking
# ones without a value say so, inside a cluster too.
check_usage_error(["sum", "-x", "/dev/null"], "unknown option '-x'", "unknown short option first")
check_usage_error(["sum", "/dev/null", "-x"], "unknown option '-x'", "unknown short option last")
check_usage_error(["sum", "-H"], "option '-H' needs a value", "short option without a value")
check_usage_error(["bench", "-qH"], "option '-H' needs a value", "short option in a cluster without a value")
# Hash lists: an empty element is a mistake everywhere, not a silent skip.
for cmd, extra in (("bench", []), ("scan", ["/dev/null"]), ("verify", [])):
    for bad in ("xxhash,", ",xxhash", "xxh64,,crc32c", ""):
        check_usage_error([cmd, "-H", bad, *extra], "empty name in the hash list", f"{cmd} -H {bad!r}")
check_usage_error(["sum", "-H", "xxhash,", "/dev/null"], "one hash name, not a list", "sum -H 'xxhash,'")
check_usage_error(["sum", "-H", "all", "/dev/null"], "one hash name, not a list ('all')", "sum -H all")
# An option given twice takes its last value (ksmbench.1, DESCRIPTION):
# lists do not add up across repeats.
rc, out, err = run("bench", "-H", "xxh64", "--repeat", "1", "--window", "1ms", "--format", "csv", "-q",
                   "--data", "zero", "--data", "random", "--page-size", "8K", "--page-size", "4K")
rows = [line.split(",") for line in out.splitlines()[1:]]
check(rc == 0 and [(r[2], r[4]) for r in rows] == [("random", "4096")], f"the last --data and --page-size: {rows}")
# Values each option refuses, one exact line each (exit 2, nothing on
# stdout): none of these ran before; each is checked before anything is
# measured or read, so none of them takes time.
SEVENTEEN = ",".join(str(i) for i in range(1, 18))
REFUSED = [
    (["bench", "--misalign", "x"], "ksmbench bench: --misalign: 'x' is not a number"),
    (["bench", "--misalign", SEVENTEEN], f"ksmbench bench: --misalign '{SEVENTEEN}': at most 8 values"),
    (["bench", "--misalign", "1" * 1100], "ksmbench bench: --misalign: the list is too long"),
    # A long value is cut in the message (common/quote.h), which then still
    # says what is wrong with it: whole, it filled the message's buffer.
    (["bench", "--repeat", "9" * 1000], f"ksmbench bench: --repeat: '{'9' * 60}...' is too large"),
    (["bench", "--repeat", "5" + "x" * 1000], f"ksmbench bench: --repeat: '5{'x' * 59}...' is not a number"),
    (["bench", "--page-size", "4" * 1000 + "K"], f"ksmbench bench: --page-size: size '{'4' * 60}...' is too large"),
    (["bench", "--window", "9" * 100 + "x"], f"ksmbench bench: --window: duration '{'9' * 60}...' is too long"),
    (["bench", "--cache", "cold", "--working-set", "1" + "x" * 1000],
     f"ksmbench bench: --working-set: '1{'x' * 59}...' is not a size (examples: 4096, 4K, 64K, 2M)"),
    (["bench", "--window", "0" * 1000],
     f"ksmbench bench: --window: duration '{'0' * 60}...' (a bare number is in ms) must be from 100 us to 60 s"),
    (["bench", "--warmup", "2x"], "ksmbench bench: --warmup: '2x' is not a duration (examples: 125ms, 2s, 500us)"),
    (["bench", "--pages-to-scan", "0"], "ksmbench bench: --pages-to-scan: a count from 1 to 100000"),
    (["bench", "--sleep-ms", "abc"], "ksmbench bench: --sleep-ms: 'abc' is not a number"),
    (["bench", "--ksmd", "--cache", "hot"],
     "ksmbench bench: --ksmd hashes a cold working set, as ksmd does: no --cache hot"),
    # 2 x 2 x 5 x 4 = 80 combinations; with --ksmd, 2 x 1 x 5 x 4 = 40, doubled.
    (["bench", "--page-size", "4K,8K,16K,32K,64K", "--data", "zero,random", "--misalign", "0,1,2,3",
      "--cache", "hot,cold"], "ksmbench bench: the sweep has 80 combinations (at most 64)"),
    (["bench", "--ksmd", "--cache", "cold", "--page-size", "4K,8K,16K,32K,64K", "--data", "zero,random",
      "--misalign", "0,1,2,3"], "ksmbench bench: --ksmd doubles the sweep to 80 combinations (at most 64)"),
    (["bench", "--cpu", "x"], "ksmbench bench: --cpu: 'x' is not a number"),
    (["bench", "--repeat", "x"], "ksmbench bench: --repeat: 'x' is not a number"),
    (["bench", "--cache", "cold", "--working-set", "1x"],
     "ksmbench bench: --working-set: '1x' is not a size (examples: 4096, 4K, 64K, 2M)"),
    (["bench", "--cache", "cold", "--working-set", "4K"], "ksmbench bench: --working-set '4K' must be from 64K to 64G"),
    (["bench", "--seed", "-1"], "ksmbench bench: --seed: '-1' is not a number"),
    (["scan", "--seed", "x", "/dev/null"], "ksmbench scan: --seed: 'x' is not a number"),
    (["scan", "--cpu", "x", "/dev/null"], "ksmbench scan: --cpu: 'x' is not a number"),
    (["select", "--seed", "x"], "ksmbench select: --seed: 'x' is not a number"),
    (["thread", "--seed", "x"], "ksmbench thread: --seed: 'x' is not a number"),
    (["ksm", "--count", "0"], "ksmbench ksm: --count '0' is not a number from 1 to 1000000"),
    # A page size that is no size names its option, as --working-set's does
    # (it said only "'x' is not a size", in a sweep of several options).
    (["bench", "--page-size", "4K,x"], "ksmbench bench: --page-size: 'x' is not a size (examples: 4096, 4K, 64K, 2M)"),
    (["bench", "--page-size", "100"],
     "ksmbench bench: --page-size: page size '100' must be a multiple of 64 bytes from 64 to 16M"),
    (["sum", "--per-page", "--page-size", "4KK", "/dev/null"],
     "ksmbench sum: --page-size: '4KK' is not a size (examples: 4096, 4K, 64K, 2M)"),
    (["scan", "--page-size", "0", "/dev/null"],
     "ksmbench scan: --page-size: page size '0' must be a multiple of 64 bytes from 64 to 16M"),
    (["ceiling", "--page-size", "-4K"], "ksmbench ceiling: --page-size: '-4K' is not a size (examples: 4096, 4K, 64K, 2M)"),
    (["list", "--available"], "ksmbench list: --available goes with --names"),
]
# The same for the options whose message names the value before the
# reason, each given 100 kB: whole, the value filled the message's buffer
# and the line ended inside it, the bounds lost.
LONG = "1" * 100000
LONG60 = "1" * 60 + "..."
ZEROS_1K = "0" * 100000 + "1K"  # a long text, a small size
REFUSED += [
    (["bench", "--hz", LONG], f"ksmbench bench: --hz '{LONG60}' must be from 8 to 10000"),
    (["thread", "--processes", LONG], f"ksmbench thread: --processes '{LONG60}' must be from 1 to 100"),
    (["bench", "--cache", "cold", "--working-set", ZEROS_1K],
     f"ksmbench bench: --working-set '{'0' * 60}...' must be from 64K to 64G"),
    (["compare", "--threshold", LONG, "a", "b"],
     f"ksmbench compare: --threshold '{LONG60}' must be a percentage from 0 to 1000"),
    (["compare", "--alpha", LONG, "a", "b"], f"ksmbench compare: --alpha '{LONG60}' must be a number from 1e-9 to 0.5"),
    (["ksm", "--pid", LONG], f"ksmbench ksm: --pid '{LONG60}' is not a process id"),
    (["ksm", "--watch", "1s", "--count", LONG], f"ksmbench ksm: --count '{LONG60}' is not a number from 1 to 1000000"),
    (["scan", "--kernel-bits", LONG, "/dev/null"], f"ksmbench scan: --kernel-bits: '{LONG60}' is not 32 or 64"),
    (["capture", "--pid", LONG, "-o", "/dev/null"], f"ksmbench capture: bad PID list '{LONG60}'"),
]
for args, line in REFUSED:
    rc, out, err = run(*args, timeout=60)
    check(rc == 2 and out == "" and err == line + "\n", f"{' '.join(args)[:80]}: rc={rc} {out[:80]!r} {err!r}")
# A word after the options where a command takes none.
for cmd in ("thread", "select", "verify", "list", "ksm"):
    rc, out, err = run(cmd, "extra", timeout=60)
    check(rc == 2 and out == "" and err == f"ksmbench {cmd}: unexpected argument 'extra'\n",
          f"{cmd} extra: rc={rc} {err!r}")
rc, out, err = run("capture", "--pid", "1", "extra")
check(rc == 2 and out == "" and err == "ksmbench capture: unexpected argument 'extra'\n", f"capture extra: {err!r}")
# An option letter that is no character: the word that holds it is quoted,
# alone or first in its cluster (getopt has not moved past the word then).
rc, out, err = run("list", "-\x01")
check(rc == 2 and err == "ksmbench list: unknown option in '-\\x01' (see ksmbench list --help)\n",
      f"list -\\x01: rc={rc} {err!r}")
rc, out, err = run("list", "-\u00e9")
check(rc == 2 and err == "ksmbench list: unknown option in '-\u00e9' (see ksmbench list --help)\n",
      f"list -\u00e9 (two bytes, the first refused): rc={rc} {err!r}")
# After a long option, the refused letter is still the cluster's: "list
# --names -zq" once said "option '--names' needs a value".
for args, line in ((["list", "--names", "-\u00e9"], "unknown option in '-\u00e9'"),
                   (["list", "--names", "-zq"], "unknown option '-z'")):
    rc, out, err = run(*args)
    check(rc == 2 and err == f"ksmbench list: {line} (see ksmbench list --help)\n",
          f"{' '.join(args)} (the word before a long option): rc={rc} {err!r}")
# A CPU past the machine's: refused before anything is measured or read,
# by every command that pins (the list of CPUs is this machine's).
for args in (["bench"], ["select"], ["thread"], ["ceiling"], ["scan", "/dev/null"]):
    rc, out, err = run(args[0], "--cpu", "9999", *args[1:], timeout=60)
    check(rc == 2 and out == "" and err.startswith(f"ksmbench {args[0]}: CPU 9999 does not exist (CPUs ")
          and err.endswith(" here)\n") and err.count("\n") == 1, f"{args[0]} --cpu 9999: rc={rc} {err!r}")
finish("options")
