//! The idempotency store (PROTOCOL §4.5): how a mutation takes effect at most once, even when the
//! process dies between the effect and the commit of its receipt.
//!
//! A dispatcher claims a scope (a digest of company, run, operation and idempotency key) before it
//! runs a mutation, and commits the sanitised outcome after. A second call with the same scope
//! gets the stored outcome back (`duplicate`), a different input under the same scope a
//! `conflict`, and a call while the first is still open `in_progress`.
//!
//! Where this project is stricter than the reference: **a claim left in progress is never handed
//! out again automatically.** The reference server store takes over a claim older than 60 seconds,
//! which runs a mutation twice when its effect happened but its receipt was never committed.
//! Here an operator resolves such a claim explicitly ([`Operator`]): commit the sanitised outcome
//! without repeating the effect, or release the claim after checking that the effect did not
//! happen.
//!
//! This module holds the contract ([`IdempotencyStore`], [`Operator`], [`Durable`]) and
//! [`MemoryStore`] (for tests and embedding). The durable stores are in the `prp-store` crate:
//! `SqliteStore` (for one runner) and `PostgresStore` (shared, for a fleet), each behind a cargo
//! feature, and `prp_store::open`, which picks one from a command line's `--store` value. Every
//! store takes injectable [`Faults`], one per method, so that every failure path of a dispatcher
//! can be exercised against the real code.

mod memory;

pub use memory::MemoryStore;

/// A store with the operator's interface and injectable faults. The memory store (which forgets
/// everything with its process) is one; the durable ones live in the `prp-store` crate, so that a
/// crate that only wants the types compiles no database driver.
pub trait Durable: IdempotencyStore + Operator {
    /// Sets the failures to inject from now on.
    fn set_faults(&self, faults: Faults);
}

impl Durable for MemoryStore {
    fn set_faults(&self, faults: Faults) {
        MemoryStore::set_faults(self, faults);
    }
}

use serde_json::Value;

/// What to claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRequest {
    /// The scope: `digest([companyId, runId, operationId, idempotencyKey])`.
    pub scope: String,
    /// The operation.
    pub operation_id: String,
    /// The digest of the call's input.
    pub input_digest: String,
}

/// Proof of a claim, needed to commit or release it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Token(pub String);

/// The answer to a claim: exactly one of four.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// The first claim of this scope: run the mutation, then commit with this token.
    Claimed(Token),
    /// The scope was completed with the same input: here is the stored outcome.
    Duplicate(Value),
    /// The scope was used with a different input or operation.
    Conflict,
    /// The scope is claimed and not completed.
    InProgress,
}

/// Why a store call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The store could not be read or written (a database error, an I/O error).
    #[error("the idempotency store is unavailable: {0}")]
    Unavailable(String),
    /// The token names no open claim (never issued, released, or already committed elsewhere).
    #[error("no open claim has this token")]
    UnknownToken,
    /// The scope has no claim in progress (for an operator's action).
    #[error("no claim in progress for scope {0}")]
    NoClaimInProgress(String),
    /// A failure injected through [`Faults`].
    #[error("injected failure of `{0}`")]
    Injected(&'static str),
}

/// The contract of §4.5.
pub trait IdempotencyStore: Send + Sync {
    /// Atomically claims `request.scope`.
    fn claim(&self, request: &ClaimRequest) -> Result<Claim, StoreError>;
    /// The primary commit of the sanitised outcome; afterwards a claim of the scope is a duplicate.
    fn complete(&self, token: &Token, outcome: &Value) -> Result<(), StoreError>;
    /// The fallback commit, through a path independent of `complete`'s, used when `complete`
    /// failed after the effect happened. Idempotent: committing the same claim again succeeds.
    fn recover(&self, token: &Token, outcome: &Value) -> Result<(), StoreError>;
    /// Drops a claim whose mutation did not run (the authority re-check failed).
    fn release(&self, token: &Token) -> Result<(), StoreError>;
}

/// A claim in progress, as an operator sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingClaim {
    /// The scope.
    pub scope: String,
    /// The operation.
    pub operation_id: String,
    /// The digest of the input it was claimed for.
    pub input_digest: String,
    /// When it was claimed, in milliseconds since the Unix epoch.
    pub claimed_at_ms: i64,
}

/// The operator's way out of a claim left in progress.
pub trait Operator {
    /// The claims in progress, oldest first.
    fn in_progress(&self) -> Result<Vec<PendingClaim>, StoreError>;
    /// Commits `outcome` for a claim in progress without repeating its effect.
    fn commit_scope(&self, scope: &str, outcome: &Value) -> Result<(), StoreError>;
    /// Releases a claim in progress whose effect is known not to have happened.
    fn release_scope(&self, scope: &str) -> Result<(), StoreError>;
}

/// Failures to inject, one per method: while set, the method fails with
/// [`StoreError::Injected`] before touching the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Faults {
    /// `claim` fails.
    pub claim: bool,
    /// `complete` fails.
    pub complete: bool,
    /// `recover` fails.
    pub recover: bool,
    /// `release` fails.
    pub release: bool,
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
