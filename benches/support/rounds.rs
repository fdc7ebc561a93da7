//! Helpers for the paired rounds the benchmarks run after criterion: this shared machine's speed
//! drifts by up to 2x within minutes, so figures meant to be compared are taken back to back in
//! each round and summarised by medians.

/// A numeric setting from the environment, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The median (the upper one for an even count); `NaN` for no values.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Whether the binary runs under `cargo bench` (criterion's test mode runs each function once and
/// stops there, so the rounds are skipped).
pub fn benching() -> bool {
    std::env::args().any(|a| a == "--bench")
}
