#!/usr/bin/env bash
# check_examples.sh - runs the examples and checks what they print (CTest
# runs it, in ossa's build and in tests/install/check_install.sh); not an
# example itself.
#
#   check_examples.sh blobs DIR TOOL
#       DIR/hero.ossa from `TOOL build --default`, and DIR/arnaud.ossa from
#       the pab FBX files when $OSSA_MODELS (else ../shared/models beside the
#       sources) has them and TOOL can import FBX.
#   check_examples.sh check KIND DIR TOOL PLAY COMMAND...
#       runs COMMAND (an example: KIND play, crowd, cpp or python) on each
#       blob of DIR and checks it against independent results:
#       - every example: character 0 (clip A alone, at the origin, unturned)
#         against `TOOL dump --json` - the joint's model matrix and the
#         skinned vertex, in source order;
#       - crowd, cpp, python: every character against PLAY (play.c) at the
#         same time, clips, weight and placement;
#       - crowd: each footfall is where PLAY puts that foot at that time, and
#         for a character playing one clip alone, the foot was higher a frame
#         before;
#       - every example: a missing file and a truncated blob are refused with
#         exit 1 and the library's message (as `TOOL info` prints it), no
#         arguments with exit 2.
#   check_examples.sh skip REASON      prints the reason, exits 77 (skipped)
#
# $OSSA_EXAMPLES_EMULATOR (qemu-user, cross-compiled) runs TOOL, PLAY and
# the compiled examples.
set -euo pipefail
read -r -a emulator <<<"${OSSA_EXAMPLES_EMULATOR:-}"
here=$(cd "$(dirname "$0")" && pwd)

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

# The pab character and three clips, when the models and an importer exist.
arnaud() {
    local dir=$1 tool=$2
    local models=${OSSA_MODELS:-$(cd "$here/../.." && pwd)/shared/models}
    local pab=$models/pab
    if [ ! -f "$pab/arnaud.fbx" ]; then
        echo "no $pab/arnaud.fbx (set OSSA_MODELS)" >"$dir/arnaud.skipped"
        return
    fi
    if ! "${emulator[@]}" "$tool" build "$pab/arnaud.fbx" "$pab/walk.fbx" "$pab/jog.fbx" \
        "$pab/run.fbx" -o "$dir/arnaud.ossa" >"$dir/arnaud.log" 2>&1; then
        grep -q "importer" "$dir/arnaud.log" ||
            { cat "$dir/arnaud.log"; fail "building arnaud.ossa"; }
        grep -m1 "importer" "$dir/arnaud.log" | sed 's/^ossa build: //' >"$dir/arnaud.skipped"
        return
    fi
    rm -f "$dir/arnaud.skipped"
}

blobs() {
    local dir=$1 tool=$2
    mkdir -p "$dir"
    "${emulator[@]}" "$tool" build --default -o "$dir/hero.ossa" >/dev/null
    arnaud "$dir" "$tool"
    ls "$dir"/*.ossa
    [ ! -f "$dir/arnaud.skipped" ] || echo "arnaud.ossa SKIPPED: $(cat "$dir/arnaud.skipped")"
}

# character lines -> "index jx jy jz vx vy vz"
characters() {
    awk '/^character [0-9]+:/ { gsub(/[:,]/, ""); print $2, $6, $7, $8, $10, $11, $12 }' "$1"
}

# within A B WHAT: every number of every line of B within 1e-5 of A's line
# for the same index, relative to the largest magnitude in A's line when it
# is above 1 (a character 6 m from the origin rounds as 6 m do); prints the
# largest difference.
within() {
    awk -v what="$3" '
        function abs(x) { return x < 0 ? -x : x }
        NR == FNR { want[$1] = $0; n++; next }
        {
            if (!($1 in want)) { print what ": unexpected line " $0; bad = 1; next }
            split(want[$1], w, " ")
            scale = 1 # the largest magnitude in the line: rounding follows it
            for (k = 2; k <= NF; ++k)
                if (abs(w[k]) > scale) scale = abs(w[k])
            for (k = 2; k <= NF; ++k) {
                d = abs($k - w[k]) / scale
                if (d > worst) worst = d
                if (d > 1e-5) { print what ": " $1 " field " k ": " $k " != " w[k]; bad = 1 }
            }
            seen++
        }
        END {
            if (seen != n) { print what ": " seen " lines, expected " n; bad = 1 }
            printf "%s: %d characters %s (largest difference %.1e)\n", what, seen,
                   bad ? "DISAGREE" : "agree", worst
            exit bad
        }' "$1" "$2"
}

# dump_character0 DUMP JOINT VERTEX: "0 jx jy jz vx vy vz" from `ossa dump --json`.
dump_character0() {
    awk -v joint="$2" -v vertex="$3" '
        index($0, "{\"name\": \"" joint "\",") && !j {
            line = $0; sub(/.*"model": \[/, "", line); sub(/\].*/, "", line)
            split(line, m, ", "); j = m[4] " " m[8] " " m[12]
        }
        /"positions": / && !v {
            line = $0; sub(/.*"positions": \[\[/, "", line)
            split(line, p, /\], \[/); split(p[vertex + 1], x, ", "); v = x[1] " " x[2] " " x[3]
        }
        END { if (j && v) print 0, j, v }' "$1"
}

# refusals WORK BLOB TOOL COMMAND...: bad input gets the library's message.
refusals() {
    local work=$1 blob=$2 tool=$3
    shift 3
    local out=$work/refusal.txt status
    head -c 1000 "$blob" >"$work/truncated.ossa"
    for file in /nonexistent-ossa/none.ossa "$work/truncated.ossa"; do
        local message
        message=$("${emulator[@]}" "$tool" info "$file" 2>&1 >/dev/null || true)
        message=$(sed -e 's/^ossa info: //' -e 's/ (ERR_[A-Z_]*)$//' <<<"$message")
        [ -n "$message" ] || fail "$tool info $file printed no message"
        status=0
        "$@" "$file" >/dev/null 2>"$out" || status=$?
        [ "$status" = 1 ] || fail "$* $file: exit $status, expected 1"
        grep -qF -- "$message" "$out" ||
            fail "$* $file: the library's message '$message' not in: $(cat "$out")"
    done
    status=0
    "$@" >/dev/null 2>"$out" || status=$?
    [ "$status" = 2 ] || fail "$* with no arguments: exit $status, expected 2"
}

# footfalls OUT WORK BLOB PLAY ARGS...: each footfall against play.c.
footfalls() {
    local out=$1 dir=$2 blob=$3 play=$4
    shift 4
    local dt count=0
    dt=$(sed -n 's/.* frames of \([0-9.]*\) s$/\1/p' "$out")
    while read -r character foot time x y z; do
        "${emulator[@]}" "$play" "$blob" "$@" --time "$time" --joint "$foot" >"$dir/at.txt"
        "${emulator[@]}" "$play" "$blob" "$@" --time "$(awk -v t="$time" -v d="$dt" \
            'BEGIN { printf "%.6f", t - d }')" --joint "$foot" >"$dir/before.txt"
        echo "$character $x $y $z" >"$dir/footfall.txt"
        characters "$dir/at.txt" | awk -v c="$character" '$1 == c { print $1, $2, $3, $4 }' \
            >"$dir/foot.txt"
        within "$dir/foot.txt" "$dir/footfall.txt" "footfall" >/dev/null ||
            fail "$blob: footfall of character $character, $foot at $time s: $x $y $z, play.c: $(cat "$dir/foot.txt")"
        # A footfall is the dominant clip's foot going down through its contact
        # height (docs/crowd.md): for a character playing one clip alone
        # (weight 0 or 1), its foot is lower than a frame before.
        weight=$(awk -v c="$character" '/^character [0-9]+: weight/ { gsub(/[:,]/, "") }
            $1 == "character" && $2 == c && $3 == "weight" { print $4; exit }' "$out")
        if [ "$weight" = 0.000 ] || [ "$weight" = 1.000 ]; then
            characters "$dir/before.txt" | awk -v c="$character" -v y="$y" \
                '$1 == c && !($3 > y) { exit 1 }' ||
                fail "$blob: footfall of character $character, $foot at $time s: not lower than a frame before"
        fi
        count=$((count + 1))
    done < <(awk '/^footfall: / { gsub(/[:,]/, ""); print $3, $4, $5, $8, $9, $10 }' "$out")
    echo "$count"
}

check() {
    local kind=$1 dir=$2 tool=$3 play=$4
    shift 4
    local run=("$@")
    if [ "$kind" = python ]; then
        command -v "$1" >/dev/null || { echo "SKIPPED: no $1 on this machine"; exit 77; }
    else
        run=("${emulator[@]}" "$@")
    fi
    [ -f "$dir/hero.ossa" ] || fail "no $dir/hero.ossa: run the blobs step first"
    local work=$dir/work-$kind blob
    rm -rf "$work"
    mkdir -p "$work"
    for blob in "$dir"/hero.ossa "$dir"/arnaud.ossa; do
        if [ ! -f "$blob" ]; then
            echo "$kind: arnaud.ossa SKIPPED: $(cat "$dir/arnaud.skipped" 2>/dev/null)"
            continue
        fi
        local args=(--characters 5 --time 0.7) name
        name=$(basename "$blob" .ossa)
        local out=$work/$name
        [ "$name" = hero ] && args+=(--clips walk run)
        local extra=()
        [ "$kind" = crowd ] && [ "$name" = arnaud ] && extra=(--feet LeftFoot RightFoot)
        "${run[@]}" "$blob" "${args[@]}" "${extra[@]}" >"$out.txt" ||
            fail "$kind on $blob exited $?"
        characters "$out.txt" >"$out.characters"
        [ "$(wc -l <"$out.characters")" = 5 ] || fail "$kind on $blob: not 5 character lines"
        local clip joint
        clip=$(sed -n "s/.*clip A '\([^']*\)'.*/\1/p" "$out.txt")
        joint=$(sed -n "s/.* of joint '\([^']*\)' .*/\1/p" "$out.txt")
        "${emulator[@]}" "$tool" dump "$blob" --clip "$clip" --time 0.7 --json >"$out.dump"
        dump_character0 "$out.dump" "$joint" 0 >"$out.expected"
        [ -s "$out.expected" ] || fail "no joint '$joint' or vertex 0 in $tool dump's output"
        within "$out.expected" <(head -1 "$out.characters") \
            "$kind $name: character 0 ($clip alone), joint $joint and vertex 0 vs ossa dump"
        if [ "$kind" != play ]; then
            "${emulator[@]}" "$play" "$blob" "${args[@]}" >"$out.play"
            within <(characters "$out.play") "$out.characters" "$kind $name: vs play.c"
        fi
        if [ "$kind" = crowd ]; then
            local found
            found=$(footfalls "$out.txt" "$work" "$blob" "$play" "${args[@]}")
            [ "$found" -gt 0 ] || fail "$kind on $blob: no footfall in 0.7 s of walking"
            echo "$kind $name: $found footfalls where play.c puts the foot, lower than a frame before"
        fi
    done
    refusals "$work" "$dir/hero.ossa" "$tool" "${run[@]}"
    echo "$kind: a missing file and a truncated blob refused with the library's message"
}

mode=${1:-}
[ $# -gt 0 ] && shift
case "$mode" in
blobs) blobs "$@" ;;
check) check "$@" ;;
skip)
    echo "SKIPPED: $*"
    exit 77
    ;;
*)
    sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
