"""Changing /sys/kernel/mm/ksm for a test and putting it back: every setting
is saved first and restored (after run=2 unmerged what the test merged, and
with KSM left as it was, off) on every way out: the with block's end, an
exception, interpreter exit (atexit) and SIGINT/SIGTERM/SIGHUP. A lock file
serialises the tests that drive KSM, as their counters would mix, and keeps
them apart from the tests that make memory KSM may merge (mergeable_memory):
the suite runs its scripts side by side (tests/run.py)."""
import atexit
import contextlib
import fcntl
import os
import signal

KSM = "/sys/kernel/mm/ksm"
SETTINGS = ("max_page_sharing", "use_zero_pages", "smart_scan", "pages_to_scan", "sleep_millisecs",
            "merge_across_nodes", "run")
LOCK = "/tmp/ksmbench-ksm-tests.lock"


def read(name):
    with open(os.path.join(KSM, name)) as f:
        return int(f.read().split()[0])


def write(name, value):
    with open(os.path.join(KSM, name), "w") as f:
        f.write(str(value))


def why_not_usable():
    """None when the tests may drive KSM here, else why not."""
    if os.environ.get("KSMBENCH_TEST_QUICK") == "1":
        return "cross-architecture run under qemu-user (the host's KSM is validated by the native suite)"
    if not os.path.exists(os.path.join(KSM, "run")):
        return f"{KSM}/run is missing (kernel without CONFIG_KSM)"
    if not os.access(os.path.join(KSM, "run"), os.W_OK):
        return f"{KSM}/run is not writable (run as root)"
    if not os.path.exists("/proc/self/ksm_stat"):
        return "/proc/PID/ksm_stat is missing (kernel before 6.1)"
    return None


def mergeable_processes(ours=()):
    """PIDs of the other processes with a VM_MERGEABLE area (MADV_MERGEABLE
    or PR_SET_MEMORY_MERGE: "mg" in their VmFlags). KSM merges their pages
    too as soon as it runs, so the kernel's counters would not be the
    test's alone (another test suite's workload, a VM with KSM enabled)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in ours or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/smaps") as f:
                if any(line.startswith("VmFlags:") and " mg" in line for line in f):
                    found.append(int(entry))
        except OSError:
            continue  # gone, or a kernel thread without one
    return found


def open_lock():
    """The lock file, read-only where it exists (flock needs no more; another
    user's file in /tmp cannot be opened to write, nor with O_CREAT where
    fs.protected_regular is set)."""
    try:
        return open(LOCK)
    except FileNotFoundError:
        return open(LOCK, "a")


@contextlib.contextmanager
def mergeable_memory():
    """Held (shared) by a test while memory it made KSM may merge lives: a
    test driving KSM (Guard, exclusive) neither starts beside it, where it
    would see another process's mergeable memory and skip, nor has such
    memory appear in its counters while it runs."""
    with open_lock() as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        yield


class Guard:
    def __init__(self):
        self.saved = None
        self.lock = None
        self.old_handlers = {}

    def __enter__(self):
        self.lock = open_lock()
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        self.saved = {n: read(n) for n in SETTINGS if os.path.exists(os.path.join(KSM, n))}
        atexit.register(self.restore)
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            self.old_handlers[s] = signal.signal(s, self._on_signal)
        return self

    def _on_signal(self, signum, frame):
        raise SystemExit(128 + signum)  # unwinds through every finally

    def busy(self):
        """Why KSM is in use by someone else (its counters would mix), or None."""
        if self.saved.get("run", 0) != 0 or read("pages_shared") or read("pages_sharing"):
            return "KSM is already running or holds merged pages"
        others = mergeable_processes()
        if others:
            return f"processes {others} have mergeable memory, which KSM would merge with the test's pages"
        return None

    def restore(self):
        if self.saved is None:
            return
        saved, self.saved = self.saved, None
        write("run", 2)  # unmerge: max_page_sharing cannot change while KSM pages exist
        for name in SETTINGS:
            if name != "run" and name in saved and read(name) != saved[name]:
                write(name, saved[name])
        write("run", saved.get("run", 0))
        for s, h in self.old_handlers.items():
            signal.signal(s, h)
        self.lock.close()
        self.restored = saved

    def __exit__(self, *exc):
        self.restore()
        return False
