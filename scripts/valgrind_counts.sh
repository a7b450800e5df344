#!/usr/bin/env bash
# valgrind_counts.sh - instructions and cache misses per element for every
# variant of an `ossa bench` experiment, from valgrind (repeatable on a noisy
# machine, unlike times).
#
#   scripts/valgrind_counts.sh [-f FRAMES] [-b BASE] [-o OUT.md] [-v V1,V2...] BENCH
#                              [bench options...]
#   e.g. scripts/valgrind_counts.sh -b 2 -f 12 hierarchy
#   (-v: only these variants, in this order; default every variant)
#
# For each variant V it runs, under callgrind and under cachegrind,
#   ossa bench BENCH --variant V --warmup 0 --frames F   and   ... --frames B
# and divides the difference (frames B+1..F: the per-frame work, without the
# set-up, and with B > 0 without the first frames' cold caches either) by
# (F - B) x elements-per-frame. Defaults: F = 20, B = 0. Do not pass --cache:
# each variant runs alone, so every frame follows one of its own.
# Cachegrind models the caches of the machine it runs on, as Linux describes
# them (/sys/devices/system/cpu/cpu0/cache: L1 instruction and data, and the
# last level as LL); the options used are printed under the table. Override
# with CACHES="--I1=... --D1=... --LL=..." (needed where sysfs says nothing).
# Uses $OSSA when set, else configures
# and builds ./build (Release) first. Writes a Markdown table to stdout (and to
# OUT.md with -o).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,23p' "$0" >&2; exit 2; }
frames=20
base=0
out=""
only=""
while getopts "f:b:o:v:" opt; do
    case $opt in
    f) frames=$OPTARG ;;
    b) base=$OPTARG ;;
    o) out=$OPTARG ;;
    v) only=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
[[ $frames =~ ^[0-9]+$ && $base =~ ^[0-9]+$ ]] && [ "$frames" -gt "$base" ] ||
    { echo "valgrind_counts: need whole numbers FRAMES > BASE (got -f $frames -b $base)" >&2; exit 2; }
bench=$1
shift

command -v valgrind >/dev/null || { echo "valgrind_counts: valgrind is not installed" >&2; exit 1; }
if [ -z "${OSSA:-}" ]; then
    echo "valgrind_counts: building ./build" >&2
    [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j 2 >/dev/null
    ossa=./build/tools/ossa
    build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' build/CMakeCache.txt)
else
    ossa=$OSSA
    build_type="as built ($OSSA)"
fi
[ -x "$ossa" ] || { echo "valgrind_counts: no ossa executable at $ossa" >&2; exit 1; }
# cache_option NAME TYPE LEVEL: --NAME=bytes,ways,line of the cpu0 cache of
# this type (Data, Instruction, Unified) at this level (0: the highest level);
# nothing when sysfs does not describe it. Cachegrind needs a power-of-two
# number of sets: a cache with another count (a 260 MiB, 20-way L3 has
# 212,992) is modelled with the largest such count below it, its ways and
# line kept (160 MiB there), and says so on stderr.
cache_option() {
    local best="" level=0 d
    for d in /sys/devices/system/cpu/cpu0/cache/index*; do
        if [ ! -r "$d/type" ] || [ ! -r "$d/level" ] || [ ! -r "$d/size" ]; then continue; fi
        [ "$(cat "$d/type")" = "$2" ] || continue
        local l
        l=$(cat "$d/level")
        if { [ "$3" -eq 0 ] && [ "$l" -gt "$level" ]; } || [ "$l" -eq "$3" ]; then
            best=$d
            level=$l
        fi
    done
    [ -n "$best" ] || return 0
    local size ways line
    size=$(cat "$best/size")
    ways=$(cat "$best/ways_of_associativity")
    line=$(cat "$best/coherency_line_size")
    case $size in
    *K) size=$(( ${size%K} * 1024 )) ;;
    *M) size=$(( ${size%M} * 1024 * 1024 )) ;;
    esac
    local sets=$(( size / (ways * line) )) pow=1
    while [ $(( pow * 2 )) -le "$sets" ]; do pow=$(( pow * 2 )); done
    if [ "$pow" -ne "$sets" ]; then
        echo "valgrind_counts: $1 of $size bytes has $sets sets; modelled with $pow ($(( pow * ways * line )) bytes)" >&2
        size=$(( pow * ways * line ))
    fi
    echo "--$1=$size,$ways,$line"
}
if [ -z "${CACHES:-}" ]; then
    caches="$(cache_option I1 Instruction 1) $(cache_option D1 Data 1) $(cache_option LL Unified 0)"
    [ "$(wc -w <<<"$caches")" -eq 3 ] || {
        echo "valgrind_counts: this system does not describe its caches in sysfs; set CACHES" >&2
        exit 1
    }
else
    caches=$CACHES
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# total EVENT FILE: the summary count of one event in a callgrind/cachegrind file.
total() {
    awk -v want="$1" '
        /^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
        /^(summary|totals):/ { n = split($0, f, " "); print f[col[want] + 1]; exit }
    ' "$2"
}

run() { # run TOOL FRAMES VARIANT [bench options...] -> output file path
    local tool=$1 f=$2 v=$3 file="$tmp/$1.$3.$2"
    shift 3 # the rest are the bench's own options
    local opts=(--tool="$tool" --"$tool"-out-file="$file")
    # shellcheck disable=SC2206 # $caches is a list of options
    [ "$tool" = cachegrind ] && opts+=(--cache-sim=yes $caches)
    if ! valgrind -q "${opts[@]}" "$ossa" bench "$bench" --variant "$v" --warmup 0 \
        --frames "$f" --json "$@" >"$tmp/json.$v.$f" 2>"$tmp/log"; then
        echo "valgrind_counts: '$ossa bench $bench --variant $v --frames $f $*' failed:" >&2
        cat "$tmp/log" >&2
        return 1
    fi
    echo "$file"
}

variants=$("$ossa" bench "$bench" --list-variants "$@")
if [ -n "$only" ]; then
    for v in ${only//,/ }; do
        grep -qx -- "$v" <<<"$variants" ||
            { echo "valgrind_counts: '$bench' has no variant '$v'" >&2; exit 2; }
    done
    variants=${only//,/ }
fi
elements=""
{
    echo "| variant | elements / frame | instructions / element | D1 misses / element | LL misses / element |"
    echo "|---|---:|---:|---:|---:|"
    for v in $variants; do
        # A variant valgrind cannot run (AVX-512: valgrind does not emulate it)
        # gets a row saying so instead of ending the table.
        if ! c0=$(run callgrind "$base" "$v" "$@") || ! c1=$(run callgrind "$frames" "$v" "$@") ||
            ! k0=$(run cachegrind "$base" "$v" "$@") || ! k1=$(run cachegrind "$frames" "$v" "$@"); then
            echo "| $v | not runnable under valgrind | | | |"
            continue
        fi
        elements=$(sed -n 's/.*"elements_per_frame": \([0-9.]*\).*/\1/p' "$tmp/json.$v.$frames")
        [ -n "$elements" ] || { echo "valgrind_counts: no elements_per_frame from $v" >&2; exit 1; }
        ir=$(( $(total Ir "$c1") - $(total Ir "$c0") ))
        d1=$(( $(total D1mr "$k1") + $(total D1mw "$k1") - $(total D1mr "$k0") - $(total D1mw "$k0") ))
        ll=$(( $(total DLmr "$k1") + $(total DLmw "$k1") - $(total DLmr "$k0") - $(total DLmw "$k0") ))
        awk -v v="$v" -v ir="$ir" -v d1="$d1" -v ll="$ll" -v n="$elements" -v f="$((frames - base))" \
            'BEGIN { e = n * f; printf "| %s | %.0f | %.1f | %.3f | %.4f |\n", v, n, ir / e, d1 / e, ll / e }'
    done
    echo
    echo "(frames $((base + 1))..$frames of \`ossa bench $bench $*\`, each variant alone:"
    echo " a $frames-frame run minus a $base-frame run, per element of each variant's report;"
    echo " build: $build_type; valgrind $(valgrind --version | sed 's/valgrind-//'), caches: $caches)"
} | tee "${out:-/dev/null}"
