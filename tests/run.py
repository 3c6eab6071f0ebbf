#!/usr/bin/env python3
"""Runs the whole test suite: the unit-test binary and every CLI test script
against the ksmbench binary, several at a time, and ends with one line
"N passed, N failed".

usage: tests/run.py UNIT_TEST_BINARY KSMBENCH_BINARY

KSMBENCH_TESTS="unit sum dumps ..." runs only those: `unit` names the
unit-test binary, NAME the script tests/test_NAME.py (CI's cross, clang and
thread-sanitizer suites run such a subset, and CI runs the sanitizer suite
one part at a time). KSMBENCH_TEST_JOBS=N runs N at a time; the default is
one per CPU this process may run on, since a script spends most of its time
waiting on one ksmbench process.

Each one's output is printed whole, in the order of the list, as soon as it
and every one before it are done, followed by its time."""
import concurrent.futures
import os
import re
import subprocess
import sys
import time

SUMMARY = re.compile(r"^[a-z_-]+: (\d+) passed, (\d+) failed", re.M)


def selected(here):
    """The names to run: "unit" and the scripts' NAMEs, in order."""
    every = ["unit"] + sorted(f[5:-3] for f in os.listdir(here) if re.fullmatch(r"test_\w+\.py", f))
    names = os.environ.get("KSMBENCH_TESTS", "").split() or every
    for n in names:
        if n not in every:
            sys.exit(f"tests/run.py: no test script tests/test_{n}.py")
    return names


def run_one(cmd):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError as e:  # a unit-test binary not built: its failure, not the runner's
        return 127, f"{cmd[0]}: {e.strerror}\n", time.monotonic() - start
    return p.returncode, p.stdout.decode(errors="replace"), time.monotonic() - start


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tests/run.py UNIT_TEST_BINARY KSMBENCH_BINARY")
    unit, binary = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    jobs = [("unit tests", [unit]) if n == "unit" else
            (f"test_{n}.py", [sys.executable, os.path.join(here, f"test_{n}.py"), binary])
            for n in selected(here)]
    width = int(os.environ.get("KSMBENCH_TEST_JOBS") or len(os.sched_getaffinity(0)))
    passed = failed = 0
    ok = True
    pool = concurrent.futures.ThreadPoolExecutor(max(1, width))
    futures = [pool.submit(run_one, cmd) for _, cmd in jobs]
    try:
        for (label, _), fut in zip(jobs, futures):
            rc, out, seconds = fut.result()
            print(f"== {label}")
            print(out, end="" if out.endswith("\n") or not out else "\n")
            found = SUMMARY.findall(out)
            if found:
                passed += int(found[-1][0])
                failed += int(found[-1][1])
            else:
                print(f"no summary from the {label}: counted as one failure")
                failed += 1
            ok = ok and rc == 0
            print(f"({seconds:.0f} s)")
            sys.stdout.flush()
    except KeyboardInterrupt:
        # The tests running had the signal too (one process group): start
        # no more, wait for those to clean up after themselves.
        pool.shutdown(wait=True, cancel_futures=True)
        print("interrupted", file=sys.stderr)
        return 130
    pool.shutdown()
    print(f"{passed} passed, {failed} failed")
    return 0 if ok and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
