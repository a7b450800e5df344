#!/usr/bin/env bash
# kernel_loops.sh [OBJECT] - the loops of the AVX-512 skinning kernels and
# their lengths in instructions, from the disassembly. Valgrind does not run
# AVX-512, so this static count stands in for callgrind's dynamic one:
# instructions per vertex = loop length / vertices per iteration.
#
#   scripts/kernel_loops.sh   (default: build/.../skin_avx512.c.o)
#
# For each function skinN_pn / skinN_pnt (N influences; positions + normals,
# or + tangents) it lists every loop (a conditional jump backwards) as
# "start-end: length", innermost first as they appear. See docs/skinning.md.
set -euo pipefail
cd "$(dirname "$0")/.."
object=${1:-build/src/runtime/CMakeFiles/ossa_isa_avx512.dir/skin/skin_avx512.c.o}
[ -f "$object" ] || { echo "kernel_loops: build first; no $object" >&2; exit 1; }
objdump -d --no-show-raw-insn "$object" | awk '
    function hex(s,    i, v) {
        v = 0
        for (i = 1; i <= length(s); i++)
            v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); n = 0; next }
    /^ *[0-9a-f]+:\t/ {
        split($0, f, "\t"); s = f[1]; gsub(/[ :]/, "", s); addr = hex(s)
        at[fn, n] = addr; index_of[fn, addr] = n; n++
        split(f[2], op, " ")
        if (op[1] ~ /^j/) {
            target = hex(op[2])
            if (target < addr && (fn, target) in index_of && fn ~ /^skin[1-4]_pn/)
                printf "%-10s loop %5x-%5x: %3d instructions\n", fn, target, addr,
                       n - index_of[fn, target]
        }
    }'
