#!/bin/sh
# Builds ksmbench with a Debian cross compiler and runs the unit tests and the
# CLI tests of what differs between architectures (hash outputs, dump and JSON
# readers on 32-bit offsets, the timers and aliases without rdtsc) under
# qemu-user: `tests/cross-test.sh aarch64` or `tests/cross-test.sh i386`
# (`make cross-test` runs both). KSMBENCH_TESTS= (set, empty) runs every
# script instead: about 5 minutes per target rather than 2. As root on Debian it installs what it needs:
# the cross gcc and libc, qemu-user, and the target's library packages, which
# are unpacked into build/cross/ARCH/sysroot rather than installed multiarch
# (that would have to match the host's package versions exactly). A library
# Debian does not package for the target (libisal on i386, libcpuid on arm64)
# is simply left out: its entries list as unavailable there. The kdump page
# codecs: arm64 gets liblzo2 and libzstd (not libsnappy, which would need the
# target's libstdc++), i386 none, so that the tests read those pages on one
# target and check the refusal of a build without them on both.
set -eu
cd "$(dirname "$0")/.."

arch=${1:?usage: tests/cross-test.sh aarch64|i386}
case $arch in
aarch64) triplet=aarch64-linux-gnu deb=arm64 qemu=qemu-aarch64 libcdev=libc6-dev-arm64-cross
	libs="libxxhash-dev libxxhash0 zlib1g-dev zlib1g libcjson-dev libcjson1 libisal-dev libisal2
		liblzo2-dev liblzo2-2 libzstd-dev libzstd1" ;;
i386) triplet=i686-linux-gnu deb=i386 qemu=qemu-i386 libcdev=libc6-dev-i386-cross
	libs="libxxhash-dev libxxhash0 zlib1g-dev zlib1g libcjson-dev libcjson1 libcpuid-dev libcpuid16" ;;
*) echo "cross-test: unknown target '$arch' (aarch64 or i386)" >&2; exit 2 ;;
esac
libdir=$(echo "$triplet" | sed 's/^i686/i386/')
dir=build/cross/$arch
sysroot=$PWD/$dir/sysroot

need=""
command -v "$triplet-gcc" >/dev/null 2>&1 || need="$need gcc-$triplet $libcdev"
command -v "$qemu" >/dev/null 2>&1 || need="$need qemu-user"
# The marker holds the package list: a sysroot of another list is made again.
if [ "$(cat "$dir/sysroot.done" 2>/dev/null)" != "$(echo $libs)" ] || [ -n "$need" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "cross-test: needs root to install:$need and the $deb packages: $libs" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	dpkg --print-foreign-architectures | grep -qx "$deb" || dpkg --add-architecture "$deb"
	# The target's package lists may be absent or half-synced on the mirror.
	apt-get update -qq >/dev/null 2>&1 || true
	# shellcheck disable=SC2086
	[ -z "$need" ] || apt-get install -y -qq --no-install-recommends $need >/dev/null
	rm -rf "$dir/debs" "$sysroot"
	mkdir -p "$dir/debs" "$sysroot"
	for p in $libs; do
		(cd "$dir/debs" && apt-get download -qq "$p:$deb" >/dev/null 2>&1) ||
			{ echo "cross-test: could not download $p:$deb" >&2; exit 1; }
	done
	for f in "$dir"/debs/*.deb; do dpkg-deb -x "$f" "$sysroot"; done
	echo $libs >"$dir/sysroot.done"
fi

# CI installs both targets' tools one after the other, then runs them side by side.
[ "${KSMBENCH_CROSS_PREPARE_ONLY:-}" = 1 ] && exit 0

# pkg-config finds only the target's libraries, with paths under the sysroot.
PKG_CONFIG_LIBDIR=$sysroot/usr/lib/$libdir/pkgconfig:$sysroot/usr/share/pkgconfig
PKG_CONFIG_SYSROOT_DIR=$sysroot
export PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
make --no-print-directory -j2 CC="$triplet-gcc" BUILD="$dir" OUT="$dir/ksmbench" WERROR=-Werror \
	LDFLAGS="-L$sysroot/usr/lib/$libdir -Wl,-rpath-link,$sysroot/usr/lib/$libdir" \
	"$dir/ksmbench" "$dir/unit-tests" >"$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; exit 1; }

# The suite runs the binaries through wrappers that start them under qemu;
# ksmbench starts its measuring processes through its wrapper too (a guest
# cannot exec a binary of its own architecture without binfmt_misc).
for b in ksmbench unit-tests; do
	cat >"$dir/run-$b" <<WRAP
#!/bin/sh
exec $qemu -cpu max -L /usr/$triplet -E LD_LIBRARY_PATH=$sysroot/usr/lib/$libdir \
	-E KSMBENCH_WORKER_EXE=\${KSMBENCH_WORKER_EXE:-$PWD/$dir/run-ksmbench} $PWD/$dir/$b "\$@"
WRAP
	chmod +x "$dir/run-$b"
done
echo "== $arch: $("$dir/run-ksmbench" --version | head -n 1)"
# Debian 12's qemu-i386 hangs in fork() (and pthread_create): no measuring processes there.
nofork=0
[ "$arch" = i386 ] && nofork=1
KSMBENCH_TESTS=${KSMBENCH_TESTS-"unit cli_basics sum dumps dumps_hostile hostile_docs compare scan_model bench fast_hashes ceiling filters"} \
KSMBENCH_TEST_QUICK=1 KSMBENCH_TEST_EMULATED=1 KSMBENCH_TEST_NO_FORK=$nofork \
	tests/run.py "$dir/run-unit-tests" "$dir/run-ksmbench"
