#!/usr/bin/env bash
# crowd_library_counts.sh - instructions and mispredicted branches of a
# crowd's frame on a clip library, counted by callgrind (repeatable on a
# noisy machine): scripts/crowd_library.c built against ./build's libraries
# (configure and build it first: ./run build), run under callgrind twice,
# collecting ossa_crowd_update and ossa_crowd_begin_frame (with the lane
# sampling job's share of the update). Frames after the first are what a
# steady frame costs; the script prints totals over every frame.
#
#   scripts/crowd_library_counts.sh BLOB [clips 256] [characters 1000] [frames 4] [changes 0]
#   e.g. scripts/crowd_library_counts.sh pab67_arnaud.ossa 256 1000 4 0
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -ge 1 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
blob=$1
clips=${2:-256} characters=${3:-1000} frames=${4:-4} changes=${5:-0}
lib="$root/build/src"
for a in crowd/libossa_crowd.a pipeline/libossa_pipeline.a runtime/libossa.a; do
    [ -f "$lib/$a" ] || { echo "crowd_library_counts: $lib/$a is missing: ./run build first" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -Wall -Wextra -Werror -I"$root/include" "$root/scripts/crowd_library.c" \
    "$lib/crowd/libossa_crowd.a" "$lib/pipeline/libossa_pipeline.a" "$lib/runtime/libossa.a" \
    -lm -o "$tmp/crowd_library"
"$tmp/crowd_library" "$blob" "$clips" "$characters" "$frames" "$changes"
for fn in ossa_crowd_update ossa_crowd_begin_frame; do
    valgrind --tool=callgrind --branch-sim=yes --toggle-collect="$fn" \
        --callgrind-out-file="$tmp/$fn.out" \
        "$tmp/crowd_library" "$blob" "$clips" "$characters" "$frames" "$changes" >/dev/null 2>"$tmp/log"
    total=$(callgrind_annotate --inclusive=yes "$tmp/$fn.out" | awk '/PROGRAM TOTALS/ {print $1, $5}')
    echo "$fn over $frames frames: instructions, mispredicted branches: $total"
    if [ "$fn" = ossa_crowd_update ]; then
        callgrind_annotate --inclusive=yes "$tmp/$fn.out" |
            awk '/ossa_lane_sampling_job_run \[/ && !done {print "  of which ossa_lane_sampling_job_run: " $1; done = 1}'
    fi
done
