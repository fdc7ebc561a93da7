//! Durable idempotency stores for the PRP dispatcher (PROTOCOL §4.5).
//!
//! The contract and the in-memory store are in `prp-peer` ([`prp_peer::store`]); this crate
//! adds the stores that survive their process, each behind a cargo feature so that a user builds
//! only the driver it uses:
//!
//! | feature | store | for |
//! |---|---|---|
//! | `sqlite` (default) | [`SqliteStore`]: WAL, `synchronous = FULL`, SQLite compiled in | one runner or dispatcher |
//! | `postgres` | [`PostgresStore`]: one statement per claim, TLS through native-tls | a fleet sharing one store |
//!
//! [`open`] picks one from a `--store` value (`sqlite:PATH`, `postgres://…`). A claim left in
//! progress (the process died between the effect and the commit) is never handed out again: the
//! next claim of its scope gets `in_progress` until an operator commits or releases it
//! ([`Operator`]).
//!
//! ```no_run
//! use prp_store::{Claim, ClaimRequest, IdempotencyStore};
//!
//! let store = prp_store::open("sqlite:/var/lib/prp/claims.db")?;
//! let request = ClaimRequest {
//!     scope: "sha256:…".into(),
//!     operation_id: "write_document".into(),
//!     input_digest: "sha256:…".into(),
//! };
//! if let Claim::Claimed(token) = store.claim(&request)? {
//!     // ... run the mutation, then commit its sanitised outcome:
//!     store.complete(&token, &serde_json::json!({"code": "ok"}))?;
//! }
//! # Ok::<(), prp_store::StoreError>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "sqlite")]
mod sqlite;

#[cfg(feature = "postgres")]
pub use postgres::PostgresStore;
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteStore;

pub use prp_peer::store::{
    Claim, ClaimRequest, Durable, Faults, IdempotencyStore, MemoryStore, Operator, PendingClaim,
    StoreError, Token,
};

use std::sync::Arc;

/// Opens the durable store `spec` names: `sqlite:PATH`, or a PostgreSQL URL (`postgres://…`,
/// `postgresql://…`). A kind whose feature this build left out is refused with a message that
/// names the feature.
pub fn open(spec: &str) -> Result<Arc<dyn Durable>, StoreError> {
    if let Some(path) = spec.strip_prefix("sqlite:").filter(|p| !p.is_empty()) {
        return open_sqlite(path);
    }
    if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
        return open_postgres(spec);
    }
    Err(StoreError::Unavailable(format!(
        "`{spec}` is not a store: use sqlite:PATH or postgres://USER@HOST:PORT/DATABASE"
    )))
}

#[cfg(feature = "sqlite")]
fn open_sqlite(path: &str) -> Result<Arc<dyn Durable>, StoreError> {
    Ok(Arc::new(SqliteStore::open(path)?))
}

#[cfg(not(feature = "sqlite"))]
fn open_sqlite(_: &str) -> Result<Arc<dyn Durable>, StoreError> {
    Err(missing_feature("SQLite", "sqlite"))
}

#[cfg(feature = "postgres")]
fn open_postgres(url: &str) -> Result<Arc<dyn Durable>, StoreError> {
    Ok(Arc::new(PostgresStore::open(url)?))
}

#[cfg(not(feature = "postgres"))]
fn open_postgres(_: &str) -> Result<Arc<dyn Durable>, StoreError> {
    Err(missing_feature("PostgreSQL", "postgres"))
}

#[cfg(any(not(feature = "sqlite"), not(feature = "postgres")))]
fn missing_feature(kind: &str, feature: &str) -> StoreError {
    StoreError::Unavailable(format!(
        "this build has no {kind} store: prp-store was built without its `{feature}` feature"
    ))
}

#[cfg(feature = "sqlite")]
impl Durable for SqliteStore {
    fn set_faults(&self, faults: Faults) {
        SqliteStore::set_faults(self, faults);
    }
}

#[cfg(feature = "postgres")]
impl Durable for PostgresStore {
    fn set_faults(&self, faults: Faults) {
        PostgresStore::set_faults(self, faults);
    }
}

/// A token no other claim of any process or host has: the scope, a counter, the time, and a seed
/// drawn once per process (the host's name, the pid and the standard library's random hash keys),
/// hashed.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
fn new_token(scope: &str) -> Token {
    use sha2::{Digest, Sha256};
    use std::fmt::Write;
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    static SEED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let seed = SEED.get_or_init(|| {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let random = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        format!("{}:{}:{random:016x}", host.trim(), std::process::id())
    });
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let hash = Sha256::digest(format!("{seed}:{scope}:{nanos}:{n}").as_bytes());
    let mut token = String::from("claim:");
    for byte in &hash[..16] {
        let _ = write!(token, "{byte:02x}");
    }
    Token(token)
}

/// Milliseconds since the Unix epoch, as the stores record `claimed_at`.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
