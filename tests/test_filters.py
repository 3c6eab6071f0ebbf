"""CLI tests of -H globs (bench, verify, scan): a glob stands for every
hash this CPU can run whose name it matches, in list order, each once; a
glob that matches nothing is one error naming it, exit 2."""
import csv
import io
import json
import os
import re
from fnmatch import fnmatchcase

from clitest import run, check, check_usage_error, temp_file, finish

rc, out, _ = run("list", "--format", "json")
entries = json.loads(out)["hashes"]
names = [e["name"] for e in entries]
runnable = [e["name"] for e in entries if e["available"]]


def expect(glob):
    return [n for n in runnable if fnmatchcase(n, glob)]


# --- bench: the CSV's rows are exactly the glob's runnable matches, in list order
for hlist in ("crc32c-?way*", "xxh3-*", "jhash2,xxh6[0-9]", "xxh64,xx*64"):
    want = []
    for part in hlist.split(","):
        for n in (expect(part) if any(c in part for c in "*?[") else [part]):
            if n not in want:
                want.append(n)
    globs_empty = [g for g in hlist.split(",") if any(c in g for c in "*?[") and not expect(g)]
    if globs_empty:  # none this CPU can run (crc32c-3way on arm64): the error names the glob
        check_usage_error(["bench", "-H", hlist], f"no hash this CPU can run matches '{globs_empty[0]}'",
                          f"bench -H {hlist!r} on this CPU")
        continue
    rc, out, err = run("bench", "-H", hlist, "--repeat", "1", "--window", "1ms", "--format", "csv", "-q")
    got = [r["hash"] for r in csv.DictReader(io.StringIO(out))] if rc == 0 else None
    check(rc == 0 and got == want and want, f"bench -H {hlist!r}: {got} != {want} ({err!r})")

# --- verify: one line per match
rc, out, err = run("verify", "-H", "crc32c-*", "--quick")
got = re.findall(r"^\S+\s+(crc32c-\S+)", out, re.M)
check(rc == 0 and got == expect("crc32c-*"), f"verify -H 'crc32c-*': {got} != {expect('crc32c-*')}")

# --- scan: the checksums examined are the matches
dump = temp_file(os.urandom(4096 * 8) + bytes(4096 * 8))
rc, out, err = run("scan", "-H", "xxh3-*", "--format", "json", "--sample-pages", "0", dump)
try:
    d = json.loads(out)
    text = json.dumps(d)
    check(rc == 0 and all(f'"{n}"' in text for n in expect("xxh3-*")), f"scan -H 'xxh3-*': rc={rc} {err!r}")
except ValueError:
    check(False, f"scan -H glob: not JSON: rc={rc} {err!r}")

# --- no match: one error naming the pattern, for every command
for args in (["bench"], ["verify"], ["scan", dump]):
    check_usage_error([args[0], "-H", "nope*", *args[1:]], "no hash matches 'nope*'", f"{args[0]} -H 'nope*'")
    check_usage_error([args[0], "-H", "jhash2,[", *args[1:]], "no hash matches '['", f"{args[0]} -H 'jhash2,['")
# A glob whose every match this CPU cannot run (xxh3-neon on x86, xxh3-avx2 on arm64).
for n in names:
    if n not in runnable and not expect(n + "*"):
        check_usage_error(["bench", "-H", n + "*"], f"no hash this CPU can run matches '{n}*'",
                          f"bench -H '{n}*' (not runnable here)")
        break
os.unlink(dump)
finish("filters")
