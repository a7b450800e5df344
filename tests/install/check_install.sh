#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR - ossa installed and linked the ways
# people do it. Run by CTest.
#   static: BUILD_DIR (static libraries, the default) installed into a fresh
#           prefix;
#   shared: the same sources configured again with -DBUILD_SHARED_LIBS=ON
#           (no tests, no benchmarks), built and installed into another.
# Against each, the examples (examples/: play.c, crowd_play.c, play.cpp) and
# a pipeline program are built through find_package(ossa) - examples/ as a
# project of its own, as a newcomer copies it - and through plain
# `pkg-config --cflags --libs` (no --static), then run and checked by
# examples/check_examples.sh against the installed tool's `ossa dump`; the
# CMake package links no build-machine path. The shared libraries must
# export ossa_* symbols only (nm -D), every function the installed headers
# declare must be exported, and examples/play.py (Python ctypes) must run on
# libossa.so and pass the same checks.
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

# examples_check KIND PREFIX DIR: the examples built in DIR (play,
# crowd_play, play_cpp) run on the blobs and checked.
examples_check() {
    local kind=$1 prefix=$2 dir=$3 check=$source/examples/check_examples.sh
    if [ ! -x "$prefix/bin/ossa" ]; then
        echo "$kind: examples in $dir built, SKIPPED running them: no ossa tool installed"
        return
    fi
    [ -f "$work/blobs/hero.ossa" ] || "$check" blobs "$work/blobs" "$prefix/bin/ossa" >/dev/null
    "$check" check play "$work/blobs" "$prefix/bin/ossa" "$dir/play" "$dir/play" >/dev/null ||
        fail "$kind: $dir/play"
    "$check" check crowd "$work/blobs" "$prefix/bin/ossa" "$dir/play" "$dir/crowd_play" \
        >/dev/null || fail "$kind: $dir/crowd_play"
    if [ -x "$dir/play_cpp" ]; then
        "$check" check cpp "$work/blobs" "$prefix/bin/ossa" "$dir/play" "$dir/play_cpp" \
            >/dev/null || fail "$kind: $dir/play_cpp"
    fi
}

# consumers PREFIX KIND: the examples and the pipeline program built both
# ways against PREFIX, run.
consumers() {
    local prefix=$1 kind=$2 out=$work/$2-programs
    local libdir
    libdir=$(dirname "$(find "$prefix" -name 'libossa.*' | head -1)")
    # Programs and the shared tool find the shared libraries here.
    export LD_LIBRARY_PATH=$libdir
    # The package names its dependencies; it records no path of this machine.
    local paths
    paths=$(grep -h 'INTERFACE_LINK_LIBRARIES' "$libdir"/cmake/ossa/ossaTargets.cmake | grep '/' ||
        true)
    [ -z "$paths" ] || fail "$kind: the CMake package links by path: $paths"

    # find_package(ossa): examples/ as its own project, and the pipeline program.
    cmake -S "$source/examples" -B "$out/examples" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$out/examples" >/dev/null
    local examples=(play crowd_play)
    command -v c++ >/dev/null && examples+=(play_cpp)
    for p in "${examples[@]}"; do
        [ -x "$out/examples/$p" ] || fail "$kind: find_package(ossa) built no examples/$p"
    done
    examples_check "$kind" "$prefix" "$out/examples"
    local programs=("${examples[@]}")
    if [ -f "$libdir/pkgconfig/ossa-pipeline.pc" ]; then
        cmake -S "$here" -B "$out/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
        cmake --build "$out/cmake" >/dev/null
        [ -x "$out/cmake/pipeline_consumer" ] || fail "$kind: find_package(ossa) built no pipeline_consumer"
        "$out/cmake/pipeline_consumer" >/dev/null || fail "$kind: pipeline_consumer (find_package) exited $?"
        programs+=(pipeline_consumer)
    fi
    echo "$kind: ${programs[*]} built with find_package(ossa), run and checked"

    # Plain pkg-config, each source with the module its header says.
    local modules=() pc=$out/pkg-config
    mkdir -p "$pc"
    for entry in ossa:cc:play.c ossa-crowd:cc:crowd_play.c ossa:c++:play.cpp \
        ossa-pipeline:cc:pipeline_main.c; do
        local module=${entry%%:*} rest=${entry#*:}
        local compiler=${rest%%:*} file=${rest#*:}
        [ -f "$libdir/pkgconfig/$module.pc" ] || continue
        command -v "$compiler" >/dev/null || continue
        local src=$source/examples/$file name=${file%.*} std=-std=c11
        [ "$file" = pipeline_main.c ] && src=$here/$file
        [ "$compiler" = c++ ] && name=play_cpp std=-std=c++17
        local flags
        flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs "$module")
        # shellcheck disable=SC2086 # flags are a list of options
        "$compiler" $std "$src" $flags -o "$pc/$name" ||
            fail "$kind: $compiler $std $file \$(pkg-config --cflags --libs $module) = $flags"
        if [ "$kind" = shared ]; then
            # (captured first: grep -q closing the pipe early would fail
            # ldd under pipefail)
            local needed
            needed=$(ldd "$pc/$name")
            grep -q "libossa.so" <<<"$needed" ||
                fail "$kind: $name (pkg-config) does not use libossa.so"
        fi
        modules+=("$file: $compiler $std $file \$(pkg-config --cflags --libs $module) = $flags")
    done
    [ ! -x "$pc/pipeline_main" ] || "$pc/pipeline_main" >/dev/null ||
        fail "$kind: pipeline_main (pkg-config) exited $?"
    examples_check "$kind" "$prefix" "$pc"
    printf '%s: built with pkg-config, run and checked:\n' "$kind"
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

# python PREFIX: examples/play.py on libossa.so, checked as the others.
python_example() {
    local prefix=$1 libdir
    libdir=$(dirname "$(find "$prefix" -name 'libossa.so' | head -1)")
    if ! command -v python3 >/dev/null; then
        echo "shared: SKIPPED examples/play.py: no python3 on this machine"
        return
    fi
    if [ ! -x "$prefix/bin/ossa" ]; then
        echo "shared: SKIPPED examples/play.py: no ossa tool installed to write a blob"
        return
    fi
    LD_LIBRARY_PATH=$libdir "$source/examples/check_examples.sh" check python "$work/blobs" \
        "$prefix/bin/ossa" "$work/shared-programs/examples/play" \
        python3 "$source/examples/play.py" --lib "$libdir/libossa.so" | sed 's/^/shared: /' ||
        fail "examples/play.py on $libdir/libossa.so"
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
