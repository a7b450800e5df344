#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR - installs a built ossa into a fresh
# prefix, then builds and runs a small program against it twice: through
# find_package(ossa) and through pkg-config. Run by CTest.
set -euo pipefail
build=$1
here=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
pc_dir=$(dirname "$(find "$work/prefix" -name ossa.pc | head -1)")
flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs --static ossa)
# shellcheck disable=SC2086 # flags are a list of options
cc -std=c11 "$here/main.c" $flags -o "$work/pc_consumer"
"$work/pc_consumer"
echo "installed ossa works through find_package(ossa) and pkg-config"
