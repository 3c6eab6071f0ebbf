"""CLI tests of the shared option parser (cmd/cli.c): every command's
value-taking long options, found in its --help, given without a value say
so by name; unknown, ambiguous and misused options get one clear line."""
import re

from clitest import check, check_usage_error, finish, run

rc, out, _ = run("--help")
commands = re.findall(r"^  ([a-z]+)  ", out, re.M)
check(rc == 0 and {"bench", "sum", "capture", "compare", "scan"} <= set(commands), f"commands: {commands}")

# "--repeat N", "--format table|json", "--output F": an option and its value's name.
VALUE = re.compile(r"--([a-z][a-z0-9-]+)[ =](?:[A-Z][A-Z_]*\b|[a-z]+(?:\|[a-z]+)+)")
tried = 0
for cmd in commands:
    rc, helptext, _ = run(cmd, "--help")
    for name in sorted(set(VALUE.findall(helptext))):
        # Last on the line: getopt_long finds nothing to take as the value.
        check_usage_error([cmd, f"--{name}"], f"option '--{name}' needs a value", f"{cmd} --{name} without a value")
        tried += 1
check(tried >= 40, f"value-taking long options found in the help texts: {tried}")

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
finish("options")
