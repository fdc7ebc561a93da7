#!/usr/bin/env bash
# prp-types' own compile time, its dependencies (and the generator) already built, at a base
# revision and at HEAD, in the same run: each round cleans prp-types alone and times its build,
# debug then release, base then HEAD. Also prints each side's generated module: lines, types, impl
# blocks written per type, and calls of the runtime's macros (each expands to a kind's impls).
#
#   bash benches/own-compile.sh BASE_REV [ROUNDS]
#
# Run it on a quiet machine: other builds running at the same time skew both sides.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: own-compile.sh BASE_REV [ROUNDS]}
rounds=${2:-3}
scratch=$(mktemp -d)
cleanup() {
    git worktree remove --force "$scratch/base" 2>/dev/null || true
    git worktree remove --force "$scratch/head" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
git worktree add --quiet --detach "$scratch/base" "$base"
git worktree add --quiet --detach "$scratch/head" HEAD
export CARGO_INCREMENTAL=0

# Warm: every dependency built in each side's own target directory.
for side in base head; do
    (cd "$scratch/$side" && cargo build -q -p prp-types && cargo build -q --release -p prp-types)
done

# module SIDE: lines, types and impls per type of the generated module (debug build's).
module() {
    local file
    file=$(ls -t "$scratch/$1"/target/debug/build/prp-types-*/out/prp_types.rs | head -1)
    awk '/^pub (struct|enum) /{t++} /^impl/{i++} /^ *rt::[a-z_]+!/{m++}
         END { printf "%d lines, %d types, %.1f impl blocks written per type, %d runtime macro calls\n", NR, t, i / t, m }' "$file"
}
echo "base $base: $(module base)"
echo "head $(git rev-parse --short HEAD): $(module head)"

source benches/support/time-build.sh

for round in $(seq "$rounds"); do
    for profile in debug release; do
        flags=()
        [ "$profile" = release ] && flags=(--release)
        b=$(time_build "$scratch/base" prp-types "${flags[@]}")
        h=$(time_build "$scratch/head" prp-types "${flags[@]}")
        ratio=$(awk -v b="$b" -v h="$h" 'BEGIN { printf "%.2f", h / b }')
        printf 'round %d %-7s base %6s s  head %6s s  head/base %sx\n' "$round" "$profile" "$b" "$h" "$ratio"
    done
done
