"""CLI tests for `ksmbench compare` on crafted results documents: a
regression, an improvement, a change within the threshold, a change beyond
it whose rounds overlap (noise), too few rounds for the rank test (ranges),
results in one file only, every output format, and unusable input."""
import json
import os

from clitest import run, check, check_usage_error, temp_file, finish


def result(hash_, rounds, data="random", cache="hot", timer="window", page=4096, keep_rounds=True):
    """A result as bench writes it, its statistics derived from the rounds' rates."""
    ns = sorted(page * 1e9 / r for r in rounds)
    med_rate = sorted(rounds)[len(rounds) // 2] if len(rounds) % 2 else \
        sum(sorted(rounds)[len(rounds) // 2 - 1:len(rounds) // 2 + 1]) / 2
    r = {"hash": hash_, "implementation": hash_, "data": data, "cache": cache, "page_size_bytes": page,
         "misalign_bytes": 0, "timer": timer, "repeats": len(rounds), "bytes_per_second_best": max(rounds),
         "bytes_per_second_median": med_rate, "ns_per_page_best": ns[0], "ns_per_page_median": page * 1e9 / med_rate,
         "ns_per_page_min": ns[0], "ns_per_page_max": ns[-1], "interrupted": False}
    if keep_rounds:
        r["bytes_per_second_rounds"] = list(rounds)
    return r


def doc(*results, interrupted=False):
    return {"schema": "ksmbench-results/1", "interrupted": interrupted,
            "context": {"date": "2026-11-30T12:00:00Z", "git_revision": "abc", "cpu": {"brand": "Test CPU"}},
            "results": list(results)}


made = []


def write(d):
    made.append(temp_file(json.dumps(d).encode(), suffix=".json"))
    return made[-1]


G = 1e9
base_rounds = [10.0 * G, 10.1 * G, 9.9 * G, 10.05 * G, 9.95 * G]
base = write(doc(
    result("xxh64", base_rounds),                                 # -> regression
    result("jhash2", [3.0 * G, 3.02 * G, 2.98 * G, 3.01 * G, 2.99 * G]),   # -> improvement
    result("crc32c", [40 * G, 41 * G, 39 * G, 40.5 * G, 39.5 * G]),        # -> unchanged
    result("xxh32", [7 * G, 9 * G, 5 * G, 8 * G, 6 * G]),                  # -> noise (rank test)
    result("xxh3", [20 * G, 22 * G, 18 * G], keep_rounds=True),            # -> ranges (3 rounds)
    result("crc32c-generic", [2 * G, 2.1 * G, 1.9 * G, 2.05 * G, 1.95 * G], keep_rounds=False),  # ranges, no rounds
    result("xxh64", base_rounds, data="zero"),                    # only in base
))
new = write(doc(
    result("xxh64", [r * 0.8 for r in base_rounds]),
    result("jhash2", [3.6 * G, 3.62 * G, 3.58 * G, 3.61 * G, 3.59 * G]),
    result("crc32c", [40.5 * G, 41 * G, 39.5 * G, 40 * G, 40.2 * G]),
    result("xxh32", [6 * G, 8.5 * G, 4.5 * G, 7.5 * G, 5.5 * G]),      # -12% median, rounds interleaved
    result("xxh3", [15 * G, 21 * G, 16 * G]),                           # -25% median, ranges overlap
    result("crc32c-generic", [1.5 * G, 1.52 * G, 1.48 * G, 1.51 * G, 1.49 * G], keep_rounds=False),
    result("xxh64", base_rounds, cache="cold"),                   # only in new
))

# --- JSON: one comparison per matched result, verdicts as designed, exit 1
rc, out, err = run("compare", base, new, "--format", "json")
check(rc == 1, f"a regression exits 1: rc={rc} err={err!r}")
d = json.loads(out)
check(d["schema"] == "ksmbench-compare/1" and d["threshold_percent"] == 5 and d["alpha"] == 0.05, "compare header")
by = {c["hash"]: c for c in d["comparisons"]}
check(len(d["comparisons"]) == 6, f"six matched: {list(by)}")
check(by["xxh64"]["verdict"] == "regression" and abs(by["xxh64"]["change_percent"] + 20) < 1e-6, "regression")
check(by["xxh64"]["method"] == "mann-whitney-exact" and abs(by["xxh64"]["p_value"] - 2 / 252) < 1e-9,
      f"exact p for separated 5/5 rounds: {by['xxh64']}")
check(by["jhash2"]["verdict"] == "improvement", "improvement")
check(by["crc32c"]["verdict"] == "unchanged", "within the threshold")
check(by["xxh32"]["verdict"] == "noise" and by["xxh32"]["p_value"] > 0.05, f"overlapping rounds: {by['xxh32']}")
check(by["xxh3"]["method"] == "ranges" and by["xxh3"]["ranges_overlap"] and by["xxh3"]["verdict"] == "noise",
      f"3 rounds: ranges, overlapping: {by['xxh3']}")
check(by["crc32c-generic"]["method"] == "ranges" and not by["crc32c-generic"]["ranges_overlap"]
      and by["crc32c-generic"]["verdict"] == "regression" and by["crc32c-generic"]["p_value"] is None,
      f"no rounds kept: min/max ranges: {by['crc32c-generic']}")
check(d["regressions"] == 2 and d["improvements"] == 1, "counts")
check([o["data"] for o in d["only_in_base"]] == ["zero"] and [o["cache"] for o in d["only_in_new"]] == ["cold"],
      "results in one file only are listed")

# --- table: every matched result, verdicts, the one-file results, a summary; no colour in a pipe
rc, out, err = run("compare", base, new)
check(rc == 1 and "\033[" not in out, "table exit 1, no colour when piped")
lines = out.splitlines()
check(lines[0].startswith("# base ") and "Test CPU" in lines[0], "table names the base run")
rows = [l.split() for l in lines if l.split() and l.split()[0] in by]
check(len(rows) == 6 and all(r[-1] in ("regression", "improvement", "unchanged", "noise") for r in rows),
      f"table rows: {rows}")
check(any(l.startswith("only in base: xxh64 zero hot 4096 window") for l in lines), "only in base line")
check(any(l.startswith("only in new: xxh64 random cold 4096 window") for l in lines), "only in new line")
check(lines[-1].startswith("2 regressions, 1 improvement, 1 unchanged, 2 within noise"), f"summary: {lines[-1]!r}")

# --- markdown for a review
rc, out, err = run("compare", base, new, "--format", "markdown")
check(rc == 1 and out.startswith("### ksmbench compare: 2 regressions"), "markdown heading")
md_rows = [l for l in out.splitlines() if l.startswith("| ")]
check(len(md_rows) == 8 and md_rows[1].startswith("| --- |"), f"markdown table: {len(md_rows)} rows")
check("**regression**" in out and "- only in base:" in out, "markdown verdicts and lists")

# --- threshold: at 25% nothing regresses; exit 0; -o writes the report atomically
outp = temp_file(b"", ".md")
os.unlink(outp)
rc, out, err = run("compare", base, new, "--threshold", "25%", "--format", "markdown", "-o", outp)
check(rc == 0 and out == "" and open(outp).read().startswith("### ksmbench compare: 0 regressions"),
      f"threshold 25%: rc={rc} err={err!r}")
os.unlink(outp)
rc, out, err = run("compare", base, base, "--format", "json")
check(rc == 0 and all(c["verdict"] == "unchanged" for c in json.loads(out)["comparisons"]), "a file against itself")
rc, out, err = run("compare", new, base, "--threshold", "3")
check(rc == 1, "bare-number threshold; reversed files: the improvements become regressions")

# --- an older file without rounds, an interrupted run: accepted and said so
part = write(doc(result("xxh64", base_rounds), interrupted=True))
rc, out, err = run("compare", base, part)
check(rc == 0 and "INTERRUPTED" in out, f"interrupted run marked: {out[:300]!r}")

# --- unusable input: one line, exit 2
notjson = temp_file(b"{ not json", ".json")
check_usage_error(["compare", notjson, new], "not a JSON document", "not JSON")
wrong = write({"schema": "something-else/9", "results": []})
check_usage_error(["compare", base, wrong], "is not ksmbench-results/1", "wrong schema")
noschema = write({"results": []})
check_usage_error(["compare", noschema, base], "not a ksmbench results document", "no schema")
bad = doc(result("xxh64", base_rounds))
del bad["results"][0]["bytes_per_second_median"]
check_usage_error(["compare", base, write(bad)], "results[0]: \"bytes_per_second_median\" is missing",
                  "missing field")
bad = doc(result("xxh64", base_rounds))
bad["results"][0]["hash"] = 7
check_usage_error(["compare", base, write(bad)], "\"hash\" is missing or not a string", "field of the wrong type")
bad = doc(result("xxh64", base_rounds))
bad["results"][0]["bytes_per_second_rounds"] = [1, "x"]
check_usage_error(["compare", base, write(bad)], "bytes_per_second_rounds[1]", "bad round")
bad = doc()
bad["results"] = {"a": 1}
check_usage_error(["compare", base, write(bad)], "\"results\" is missing or not an array", "results not an array")
dup = write(doc(result("xxh64", base_rounds), result("xxh64", base_rounds)))
check_usage_error(["compare", dup, base], "measure the same thing", "duplicate result")
other = write(doc(result("jhash2", base_rounds, data="zero", cache="cold")))
check_usage_error(["compare", base, other], "no result of", "nothing in common")
check_usage_error(["compare", base, "/nonexistent/x.json"], "/nonexistent/x.json", "missing file")
check_usage_error(["compare", base], "needs two files", "one file")
check_usage_error(["compare", base, new, "--threshold", "abc"], "--threshold", "bad threshold")
check_usage_error(["compare", base, new, "--threshold", "-5%"], "--threshold", "negative threshold")
check_usage_error(["compare", base, new, "--alpha", "2"], "--alpha", "bad alpha")
check_usage_error(["compare", base, new, "--format", "csv"], "unknown format", "bad format")

# --- end to end: two real runs compare without an input error
a = temp_file(b"", ".json")
rc, out, err = run("bench", "-H", "xxh64,jhash2", "--window", "2ms", "--warmup", "1ms", "--repeat", "4",
                   "--format", "json", "-o", a)
check(rc == 0, f"bench for compare: {err!r}")
rc, out, err = run("compare", a, a, "--format", "json")
check(rc == 0 and len(json.loads(out)["comparisons"]) == 2, f"real results compare: rc={rc} err={err!r}")

for p in made + [notjson, a]:
    os.unlink(p)
finish("compare")
