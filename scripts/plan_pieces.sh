#!/usr/bin/env bash
# plan_pieces.sh - static instruction counts of the AVX-512 packed skinning
# kernel that reads a skin plan (src/runtime/skin/skin_plan_avx512.c), per
# block of 16 vertices. Valgrind does not run AVX-512, and the kernel's block
# loop holds both kinds of block, so kernel_loops.sh's loop lengths do not
# say what one block costs. This compiles a copy with the three pieces of a
# block out of line - the matrices of a table block, of a general block, and
# the output (transform, packing, interleaving) - with the build's flags, and
# prints each piece's length and the loops inside it (a loop's body runs once
# per trip: the general block's quad loop runs 4 times).
#
#   scripts/plan_pieces.sh        (needs gcc and objdump; see docs/skinning.md)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source=src/runtime/skin/skin_plan_avx512.c
sed -e 's/^OSSAI_SKIN_INLINE void table_matrices(/__attribute__((noinline)) static void table_matrices(/' \
    -e 's/^OSSAI_SKIN_INLINE void general_matrices(/__attribute__((noinline)) static void general_matrices(/' \
    -e 's/^OSSAI_SKIN_INLINE void block_output(/__attribute__((noinline)) static void block_output(/' \
    "$source" >"$tmp/pieces.c"
grep -q 'noinline)) static void block_output' "$tmp/pieces.c" ||
    { echo "plan_pieces: $source no longer has the pieces this script expects" >&2; exit 1; }
gcc -O3 -DNDEBUG -std=c11 -mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx2 -mfma -fno-math-errno \
    -DOSSAI_SIMD_X86 -DOSSAI_ISA_AVX512 -Iinclude -Isrc/runtime -c "$tmp/pieces.c" -o "$tmp/pieces.o"
objdump -d --no-show-raw-insn "$tmp/pieces.o" | awk '
    function hex(s,    i, v) {
        v = 0
        for (i = 1; i <= length(s); i++)
            v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    function flush() {
        if (fn ~ /^(table_matrices|general_matrices|block_output)/) {
            # which instance: count what tells them apart
            printf "%-32s %4d instructions (%d fnmadd, %d two-source permutes, %d FMA)%s\n",
                   fn, n, fnmadd, permutes, fma, loops
        }
    }
    /^[0-9a-f]+ <.*>:$/ { flush(); fn = $2; gsub(/[<>:]/, "", fn); n = 0; fnmadd = 0; permutes = 0;
                          fma = 0; loops = ""; delete index_of; next }
    /^ *[0-9a-f]+:\t/ {
        split($0, f, "\t"); s = f[1]; gsub(/[ :]/, "", s); addr = hex(s)
        index_of[addr] = n; n++
        split(f[2], op, " ")
        if (op[1] ~ /^vfnmadd/) fnmadd++
        if (op[1] ~ /^vperm[ti]2ps/) permutes++
        if (op[1] ~ /^vfmadd/) fma++
        if (op[1] ~ /^j/) {
            target = hex(op[2])
            if (target < addr && (target in index_of))
                loops = loops sprintf(", loop of %d", n - index_of[target])
        }
    }
    END { flush() }'
echo "(n influences: a table block's matrices do 12 (n - 1) fnmadd and 12 n permutes; a"
echo " general block's 16 (n - 1) fnmadd, some inside a loop of 4 trips; the output with"
echo " tangents does 21 FMA and 6 multiplies in the transform and 6 FMA in packing, without"
echo " tangents 15 + 3 and 3)"
