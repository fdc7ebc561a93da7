#!/usr/bin/env bash
# What depending on prp-types costs, as `cargo add prp-types` gives it: the cold debug build of
# examples/consumer (prp-types alone, default features) beside benches/build-cost/baseline (serde
# and serde_json alone), then of examples/peer-consumer (prp-peer) beside the same baseline. Each
# crate is copied outside the repository (so this repository's `.cargo/config.toml`, which makes
# prp-types regenerate its module, does not apply) and depends on the packaged crates by version,
# patched to the `.crate` files `cargo package` makes: what a registry user compiles. Each build
# has a fresh target directory; the builds run one after the other, in the same run, ROUNDS times
# (default 1). Prints, per round, each build's wall time, the crates it compiled and the ratio.
#
#   bash benches/build-cost.sh [ROUNDS]
#
# The registry's sources must already be downloaded (a warm cargo home), so that only compiling is
# timed: the script fetches every crate's dependencies first.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1}
root=$(pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The packages, unpacked: what the registry would serve.
bash .ci/unpack-packages "$scratch/registry"
patch=$(cat "$scratch/registry/patch.toml")

# consumer NAME EXAMPLE DEPS: a copy of examples/EXAMPLE as a crate of its own.
consumer() {
    local name=$1 example=$2 deps=$3
    mkdir -p "$scratch/$name"
    cp -r "$root/examples/$example/src" "$scratch/$name/"
    cat > "$scratch/$name/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
$deps

[patch.crates-io]
$patch
TOML
    (cd "$scratch/$name" && cargo fetch --quiet)
}
consumer types-consumer consumer 'prp-types = "0.1.0"'
consumer peer-consumer peer-consumer $'prp-types = "0.1.0"\nprp-peer = "0.1.0"'
cp -r "$root/benches/build-cost/baseline" "$scratch/baseline"
(cd "$scratch/baseline" && cargo fetch --quiet)

# build NAME: a cold build of $scratch/NAME in a fresh target directory; prints "SECONDS CRATES".
build() {
    local name=$1
    local target="$scratch/target-$name"
    rm -rf "$target"
    local start end
    start=$(date +%s.%N)
    (cd "$scratch/$name" && CARGO_TARGET_DIR="$target" cargo build 2>"$scratch/$name.log")
    end=$(date +%s.%N)
    local crates
    crates=$(grep -c '^ *Compiling ' "$scratch/$name.log" || true)
    awk -v s="$start" -v e="$end" -v c="$crates" 'BEGIN { printf "%.2f %d\n", e - s, c }'
}

# Each consumer builds the module its package ships: no generator among what it compiled.
check_no_generator() {
    if grep -qE '^ *Compiling (prp-codegen|prettyplease) v' "$scratch/$1.log"; then
        echo "$1 compiled the generator:" >&2
        grep -E '^ *Compiling ' "$scratch/$1.log" >&2
        exit 1
    fi
}

for round in $(seq "$rounds"); do
    read -r b_secs b_crates < <(build baseline)
    for name in types-consumer peer-consumer; do
        read -r c_secs c_crates < <(build "$name")
        check_no_generator "$name"
        ratio=$(awk -v c="$c_secs" -v b="$b_secs" 'BEGIN { printf "%.2f", c / b }')
        printf 'round %d: %s %.1f s, %d crates; baseline %.1f s, %d crates; ratio %sx\n' \
            "$round" "$name" "$c_secs" "$c_crates" "$b_secs" "$b_crates" "$ratio"
    done
done
