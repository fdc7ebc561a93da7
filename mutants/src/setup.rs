//! What the two test programs (`mutants`, `compat_recall`) read from the environment: numbers
//! with defaults, whether CI runs them, and where the JSON-Schema-Test-Suite is.

use std::path::PathBuf;

/// The number in the environment variable `name`, or `default` when it is not set; a value that
/// is not a number stops the run with its name.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// Whether `CI=true`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true"))
}

/// The suite's root (`JSON_SCHEMA_TEST_SUITE`, else `json-schema-test-suite` in the shared
/// folder, found as every test finds it), or `None` after a visible skip; under `CI=true` its
/// absence stops the run.
pub fn suite_dir() -> Option<PathBuf> {
    prp_testkit::suite_dir()
}
