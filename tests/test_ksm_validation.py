"""Validation of `capture --interval` + `scan` against the kernel's KSM.
Four processes of tests/ksm_workload.py (contents shared across them, groups
over max_page_sharing, one-byte-different pages, zero and 0xff pages, pages
only read that map the zero page, volatile pages rewritten every 2 ms, a THP
region) are captured together, scanned, then merged by the real KSM (fast
settings) until the counters settle; the kernel's pages_shared,
pages_sharing, ksm_zero_pages, stable_node_chains and stable_node_dups must
equal the prediction, for max_page_sharing 256 and 16 with use_zero_pages 0
and 1 (a fresh workload each). Every KSM setting is restored and KSM left
off, also on failure or a signal (tests/ksm_guard.py). Skipped where KSM is
missing, not writable, or in use."""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ksm_guard  # noqa: E402
from clitest import check, finish, ksmd_period_ns, read_fault_maps_zero_page, run  # noqa: E402

NPROC = 4
COUNTERS = ("pages_shared", "pages_sharing", "ksm_zero_pages", "stable_node_chains", "stable_node_dups")
SETTLE_TIMEOUT_S = 40


def skip(why):
    print(f"SKIP ksm validation: {why}")
    finish("ksm_validation")


def proc_ksm(pid):
    out = {}
    with open(f"/proc/{pid}/ksm_stat") as f:
        for line in f:
            k, _, v = line.partition(" ")
            out[k.rstrip(":")] = int(v.split()[0]) if v.split()[0].lstrip("-").isdigit() else v.strip()
    return out


def start_workload():
    procs = [subprocess.Popen([sys.executable, os.path.join(HERE, "ksm_workload.py"), str(k), str(NPROC)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE) for k in range(NPROC)]
    for p in procs:
        check(p.stdout.readline().startswith(b"ready"), f"workload process {p.pid} ready")
    return procs


def stop_workload(procs):
    for p in procs:
        p.stdin.close()
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def predict(procs, tmp, mps):
    pattern = os.path.join(tmp, "core.%p")
    rc, out, err = run("capture", "--pid", ",".join(str(p.pid) for p in procs), "--mergeable",
                       "--interval", "150ms", "-o", pattern)
    check(rc == 0, f"capture --interval of {NPROC} processes: {err!r}")
    cores = [pattern.replace("%p", str(p.pid)) for p in procs]
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", "--max-page-sharing", str(mps),
                       "--smart-scan", "1", *cores)
    check(rc == 0, f"scan of the captures: {err!r}")
    doc = json.loads(out)
    for c in cores:
        os.unlink(c)
    return doc


def settle(start_scans):
    """The kernel's counters once they held over two more full scans."""
    deadline, last, same_since = time.monotonic() + SETTLE_TIMEOUT_S, None, None
    while time.monotonic() < deadline:
        time.sleep(0.05)
        scans = ksm_guard.read("full_scans") - start_scans
        got = {n: ksm_guard.read(n) for n in COUNTERS}
        if got != last:
            last, same_since = got, scans
        elif scans >= 4 and scans - same_since >= 2:
            break
    return last, ksm_guard.read("full_scans") - start_scans


def snapshot(at_least):
    """(full_scans, pages_scanned, pages_skipped) once full_scans reached
    at_least, read while ksmd sleeps: a batch ends with its full scan here,
    and pages_scanned held over the reads and a millisecond more."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while time.monotonic() < deadline:
        time.sleep(0.002)
        scanned = ksm_guard.read("pages_scanned")
        got = (ksm_guard.read("full_scans"), scanned, ksm_guard.read("pages_skipped"))
        time.sleep(0.001)
        if got[0] >= at_least and ksm_guard.read("pages_scanned") == scanned:
            return got
    return None


def smart_scan_rates(label, want, watch):
    """smart_scan in the steady state: switched on once the counters settled
    (off, no page aged), from the 14th full scan on a page neither merged
    nor gone is visited one scan in 9, so over 45 scans pages_scanned and
    pages_skipped grow by 45 times the model's visited and skipped pages a
    scan (skipped within 1%: a visit every 8 scans would skip 1.7% fewer);
    and with watch, `ksm --watch`'s pages checksummed a second."""
    ksm_guard.write("smart_scan", 1)
    try:
        start = ksm_guard.read("full_scans")
        a = snapshot(start + 16)
        b = a and snapshot(a[0] + 45)
        # (two seconds, so that the part of a scan at either end is small
        # beside the ~150 whole ones; the estimate takes the mix of merged
        # and other pages of the whole memory; measured again, up to twice,
        # when it is off: pages new to KSM, a THP khugepaged collapsed again,
        # are checksummed in scans that would skip them, and once in CI's
        # run the rate read 1481 against 1666)
        for attempt in range(3 if watch else 0):
            rc, out, err = run("ksm", "--watch", "2s", "--count", "1", "--format", "json")
            w = json.loads(out) if rc == 0 else {}
            rate = (w.get("full_scans") or 0) / (w.get("seconds") or 1) * want["steady_scan_checksummed_pages"]
            watched = w.get("pages_checksummed_per_second")  # null when the window saw no full scan
            if rc == 0 and watched is not None and abs(watched - rate) <= 0.1 * rate:
                break
    finally:
        ksm_guard.write("smart_scan", 0)
    check(a is not None and b is not None, f"{label}: 61 full scans with smart_scan within {SETTLE_TIMEOUT_S} s")
    if a is None or b is None:
        return
    n = b[0] - a[0]
    visited, skipped = (b[1] - a[1]) / n, (b[2] - a[2]) / n
    print(f"{label} smart_scan: predicted {want['steady_scan_visited_pages']:.1f} pages visited and "
          f"{want['steady_scan_skipped_pages']:.1f} skipped a scan, kernel over {n} full scans "
          f"{visited:.1f} and {skipped:.1f}")
    # (visited within 3%: khugepaged may collapse a region into a new THP
    # whose pages, new to KSM, are visited in scans that would skip them)
    for name, got, within in (("visited", visited, 0.03), ("skipped", skipped, 0.01)):
        model = want[f"steady_scan_{name}_pages"]
        check(abs(got - model) <= within * model + 0.5,
              f"{label}: smart_scan {name} {got:.1f} a scan ~ predicted {model:.1f}")
    if not watch:
        return
    # --watch's pages checksummed a second, from the kernel's counters alone
    # (the merged mappings visited, the rest checksummed or skipped), against
    # the model's pages checksummed a scan times the scans it saw (rate).
    print(f"{label} smart_scan: ksm --watch {watched or 0:.0f} pages checksummed a "
          f"second, the model {rate:.0f} over {w.get('full_scans')} full scans")
    check(rc == 0 and (w.get("full_scans") or 0) >= 50 and watched is not None and abs(watched - rate) <= 0.1 * rate,
          f"{label}: --watch's pages checksummed a second {watched} ~ {rate:.0f}")


def steady_visits():
    """The pages every full scan visits, when two sets of four scans agree
    (smart_scan off: the same rmap items each scan), else None."""
    a = snapshot(ksm_guard.read("full_scans") + 1)
    b = a and snapshot(a[0] + 4)
    c = b and snapshot(b[0] + 4)
    return (b[1] - a[1]) // 4 if a and b and c and b[1] - a[1] == c[1] - b[1] else None


def scan_period_ms(seconds=2.0):
    """The median time between two of the kernel's full scans over about
    seconds: full_scans polled every 0.2 ms, each step's time kept."""
    steps, last, end = [], None, time.monotonic() + seconds
    with open(os.path.join(ksm_guard.KSM, "full_scans")) as f:
        while time.monotonic() < end:
            f.seek(0)
            v = int(f.read())
            if last is not None and v != last:
                steps.append(time.monotonic())
            last = v
            time.sleep(0.0002)
    gaps = sorted(b - a for a, b in zip(steps, steps[1:]))
    return 1e3 * gaps[len(gaps) // 2] if gaps else None


def scan_batches(label):
    """A full scan takes floor(v / pages_to_scan) + 1 batches (scan's
    ksm_scan_batches): the call that finds the end of the list ends a batch
    of its own. With smart_scan off every scan visits the same v pages; at
    pages_to_scan v a scan then takes two batches, at v + 1 one (ceil(v /
    pages_to_scan) would say one both times). Each batch is ksmd's period:
    sleep_millisecs 50 is 13 jiffies at HZ 250 and fires a tick late, 56 ms
    (common/kernel_timer.c; the batch's work, a few ms, stays within the
    jiffy it started in). The time between full scans is measured one by
    one (their median): within 3% of the model, or later by up to a jiffy a
    batch, which ksmd's work takes when other work preempts it past a tick
    (CI's parallel builds: 59.7 ms a batch; the model counts the checksums'
    time only). Pages new to KSM (khugepaged collapsing a THP again, slower
    under the sanitizers) change v: measured again after, and the whole
    tried up to three times."""
    hz = round(1 / time.clock_getres(6))  # CLOCK_MONOTONIC_COARSE: one jiffy
    for attempt in range(3):
        v = steady_visits()
        if v is None:
            continue
        periods = []
        try:
            ksm_guard.write("sleep_millisecs", 50)
            for n in (v, v + 1):
                ksm_guard.write("pages_to_scan", n)
                time.sleep(0.25)  # the scan under way ends
                periods.append(scan_period_ms())
        finally:
            ksm_guard.write("pages_to_scan", 20000)
            ksm_guard.write("sleep_millisecs", 5)
        if steady_visits() != v or None in periods:
            continue
        for n, batches, got in ((v, 2, periods[0]), (v + 1, 1, periods[1])):
            want = batches * ksmd_period_ns(50, hz) / 1e6
            print(f"{label}: {v} pages a scan at pages_to_scan {n}: a full scan every {got:.2f} ms, "
                  f"{batches} batch{'es' if batches > 1 else ''} of ksmd's period at HZ {hz} predict {want:.2f}")
            late = batches * 1e3 / hz  # a jiffy a batch
            check(0.97 * want <= got <= want + late + 0.03 * want,
                  f"{label}: pages_to_scan {n} of {v} pages: a full scan every {got:.2f} ms ~ {want:.2f} "
                  f"({batches} batches at HZ {hz}, up to {late:.0f} ms late)")
        return
    print(f"SKIP {label}: the pages a full scan visits did not hold still over three tries (pages new to KSM)")


def one_setting(tmp, mps, uzp):
    """Once, again when another process's mergeable memory mixed in; skipped
    when it did all three times."""
    for attempt in range(3):
        if attempt_setting(tmp, mps, uzp, last=attempt == 2):
            return


def attempt_setting(tmp, mps, uzp, last):
    ksm_guard.write("run", 2)
    ksm_guard.write("max_page_sharing", mps)
    ksm_guard.write("use_zero_pages", uzp)
    procs = start_workload()
    try:
        doc = predict(procs, tmp, mps)
        want = doc["ksm"][f"use_zero_pages_{uzp}"]
        t = doc["totals"]
        # (where read faults get pages of their own, those pages are zeros)
        zero_mapped = 40 * NPROC if read_fault_maps_zero_page() else 0
        check(t["pages_volatile"] == 16 * NPROC and t["zero_page_mapped"] == zero_mapped,
              f"the captures mark the volatile pages and leave out the zero-page mappings: {t}")
        check(all(d["pfn_known"] and d["two_snapshots"] and d["pages_mergeable"] == d["pages"] for d in doc["dumps"]),
              "captures with PFNs, two snapshots, every page in a mergeable mapping (--mergeable)")
        start = ksm_guard.read("full_scans")
        ksm_guard.write("run", 1)
        got, scans = settle(start)
        label = f"max_page_sharing={mps} use_zero_pages={uzp}"
        others = ksm_guard.mergeable_processes({p.pid for p in procs})
        if others:
            print(f"{'SKIP ' if last else ''}{label}: processes {others} have mergeable memory too: their pages "
                  f"mix in{'' if last else '; again'}")
            return last
        print(f"{label}: predicted {[want[n] for n in COUNTERS]}, kernel after {scans} full scans "
              f"{[got[n] for n in COUNTERS]} (THP zero subpages {want['thp_zero_subpages']}, volatile "
              f"{want['pages_volatile']}, kernel pages_volatile {ksm_guard.read('pages_volatile')})")
        for n in COUNTERS:
            check(got[n] == want[n], f"{label}: {n} kernel {got[n]} == predicted {want[n]}")
        if os.path.exists(os.path.join(ksm_guard.KSM, "pages_skipped")):  # smart_scan: 6.7+
            smart_scan_rates(label, want, watch=(mps, uzp) == (256, 0))
        if (mps, uzp) == (256, 0):
            scan_batches(label)
        merging = sum(proc_ksm(p.pid).get("ksm_merging_pages", 0) for p in procs)
        check(merging == want["pages_shared"] + want["pages_sharing"],
              f"{label}: the processes' ksm_merging_pages {merging}")
        # ksmd is still running and pages_shared is the whole system's: it may
        # move while the command reads it, so it must lie between the reads
        # taken just before and just after.
        before = ksm_guard.read("pages_shared")
        rc, out, err = run("ksm", "--pid", str(procs[0].pid), "--format", "json")
        after = ksm_guard.read("pages_shared")
        kdoc = json.loads(out) if rc == 0 else {}
        shared = kdoc.get("sysfs", {}).get("pages_shared")
        check(shared is not None and min(before, after) <= shared <= max(before, after),
              f"ksm --pid reads the same counters: {shared} within {before}..{after} {err!r}")
        return True
    finally:
        ksm_guard.write("run", 2)
        stop_workload(procs)


why = ksm_guard.why_not_usable()
if why:
    skip(why)
with ksm_guard.Guard() as guard:
    busy = guard.busy()  # reads every process's smaps: once
    if busy:
        skip(busy)
    before = dict(guard.saved)
    tmp = tempfile.mkdtemp(prefix="ksmbench-ksm-")
    try:
        ksm_guard.write("smart_scan", 0)  # every page every scan: settles sooner
        ksm_guard.write("pages_to_scan", 20000)
        ksm_guard.write("sleep_millisecs", 5)
        for mps, uzp in ((256, 0), (256, 1), (16, 0), (16, 1)):
            one_setting(tmp, mps, uzp)
    finally:
        guard.restore()
        os.rmdir(tmp)
for name, value in before.items():
    check(ksm_guard.read(name) == value, f"KSM setting {name} restored to {value}")
finish("ksm_validation")
