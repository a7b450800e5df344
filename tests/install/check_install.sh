#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR - ossa installed and linked the ways
# people do it. Run by CTest.
#   static: BUILD_DIR (static libraries, the default) installed into a fresh
#           prefix;
#   shared: the same sources configured again with -DBUILD_SHARED_LIBS=ON
#           (no tests, no benchmarks), built and installed into another.
# Against each, small programs for the runtime, the crowd and the pipeline
# are built through find_package(ossa) and through plain
# `pkg-config --cflags --libs` (no --static), then run; the CMake package
# links no build-machine path. The shared libraries
# must export ossa_* symbols only (nm -D), every function the installed
# headers declare must be exported, and the Python ctypes example must run on
# libossa.so and agree with `ossa dump`.
set -euo pipefail
build=$1
here=$2
source=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
fail() {
    echo "FAILED: $*" >&2
    exit 1
}

# consumers PREFIX KIND: the programs built both ways against PREFIX, run.
consumers() {
    local prefix=$1 kind=$2 out=$work/$2
    local libdir
    libdir=$(dirname "$(find "$prefix" -name 'libossa.*' | head -1)")
    # The package names its dependencies; it records no path of this machine.
    local paths
    paths=$(grep -h 'INTERFACE_LINK_LIBRARIES' "$libdir"/cmake/ossa/ossaTargets.cmake | grep '/' ||
        true)
    [ -z "$paths" ] || fail "$kind: the CMake package links by path: $paths"
    cmake -S "$here" -B "$out/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$out/cmake" >/dev/null
    local programs=(consumer crowd_consumer)
    [ -f "$libdir/pkgconfig/ossa-pipeline.pc" ] && programs+=(pipeline_consumer)
    for p in "${programs[@]}"; do
        [ -x "$out/cmake/$p" ] || fail "$kind: find_package(ossa) built no $p"
        "$out/cmake/$p" >/dev/null || fail "$kind: $p (find_package) exited $?"
    done
    echo "$kind: ${programs[*]} built with find_package(ossa) and run"
    local modules=()
    for pair in ossa:main.c ossa-crowd:crowd_main.c ossa-pipeline:pipeline_main.c; do
        local module=${pair%%:*} main=${pair#*:}
        [ -f "$libdir/pkgconfig/$module.pc" ] || continue
        local flags
        flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs "$module")
        # shellcheck disable=SC2086 # flags are a list of options
        cc -std=c11 "$here/$main" $flags -o "$out/pc_$module" ||
            fail "$kind: cc $main \$(pkg-config --cflags --libs $module) = $flags"
        LD_LIBRARY_PATH=$libdir "$out/pc_$module" >/dev/null ||
            fail "$kind: the $module program (pkg-config) exited $?"
        if [ "$kind" = shared ]; then
            # (captured first: grep -q closing the pipe early would fail
            # ldd under pipefail)
            local needed
            needed=$(ldd "$out/pc_$module")
            grep -q "libossa.so" <<<"$needed" ||
                fail "$kind: the $module program does not use libossa.so"
        fi
        modules+=("$module: $flags")
    done
    printf '%s: built with pkg-config --cflags --libs and run:\n' "$kind"
    printf '    %s\n' "${modules[@]}"
}

# exports PREFIX: each shared library exports ossa_* only, and together
# every function the installed headers declare.
exports() {
    local prefix=$1 libdir exported=$work/exported declared=$work/declared
    libdir=$(dirname "$(find "$prefix" -name 'libossa.so' | head -1)")
    : >"$exported"
    for lib in "$libdir"/libossa*.so; do
        local symbols
        symbols=$(nm -D --defined-only "$lib" | awk '{ print $3 }')
        local private
        private=$(grep -v '^ossa_' <<<"$symbols" || true)
        [ -z "$private" ] || fail "$(basename "$lib") exports non-ossa_ symbols: $(echo $private)"
        grep -q '^ossa_' <<<"$symbols" || fail "$(basename "$lib") exports nothing"
        echo "$symbols" >>"$exported"
        echo "shared: $(basename "$lib") exports $(wc -l <<<"$symbols") symbols, all ossa_*"
    done
    # Declarations: `ossa_name(` after a type at the start of a line (a
    # prototype), not in comments, macros or static inline definitions.
    grep -hE '^[a-z][a-z0-9_ ]*[ *]ossa_[a-z0-9_]+\(' "$prefix"/include/ossa/*.h |
        grep -v 'static inline' | sed -E 's/.*[ *](ossa_[a-z0-9_]+)\(.*/\1/' | sort -u >"$declared"
    local missing
    missing=$(sort -u "$exported" | comm -13 - "$declared")
    [ -z "$missing" ] || fail "declared in the headers but not exported: $(echo $missing)"
    echo "shared: all $(wc -l <"$declared") functions the installed headers declare are exported"
}

# python PREFIX: the ctypes example on libossa.so, against `ossa dump`.
python_example() {
    local prefix=$1 libdir
    libdir=$(dirname "$(find "$prefix" -name 'libossa.so' | head -1)")
    if ! command -v python3 >/dev/null; then
        echo "shared: SKIPPED the ctypes example: no python3 on this machine"
        return
    fi
    if [ ! -x "$prefix/bin/ossa" ]; then
        echo "shared: SKIPPED the ctypes example: no ossa tool installed to write a blob"
        return
    fi
    LD_LIBRARY_PATH=$libdir "$prefix/bin/ossa" build --default -o "$work/hero.ossa" >/dev/null
    LD_LIBRARY_PATH=$libdir "$prefix/bin/ossa" dump "$work/hero.ossa" --clip walk --time 0.5 \
        --json >"$work/dump.json"
    python3 "$here/ossa_ctypes.py" --lib "$libdir/libossa.so" "$work/hero.ossa" walk 0.5 \
        >"$work/ctypes.txt" || fail "the ctypes example exited $?"
    python3 - "$work/dump.json" "$work/ctypes.txt" <<'EOF' || fail "ctypes and ossa dump disagree"
import json, sys
dump = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2]) if l.startswith("  ")]
assert len(lines) == len(dump["joints"]) > 0, (len(lines), len(dump["joints"]))
worst = 0.0
for (name, *xyz), joint in zip(lines, dump["joints"]):
    assert name == joint["name"], (name, joint["name"])
    m = joint["model"]
    worst = max(worst, *(abs(float(a) - b) for a, b in zip(xyz, (m[3], m[7], m[11]))))
assert worst < 1e-5, worst
print(f"shared: the ctypes example poses {len(lines)} joints as ossa dump does "
      f"(largest difference {worst:.1e})")
EOF
}

cmake --install "$build" --prefix "$work/static" >/dev/null
consumers "$work/static" static

# The shared build: the same options as the build under test.
options=(-DBUILD_SHARED_LIBS=ON -DOSSA_BUILD_TESTS=OFF -DOSSA_BUILD_BENCH=OFF
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$(cache CMAKE_C_COMPILER)")
for option in OSSA_BUILD_PIPELINE OSSA_BUILD_IMPORTER OSSA_BUILD_RENDER OSSA_NO_SIMD; do
    value=$(cache $option)
    [ -z "$value" ] || options+=("-D$option=$value")
done
cmake -S "$source" -B "$work/shared-build" "${options[@]}" >/dev/null
cmake --build "$work/shared-build" -j 2 >"$work/shared-build.log" 2>&1 ||
    { cat "$work/shared-build.log"; fail "the shared build"; }
cmake --install "$work/shared-build" --prefix "$work/shared" >/dev/null
consumers "$work/shared" shared
exports "$work/shared"
python_example "$work/shared"
echo "installed ossa works through find_package(ossa) and pkg-config, static and shared"
