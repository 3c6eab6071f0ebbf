"""Counts in output text agree with their nouns: "1 known answer", "1
repeat", "1 page", "1 of 1 measurement", never "1 known answers"."""
import os
import re

from clitest import run, check, temp_file, finish

ONE_PLURAL = re.compile(r"(?<![\d.,])1 (known answers|cross-checks|repeats|pages|holes|bytes|contents|copies|"
                        r"compares|collisions|measurements|mappings|segments)\b")


def singular_ok(what, text):
    bad = ONE_PLURAL.findall(text)
    check(not bad, f"{what}: a count of 1 with a plural noun: {bad}")


rc, out, err = run("verify", "--quick")
counts = re.findall(r"^\S+\s+\S+\s+(\d+) known (answers?),", out, re.M)
check(rc == 0 and counts and all((n == "1") == (w == "answer") for n, w in counts),
      f"verify: 'known answer' for 1, 'answers' otherwise: {sorted(set(counts))}")
check(("1", "answer") in counts, "verify: some hash has one known answer (xxh3's builds)")
singular_ok("verify", out)
rc, out, err = run("ceiling", "--repeat", "1")
m = re.search(r"best of (\d+) (rounds?)", out)
check(rc == 0 and m and (m.group(1) == "1") == (m.group(2) == "round"), f"ceiling --repeat 1: {out.splitlines()[:1]!r}")
one = temp_file(bytes(4096))
rc, out, err = run("scan", "--sample-pages", "0", one)
check(rc == 0 and re.search(r"^1 page: 1 zero, 0 distinct non-zero contents; 0 of them occur more", out, re.M),
      f"scan of one page: {out!r}")
singular_ok("scan", out)
rc, out, err = run("sum", "--per-page", "--page-size", "1K", one)
singular_ok("sum", out + err)
os.unlink(one)
finish("plurals")
