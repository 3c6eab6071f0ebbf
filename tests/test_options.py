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
finish("options")
