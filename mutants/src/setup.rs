//! What the two test programs (`mutants`, `compat_recall`) read from the environment: numbers
//! with defaults, whether CI runs them, and where the JSON-Schema-Test-Suite is.

use std::path::{Path, PathBuf};

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

/// The suite's root (`JSON_SCHEMA_TEST_SUITE`, else `../shared/json-schema-test-suite` beside
/// the project `root`), or `None`, said on standard error; under `CI=true` its absence stops
/// the run.
pub fn suite_dir(root: &Path) -> Option<PathBuf> {
    let shared = match std::env::var_os("PRP_SHARED_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => root.join("../shared"),
    };
    let dir = match std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => shared.join("json-schema-test-suite"),
    };
    if dir.join("tests/draft2020-12").is_dir() {
        return Some(dir);
    }
    assert!(
        !in_ci(),
        "the JSON-Schema-Test-Suite is not at {} (required when CI=true)",
        dir.display()
    );
    eprintln!(
        "skipped: the JSON-Schema-Test-Suite is not at {}; PRP's schemas only",
        dir.display()
    );
    None
}
