#!/bin/sh
# Installs what ksmbench needs to build (with --test, also to run its tests;
# with --bench, make bench's reference xxhsum) on Debian: apt-get when root,
# else prints the exact command and fails.
set -eu

need_pkgs=""
add() { need_pkgs="$need_pkgs $1"; }
# Optional: the tests that need them print SKIP where they cannot be
# installed, make bench "not measurable here".
opt_pkgs=""
add_optional() { opt_pkgs="$opt_pkgs $1"; }

command -v make >/dev/null 2>&1 || add make
command -v cc >/dev/null 2>&1 || add gcc
command -v pkg-config >/dev/null 2>&1 || add pkg-config
# Debian does not build libcpuid for arm64 nor libisal for i386 (the Makefile
# builds without them): where this architecture has no such package, it is
# optional, not a dependency that apt-get could never install.
arch_pkgs=""
add_if_packaged() { arch_pkgs="$arch_pkgs $1"; }
packaged() {
	arch=$(dpkg --print-architecture 2>/dev/null) || arch=""
	apt-cache show "$1${arch:+:$arch}" >/dev/null 2>&1
}
sort_arch_pkgs() {
	for pkg in $arch_pkgs; do
		if packaged "$pkg"; then add "$pkg"; else add_optional "$pkg"; fi
	done
	arch_pkgs=""
}
for pair in libxxhash:libxxhash-dev zlib:zlib1g-dev libcpuid:libcpuid-dev:arch \
            libcjson:libcjson-dev libisal:libisal-dev:arch lzo2:liblzo2-dev snappy:libsnappy-dev \
            libzstd:libzstd-dev; do
	mod=${pair%%:*} pkg=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$mod"; then
		case $pkg in
		*:arch) add_if_packaged "${pkg%:arch}" ;;
		*) add "$pkg" ;;
		esac
	fi
done
if [ "${1:-}" = "--test" ]; then
	command -v python3 >/dev/null 2>&1 || add python3
	command -v clang >/dev/null 2>&1 || add clang
	command -v rsvg-convert >/dev/null 2>&1 || add_optional librsvg2-bin # plot's PNG check
	command -v xxhsum >/dev/null 2>&1 || add_optional xxhash # an independent XXH reference for sum's tests
fi
if [ "${1:-}" = "--bench" ]; then
	command -v xxhsum >/dev/null 2>&1 || add_optional xxhash # xxhsum -b, the XXH3 speed reference
fi

[ -z "$need_pkgs$opt_pkgs$arch_pkgs" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	# (the package lists first: a fresh system's may be empty, and they say
	# which of arch_pkgs this architecture has)
	apt-get update -qq >&2 || [ -z "$need_pkgs$arch_pkgs" ]
	sort_arch_pkgs
	echo "ksmbench: installing missing packages:$need_pkgs$opt_pkgs" >&2
	if [ -n "$need_pkgs" ]; then
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $need_pkgs >&2
	fi
	# One at a time: one package this system lacks must not keep the others out.
	for pkg in $opt_pkgs; do
		apt-get install -y -qq --no-install-recommends "$pkg" >&2 ||
			echo "ksmbench: could not install $pkg; what needs it is skipped" >&2
	done
	exit 0
fi
sort_arch_pkgs
if [ -z "$need_pkgs" ]; then
	echo "ksmbench: optional packages missing (what needs them is skipped):$opt_pkgs" >&2
	exit 0
fi
echo "ksmbench: missing build dependencies; install them with:" >&2
echo "  sudo apt-get install -y$need_pkgs" >&2
exit 1
