"""Validation of `scan` against the kernel's KSM: a child process holds a
known mixture of pages in MADV_MERGEABLE memory (three duplicated contents,
one of them with more copies than max_page_sharing, zero pages, unique
pages); `capture --mergeable` and `scan` predict what KSM will do; then the
real KSM runs (run=1, fast settings) until full_scans has advanced at least
twice and the counters settle, once with use_zero_pages=0 and once with 1,
and the kernel's counters are compared with the prediction. Every KSM
setting the test changed is restored, also on failure, and KSM is switched
back off. Skipped where /sys/kernel/mm/ksm/run is missing or not writable,
or KSM is already in use (its counters would mix with ours)."""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import check, finish, run  # noqa: E402

KSM = "/sys/kernel/mm/ksm"
SETTINGS = ("pages_to_scan", "sleep_millisecs", "use_zero_pages", "run")  # restored in reverse
LAYOUT = {"a": 4, "b": 3, "c": 300, "zero": 20, "unique": 30}
CHILD = r"""
import mmap, os, sys
ps = mmap.PAGESIZE
layout = %r
n = sum(layout.values())
m = mmap.mmap(-1, n * ps, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
m.madvise(mmap.MADV_MERGEABLE)
k = 0
for name, count in layout.items():
    for i in range(count):
        if name == "zero":
            page = bytes(ps)
        elif name == "unique":
            page = os.urandom(ps)
        else:
            page = name.encode() * ps
        m[k * ps:(k + 1) * ps] = page
        k += 1
print("ready", flush=True)
sys.stdin.read()
""" % LAYOUT


def ksm_read(name):
    with open(os.path.join(KSM, name)) as f:
        return int(f.read().split()[0])


def ksm_write(name, value):
    with open(os.path.join(KSM, name), "w") as f:
        f.write(str(value))


def proc_ksm(pid):
    out = {}
    with open(f"/proc/{pid}/ksm_stat") as f:
        for line in f:
            k, _, v = line.partition(" ")
            out[k.rstrip(":")] = v.strip()
    return out


def skip(why):
    print(f"SKIP ksm validation: {why}")
    finish("ksm_validation")


if os.environ.get("KSMBENCH_TEST_QUICK") == "1":
    skip("cross-architecture run under qemu-user (the host's KSM is validated by the native suite)")
if not os.path.exists(os.path.join(KSM, "run")):
    skip(f"{KSM}/run is missing (kernel without CONFIG_KSM)")
if not os.access(os.path.join(KSM, "run"), os.W_OK):
    skip(f"{KSM}/run is not writable (run as root)")
if not os.path.exists("/proc/self/ksm_stat"):
    skip("/proc/PID/ksm_stat is missing (kernel before 6.1)")
if ksm_read("run") != 0 or ksm_read("pages_shared") or ksm_read("pages_sharing"):
    skip("KSM is already running or holds merged pages: its counters would mix with this test's")

saved = {name: ksm_read(name) for name in SETTINGS if os.path.exists(os.path.join(KSM, name))}
tmp = tempfile.mkdtemp(prefix="ksmbench-ksm-")
child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
results = []
try:
    check(child.stdout.readline().strip() == b"ready", "child ready")
    core = os.path.join(tmp, "child.core")
    rc, out, err = run("capture", "--pid", str(child.pid), "--mergeable", "-o", core)
    check(rc == 0, f"capture --mergeable: {err!r}")
    mps = ksm_read("max_page_sharing")
    rc, out, err = run("scan", "--format", "json", "--sample-pages", "0", "--max-page-sharing", str(mps), core)
    check(rc == 0, f"scan of the capture: {err!r}")
    pred = json.loads(out)
    total = sum(LAYOUT.values())
    t = pred["totals"]
    check(t["pages"] == total and t["zero_pages"] == LAYOUT["zero"]
          and t["distinct_contents"] == 3 + LAYOUT["unique"], f"capture holds the child's pages: {t}")

    for uzp in (0, 1):
        want = pred["ksm"][f"use_zero_pages_{uzp}"]
        ksm_write("use_zero_pages", uzp)
        ksm_write("pages_to_scan", 1000)
        ksm_write("sleep_millisecs", 5)
        start = ksm_read("full_scans")
        ksm_write("run", 1)
        deadline = time.monotonic() + 60
        # At least two full scans (the first only records checksums), then
        # until the child's counters reach the prediction or stop changing.
        while time.monotonic() < deadline:
            time.sleep(0.05)
            scans = ksm_read("full_scans") - start
            st = proc_ksm(child.pid)
            got = (ksm_read("pages_shared"), ksm_read("pages_sharing"), ksm_read("ksm_zero_pages"))
            if scans >= 2 and got == (want["pages_shared"], want["pages_sharing"], want["ksm_zero_pages"]):
                break
            if scans >= 30:
                break
        scans = ksm_read("full_scans") - start
        st = proc_ksm(child.pid)
        got = {"pages_shared": ksm_read("pages_shared"), "pages_sharing": ksm_read("pages_sharing"),
               "ksm_zero_pages": ksm_read("ksm_zero_pages"),
               "child_merging_pages": int(st.get("ksm_merging_pages", -1)),
               "child_zero_pages": int(st.get("ksm_zero_pages", -1)), "full_scans": scans}
        print(f"use_zero_pages={uzp}: predicted pages_shared {want['pages_shared']}, pages_sharing "
              f"{want['pages_sharing']}, ksm_zero_pages {want['ksm_zero_pages']}; kernel after {scans} "
              f"full scans: {got}")
        results.append((uzp, want, got))
        check(scans >= 2, f"use_zero_pages={uzp}: full_scans advanced at least twice ({scans})")
        check(got["pages_shared"] == want["pages_shared"], f"use_zero_pages={uzp}: pages_shared")
        check(got["pages_sharing"] == want["pages_sharing"], f"use_zero_pages={uzp}: pages_sharing")
        check(got["ksm_zero_pages"] == want["ksm_zero_pages"], f"use_zero_pages={uzp}: ksm_zero_pages")
        check(got["child_merging_pages"] == want["pages_shared"] + want["pages_sharing"],
              f"use_zero_pages={uzp}: the child's ksm_merging_pages")
        check(got["child_zero_pages"] == want["ksm_zero_pages"], f"use_zero_pages={uzp}: the child's ksm_zero_pages")
        rc, out, err = run("ksm", "--pid", str(child.pid), "--format", "json")
        doc = json.loads(out) if rc == 0 else {}
        check(doc.get("sysfs", {}).get("pages_sharing") == got["pages_sharing"]
              and doc.get("process", {}).get("ksm_merging_pages") == got["child_merging_pages"],
              f"ksm --pid reads the same counters: {err!r}")
        ksm_write("run", 2)  # unmerge everything before the next setting
        check(ksm_read("pages_shared") == 0 and ksm_read("pages_sharing") == 0, "run=2 unmerged")
finally:
    child.stdin.close()
    child.wait()
    for name in reversed(SETTINGS):
        if name in saved:
            if name == "run" and saved["run"] == 0:
                ksm_write("run", 2)  # unmerge what is left, then off
            ksm_write(name, saved[name])
    for name, value in saved.items():
        check(ksm_read(name) == value, f"KSM setting {name} restored to {value}")
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
finish("ksm_validation")
