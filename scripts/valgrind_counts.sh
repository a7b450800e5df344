#!/usr/bin/env bash
# valgrind_counts.sh - instructions and cache misses per element for every
# variant of an `ossa bench` experiment, from valgrind (repeatable on a noisy
# machine, unlike times).
#
#   scripts/valgrind_counts.sh [-f FRAMES] [-o OUT.md] BENCH [bench options...]
#   e.g. scripts/valgrind_counts.sh -f 20 hierarchy
#
# For each variant V it runs, under callgrind and under cachegrind,
#   ossa bench BENCH --variant V --warmup 0 --frames F   and   ... --frames 0
# and divides the difference (the F frames' work, without set-up) by
# F x elements-per-frame. Cachegrind models this machine's caches explicitly:
# D1 48 KiB 12-way, LL (its last level) 32 MiB 16-way, 64-byte lines; override
# with CACHES="--I1=... --D1=... --LL=...". Writes a Markdown table to stdout
# (and to OUT.md with -o).
set -euo pipefail
cd "$(dirname "$0")/.."

frames=20
out=""
while getopts "f:o:" opt; do
    case $opt in
    f) frames=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,16p' "$0"; exit 2; }
bench=$1
shift

ossa=${OSSA:-./build/tools/ossa}
[ -x "$ossa" ] || { echo "valgrind_counts: build first (./run build); no $ossa" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind_counts: valgrind is not installed" >&2; exit 1; }
caches=${CACHES:---I1=32768,8,64 --D1=49152,12,64 --LL=33554432,16,64}
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
    [ "$tool" = cachegrind ] && opts+=(--cache-sim=yes $caches)
    valgrind -q "${opts[@]}" "$ossa" bench "$bench" --variant "$v" --warmup 0 --frames "$f" \
        --json "$@" >"$tmp/json.$v.$f" 2>/dev/null
    echo "$file"
}

variants=$("$ossa" bench "$bench" --list-variants "$@")
elements=""
{
    echo "| variant | instructions / element | D1 misses / element | LL misses / element |"
    echo "|---|---:|---:|---:|"
    for v in $variants; do
        c0=$(run callgrind 0 "$v" "$@")
        c1=$(run callgrind "$frames" "$v" "$@")
        k0=$(run cachegrind 0 "$v" "$@")
        k1=$(run cachegrind "$frames" "$v" "$@")
        elements=$(sed -n 's/.*"elements_per_frame": \([0-9.]*\).*/\1/p' "$tmp/json.$v.$frames")
        if [ -z "$elements" ]; then
            # e.g. an AVX-512 variant: valgrind does not emulate that instruction set
            echo "| $v | not runnable under valgrind | | |"
            continue
        fi
        ir=$(( $(total Ir "$c1") - $(total Ir "$c0") ))
        d1=$(( $(total D1mr "$k1") + $(total D1mw "$k1") - $(total D1mr "$k0") - $(total D1mw "$k0") ))
        ll=$(( $(total DLmr "$k1") + $(total DLmw "$k1") - $(total DLmr "$k0") - $(total DLmw "$k0") ))
        awk -v v="$v" -v ir="$ir" -v d1="$d1" -v ll="$ll" -v n="$elements" -v f="$frames" \
            'BEGIN { e = n * f; printf "| %s | %.1f | %.3f | %.4f |\n", v, ir / e, d1 / e, ll / e }'
    done
    echo
    echo "($frames frames minus a 0-frame run, per element of $elements per frame;"
    echo " valgrind $(valgrind --version | sed 's/valgrind-//'), caches: $caches)"
} | tee "${out:-/dev/null}"
