#!/usr/bin/env bash
# How low prp-types' own compile time can go without changing what it carries: the same build
# timed three ways, in one run, dependencies built, CARGO_INCREMENTAL=0.
#
#   full       prp-types at HEAD
#   stubbed    the same, with every struct's decoder, verdict-only check and encoder replaced by
#              `unimplemented!()` (compile-floor/stub-struct-codecs.patch on the runtime's macros):
#              what the build would cost if those three cost nothing
#   generated  the generated module alone in a crate of its own, its document union decoded,
#              verified and encoded, so every type's code is compiled (no build script, no
#              hand-written runtime)
#
#   bash benches/compile-floor.sh [ROUNDS]
#
# The patch is written against the runtime's macros at the commit that added it; if it no longer
# applies, the script says so and stops. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
here=$(pwd)
scratch=$(mktemp -d)
cleanup() {
    git worktree remove --force "$scratch/full" 2>/dev/null || true
    git worktree remove --force "$scratch/stubbed" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
export CARGO_INCREMENTAL=0
git worktree add --quiet --detach "$scratch/full" HEAD
git worktree add --quiet --detach "$scratch/stubbed" HEAD
git -C "$scratch/stubbed" apply "$here/benches/compile-floor/stub-struct-codecs.patch" ||
    { echo "the stub patch no longer applies to the runtime's macros" >&2; exit 1; }
for side in full stubbed; do
    (cd "$scratch/$side" && cargo build -q -p prp-types && cargo build -q --release -p prp-types)
done

# The generated module alone: a crate that includes it and instantiates the document union.
gen="$scratch/generated"
mkdir -p "$gen/src"
cp "$(ls -t "$scratch"/full/target/debug/build/prp-types-*/out/prp_types.rs | head -1)" "$gen/src/generated.rs"
cat > "$gen/Cargo.toml" <<TOML
[package]
name = "generated-alone"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
prp-codegen-runtime = { path = "$scratch/full/codegen-runtime" }
[workspace]
TOML
cp "$scratch/full/Cargo.lock" "$gen/Cargo.lock"
cat > "$gen/src/lib.rs" <<'RUST'
#![allow(warnings)]
pub mod types {
    include!("generated.rs");
}
use types::rt;
/// Decodes and verifies a document, so that every type's decoder and check is compiled.
pub fn read(text: &str) -> bool {
    let typed = <types::Document as rt::serde::Deserialize>::deserialize(&mut rt::reader::Reader::new(text));
    typed.is_ok() && <types::Document as rt::Verify>::verify(&mut rt::reader::Reader::new(text)).is_ok()
}
/// Encodes a document, so that every type's encoder is compiled.
pub fn write(document: &types::Document) -> Vec<u8> {
    rt::serde_json::to_vec(document).unwrap_or_default()
}
RUST
(cd "$gen" && cargo build -q && cargo build -q --release)

source benches/support/time-build.sh

for round in $(seq "$rounds"); do
    for profile in debug release; do
        flags=()
        [ "$profile" = release ] && flags=(--release)
        f=$(time_build "$scratch/full" prp-types "${flags[@]}")
        s=$(time_build "$scratch/stubbed" prp-types "${flags[@]}")
        g=$(time_build "$gen" generated-alone "${flags[@]}")
        printf 'round %d %-7s full %6s s  stubbed %6s s  generated alone %6s s\n' \
            "$round" "$profile" "$f" "$s" "$g"
    done
done
