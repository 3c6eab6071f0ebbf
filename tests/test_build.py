"""Tests of the build's hygiene (Makefile): a second `make` builds nothing,
`make install` after `make` compiles nothing, the git revision is rebuilt
only when it changes (and kept where git cannot tell), and -Werror is in the
builds the project checks (`make test`) but not in a plain `make`."""
import os
import re
import shutil
import subprocess
import tempfile

from clitest import BIN, check, finish

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make(*args):
    # Not the variables of a make this suite may run under: make test passes
    # WERROR=-Werror, which make exports to its recipes' environment too.
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "WERROR")}
    p = subprocess.run(["make", "--no-print-directory", "-C", ROOT, *args], capture_output=True, text=True,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def compiles(text):
    return [l for l in text.splitlines() if re.search(r"\s-c\s+-o\s", l) or re.search(r"\s-o\s+\S*ksmbench\s", l)]


# The build the binary under test came from: ./ksmbench is build/default,
# build/NAME/ksmbench is BUILD=build/NAME (san, clang); a cross build runs
# through a wrapper and is left out.
rel = os.path.relpath(BIN, ROOT)
m = re.fullmatch(r"build/([\w-]+)/ksmbench", rel)
build = "build/default" if rel == "ksmbench" else f"build/{m.group(1)}" if m else None
stamp = os.path.join(ROOT, build or "-", "flags")
if build and os.path.isfile(os.path.join(ROOT, build, "git_revision.h")) and os.path.isfile(stamp):
    # The build's own CC, CFLAGS and LDFLAGS, as its stamp keeps them (make san-test's, clang's).
    vars_ = [f"BUILD={build}", f"OUT={rel}"] + [l for l in open(stamp).read().splitlines()
                                                if l.split("=")[0] in ("CC", "CFLAGS", "LDFLAGS")]
    # --- up to date: make -q says so, with the revision as git tells it or unknown
    rc, out, err = make("-q", *vars_, rel)
    check(rc == 0, f"make -q {rel} after a build: rc={rc} {out[-300:]!r}{err[-300:]!r}")
    header = os.path.join(ROOT, build, "git_revision.h")
    before = os.stat(header).st_mtime_ns, open(header).read()
    rc, out, err = make("-q", *vars_, "GIT_REVISION=unknown", rel)
    check(rc == 0 and (os.stat(header).st_mtime_ns, open(header).read()) == before,
          f"where git cannot tell, the revision header stays: rc={rc}")
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    check(f'"{rev.stdout.strip()}"' in before[1] or rev.returncode != 0, f"the header holds HEAD: {before[1]!r}")
    # --- a second make prints no compile or link command
    rc, out, err = make(*vars_, rel)
    check(rc == 0 and compiles(out) == [], f"a second make builds nothing: {compiles(out)[:3]!r}")
    # --- other flags rebuild every object (not mixed with these), and a dry run changes nothing
    other = [v for v in vars_ if not v.startswith("CFLAGS=")] + ["CFLAGS=-O0 -g -DKB_OTHER_FLAGS"]
    rc, out, err = make("-n", *other, rel)
    rc2, out2, err2 = make("-q", *vars_, rel)
    check(rc == 0 and len(compiles(out)) > 100 and rc2 == 0,
          f"other CFLAGS rebuild every object ({len(compiles(out))} commands); after the dry run, up to date: {rc2}")
    # --- make install after make compiles nothing
    stage = tempfile.mkdtemp(prefix="ksmbench-stage-")
    rc, out, err = make(*vars_, "PREFIX=/opt/kb", f"DESTDIR={stage}", "install")
    check(rc == 0 and compiles(out) == [] and os.path.isfile(os.path.join(stage, "opt/kb/bin/ksmbench")),
          f"make install after make compiles nothing: rc={rc} {compiles(out)[:3]!r} {err[-300:]!r}")
    shutil.rmtree(stage)
else:
    print(f"{rel}: not a build of this tree's Makefile; the up-to-date checks are skipped")

# --- -Werror: in make test's build, not in a plain make (dry runs into a scratch build)
scratch = tempfile.mkdtemp(prefix="ksmbench-build-")
sv = [f"BUILD={scratch}", f"OUT={scratch}/ksmbench"]
rc, plain, err = make("-n", "-B", *sv, f"{scratch}/ksmbench")
cc = [l for l in plain.splitlines() if " -c -o " in l]
check(rc == 0 and cc and not any("-Werror" in l for l in cc), f"plain make: no -Werror ({len(cc)} compiles)")
check(any("-Wall" in l for l in cc), "plain make still warns (-Wall)")
rc, tested, err = make("-n", "-B", *sv, "test")
cc = [l for l in tested.splitlines() if " -c -o " in l]
check(rc == 0 and cc and all("-Werror" in l for l in cc), f"make test: -Werror on every compile ({len(cc)})")
rc, san, err = make("-n", "san-test")
check(rc == 0 and "WERROR=-Werror" in san and "float-cast-overflow" in san,
      f"make san-test: -Werror and float-cast-overflow: {san[:300]!r}")
shutil.rmtree(scratch)

# The throughput block's loop begins 24 bytes into a 64-byte line in every
# x86-64 build (bench/clock_chain.c): placed by the code before it, its
# speed on a free core moved by a quarter between builds.
with open(BIN, "rb") as f:
    head = f.read(20)
if shutil.which("objdump") and head[:4] == b"\x7fELF" and head[18:20] == b"\x3e\x00":  # EM_X86_64
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", BIN], capture_output=True, text=True).stdout
    starts = [int(a, 16) for a in re.findall(r"^\s*([0-9a-f]+):\s+paddd\s+%xmm12,%xmm0\n\s*[0-9a-f]+:\s+paddd\s+%xmm12,%xmm1$",
                                             dis, re.M)]
    check(starts and all(a % 64 == 24 for a in starts),
          f"the throughput block's loop begins 24 bytes into a line: {[hex(a) for a in starts]}")

finish("build")
