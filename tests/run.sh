#!/bin/sh
# Runs the whole test suite: the unit-test binary, then every CLI test script
# against the ksmbench binary. Ends with one line "N passed, N failed".
# usage: tests/run.sh UNIT_TEST_BINARY KSMBENCH_BINARY
# KSMBENCH_TESTS="sum dumps ..." runs only those scripts (tests/test_NAME.py)
# after the unit tests: CI's cross and clang suites run such a subset.
set -u
unit=$1
bin=$2
here=$(dirname "$0")
total_pass=0
total_fail=0
status=0

tally() { # adds the "label: N passed, N failed" line of a run's output
	line=$(grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "no summary from $2: counted as one failure"
		total_fail=$((total_fail + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

scripts=""
if [ -n "${KSMBENCH_TESTS:-}" ]; then
	for n in $KSMBENCH_TESTS; do
		[ -f "$here/test_$n.py" ] || { echo "tests/run.sh: no test script tests/test_$n.py" >&2; exit 2; }
		scripts="$scripts $here/test_$n.py"
	done
else
	scripts=$(echo "$here"/test_*.py)
fi
log=$(mktemp)
echo "== unit tests"
"$unit" >"$log" 2>&1 || status=1
cat "$log"
tally "$log" "$unit"
for t in $scripts; do
	echo "== $(basename "$t")"
	start=$(date +%s)
	python3 "$t" "$bin" >"$log" 2>&1 || status=1
	cat "$log"
	tally "$log" "$t"
	echo "($(($(date +%s) - start)) s)"
done
rm -f "$log"
echo "$total_pass passed, $total_fail failed"
[ "$status" -eq 0 ] && [ "$total_fail" -eq 0 ]
