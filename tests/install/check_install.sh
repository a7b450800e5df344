#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR - installs a built ossa into a fresh
# prefix, then builds and runs two small programs against it (the runtime,
# the crowd) twice: through find_package(ossa) and through pkg-config. Run by
# CTest.
set -euo pipefail
build=$1
here=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
"$work/consumer/crowd_consumer"
pc_dir=$(dirname "$(find "$work/prefix" -name ossa.pc | head -1)")
flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs --static ossa)
# shellcheck disable=SC2086 # flags are a list of options
cc -std=c11 "$here/main.c" $flags -o "$work/pc_consumer"
"$work/pc_consumer"
flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs --static ossa-crowd)
# shellcheck disable=SC2086
cc -std=c11 "$here/crowd_main.c" $flags -o "$work/pc_crowd_consumer"
"$work/pc_crowd_consumer"
echo "installed ossa and ossa-crowd work through find_package(ossa) and pkg-config"
