#!/usr/bin/env bash
# check_portable_objects.sh OBJDUMP OBJECT... - fails when one of the objects
# (the runtime's own and its portable and SSE kernels - CTest passes them; the
# AVX2 / AVX-512 kernel object libraries are compiled with those flags and
# only called after a CPU check) contains an AVX instruction (VEX or EVEX
# encoded: ymm/zmm/mask registers or a v-prefixed mnemonic), so the library
# keeps running on any x86-64. Run by CTest.
set -euo pipefail
objdump=$1
shift
status=0
for object in "$@"; do
    found=$("$objdump" -d --no-show-raw-insn "$object" |
        awk -F'\t' 'NF >= 2 && ($2 ~ /^v[a-z]/ || $2 ~ /%[yz]mm|%k[0-7]/) { print $2 }' | head -3)
    if [ -n "$found" ]; then
        echo "$(basename "$object") uses AVX instructions, e.g.:"
        echo "$found" | sed 's/^/    /'
        status=1
    fi
done
[ $status -eq 0 ] && echo "checked $# objects: no AVX outside the AVX2 / AVX-512 kernels"
exit $status
