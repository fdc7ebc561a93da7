#!/usr/bin/env bash
# What depending on prp-types costs: the cold debug build of examples/consumer (prp-types alone)
# beside benches/build-cost/baseline (serde and serde_json alone), each in a fresh target
# directory, in the same run, one after the other, ROUNDS times (default 1). Prints, per round,
# each build's wall time and the number of crates it compiled, and the ratio of the times.
#
#   bash benches/build-cost.sh [ROUNDS]
#
# The registry's sources must already be downloaded (a warm cargo home), so that only compiling
# is timed: the script fetches both crates' dependencies first.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1}
root=$(pwd)
baseline="$root/benches/build-cost/baseline"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cargo fetch --quiet
(cd "$baseline" && cargo fetch --quiet)

# build NAME DIR ARGS...: a cold build in a fresh target directory; prints "SECONDS CRATES".
build() {
    local name=$1 dir=$2
    shift 2
    local target="$scratch/target-$name"
    rm -rf "$target"
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build "$@" 2>"$scratch/$name.log")
    end=$(date +%s.%N)
    local crates
    crates=$(grep -c '^ *Compiling ' "$scratch/$name.log" || true)
    awk -v s="$start" -v e="$end" -v c="$crates" 'BEGIN { printf "%.2f %d\n", e - s, c }'
}

for round in $(seq "$rounds"); do
    read -r c_secs c_crates < <(build consumer "$root" -p prp-consumer)
    read -r b_secs b_crates < <(build baseline "$baseline")
    ratio=$(awk -v c="$c_secs" -v b="$b_secs" 'BEGIN { printf "%.2f", c / b }')
    printf 'round %d: consumer %.1f s, %d crates; baseline %.1f s, %d crates; ratio %sx\n' \
        "$round" "$c_secs" "$c_crates" "$b_secs" "$b_crates" "$ratio"
done
