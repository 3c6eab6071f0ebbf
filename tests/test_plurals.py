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


rc, out, err = run("verify", "-H", "xxh3-sse2,jhash2", "--quick")
check(rc == 0 and re.search(r"xxh3-sse2\s+1 known answer,", out), f"verify: '1 known answer': {out!r}")
check(re.search(r"jhash2\s+\d+ known answers,", out) is not None, "verify: several known answers")
singular_ok("verify", out)
rc, out, err = run("ceiling", "--repeat", "1")
check(rc == 0 and "best of 1 repeat," in out, f"ceiling --repeat 1: {out.splitlines()[:1]!r}")
one = temp_file(bytes(4096))
rc, out, err = run("scan", "--sample-pages", "0", one)
check(rc == 0 and re.search(r"^1 page: 1 zero, 0 distinct non-zero contents; 0 of them occur more", out, re.M),
      f"scan of one page: {out!r}")
singular_ok("scan", out)
rc, out, err = run("sum", "--per-page", "--page-size", "1K", one)
singular_ok("sum", out + err)
os.unlink(one)
finish("plurals")
