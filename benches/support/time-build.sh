# Sourced by the compile-time scripts in benches/.
#
# time_build DIR PACKAGE [CARGO-FLAGS...]: cleans PACKAGE alone in the cargo project at DIR, then
# prints the seconds (one decimal) that building it again takes, its dependencies already built.
time_build() {
    local dir=$1 package=$2
    shift 2
    (cd "$dir" && cargo clean -q -p "$package" "$@")
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && cargo build -q -p "$package" "$@")
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }'
}
