#!/usr/bin/env bash
# step_counts.sh - the instructions one function of `ossa` executes, counted
# exactly by single-stepping it (scripts/step_count.c, ptrace): for the
# AVX-512 kernels, which valgrind does not run (valgrind_counts.sh counts
# the others). Repeatable on a busy machine; slow (tens of microseconds an
# instruction), so count a few calls.
#
#   scripts/step_counts.sh [-c CALLS] [-e ELEMENTS] FUNCTION BENCH [bench options...]
#   e.g. scripts/step_counts.sh -c 8 -e 1072 ossai_packed_kernel_avx512 frame \
#            --model pab67_arnaud.ossa --clips 3 --variant sample-compressed --warmup 0 --frames 1
#
# Runs `ossa bench BENCH ...` until FUNCTION has been called CALLS times
# (default 8; the first calls, those of the bench's first frame), and prints
# the instructions per call and per element (ELEMENTS per call: for a lane
# sampling kernel on AVX-512, 16 lanes x the joints), split into scalar,
# vector (xmm/ymm/zmm/mask registers) and branch instructions, and the most
# executed mnemonics. Uses $OSSA when set, else ./build/tools/ossa.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,17p' "$0" >&2; exit 2; }
calls=8
elements=1
while getopts "c:e:" opt; do
    case $opt in
    c) calls=$OPTARG ;;
    e) elements=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
[[ $calls =~ ^[1-9][0-9]*$ && $elements =~ ^[1-9][0-9]*$ ]] ||
    { echo "step_counts: -c and -e take whole numbers above 0" >&2; exit 2; }
function=$1
shift
ossa=${OSSA:-./build/tools/ossa}
[ -x "$ossa" ] || { echo "step_counts: no ossa executable at $ossa (build first)" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "step_counts: x86-64 Linux only" >&2; exit 1; }
offset=$(nm "$ossa" | awk -v f="$function" '$3 == f && ($2 == "T" || $2 == "t") && !seen++ { print $1 }')
[ -n "$offset" ] || { echo "step_counts: $ossa has no function $function" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/step_count" scripts/step_count.c
"$work/step_count" "$work/counts" "$offset" "$calls" "$ossa" bench "$@" 2> "$work/log" ||
    { cat "$work/log" >&2; echo "step_counts: $function was never called" >&2; exit 1; }
done_calls=$(awk '{ print $2 }' "$work/log")
objdump -d --no-show-raw-insn "$ossa" > "$work/asm"
awk -v calls="$done_calls" -v per="$elements" -v fn="$function" '
    FNR == NR { count[$1] = $2; next }
    /^ *[0-9a-f]+:\t/ {
        split($0, f, "\t"); a = f[1]; gsub(/[ :]/, "", a); sub(/^0+/, "", a)
        if (!(a in count)) next
        n = count[a]; split(f[2], op, " "); m = op[1]
        kind = (f[2] ~ /%[xyz]mm|%k[0-7]/ || m ~ /^k/) ? "vector" : (m ~ /^j/ ? "branch" : "scalar")
        by_kind[kind] += n; by_op[m] += n; total += n
    }
    END {
        e = calls * per
        printf "%s: %d calls, %.0f instructions a call, %.2f an element (%d elements a call)\n",
               fn, calls, total / calls, total / e, per
        for (k in by_kind) printf "  %-8s %8.2f an element\n", k, by_kind[k] / e
        printf "most executed:\n"
        n = 0; for (m in by_op) order[++n] = m
        for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j)
            if (by_op[order[j]] > by_op[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
        for (i = 1; i <= n && i <= 12; ++i) printf "  %-14s %8.2f an element\n", order[i], by_op[order[i]] / e
    }' <(sed 's/^0*//' "$work/counts") "$work/asm"
