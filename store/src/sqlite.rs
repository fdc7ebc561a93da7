//! The durable store: SQLite (rusqlite, bundled) in WAL mode with `synchronous = FULL`.
//!
//! What survives a crash: a claim is durable once `claim` has returned, and an outcome once
//! `complete`, `recover` or an operator's commit has returned (each is one transaction, fsynced
//! before it returns). A process that dies between its effect and its commit leaves the claim in
//! progress; the next `claim` of that scope answers `in_progress` (never `claimed`), until an
//! operator commits the outcome or releases the claim.
//!
//! `claim` is one `BEGIN IMMEDIATE` transaction, so it is atomic across threads (one connection
//! behind a mutex) and across processes (SQLite's write lock, waited for up to five seconds).
//! `recover` runs on a connection of its own, opened for the purpose, with its own statement, so a
//! primary connection in a failed state does not take the fallback with it. The database file is
//! created readable by its owner only, and a file that is a symlink or readable by others is
//! refused.

use super::{
    Claim, ClaimRequest, Faults, IdempotencyStore, Operator, PendingClaim, StoreError, Token,
    new_token, now_ms,
};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS claims (
    scope TEXT PRIMARY KEY NOT NULL,
    operation_id TEXT NOT NULL,
    input_digest TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed_at_ms INTEGER NOT NULL,
    outcome TEXT,
    committed_at_ms INTEGER,
    committed_by TEXT CHECK (committed_by IN ('complete', 'recover', 'operator'))
);
";

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

/// Claims in a SQLite database file.
#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    primary: Mutex<Connection>,
    faults: Mutex<Faults>,
}

impl SqliteStore {
    /// Opens (or creates) the store at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref().to_path_buf();
        check_file(&path)?;
        let conn = connect(&path)?;
        conn.execute_batch(SCHEMA).map_err(unavailable)?;
        Ok(SqliteStore {
            path,
            primary: Mutex::new(conn),
            faults: Mutex::new(Faults::default()),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Sets the failures to inject from now on.
    pub fn set_faults(&self, faults: Faults) {
        *self.faults.lock().unwrap_or_else(|p| p.into_inner()) = faults;
    }

    fn faults(&self) -> Faults {
        *self.faults.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn primary(&self) -> std::sync::MutexGuard<'_, Connection> {
        // rusqlite leaves a connection usable after a panic in a caller's closure; a poisoned lock
        // only means another thread panicked while holding it.
        self.primary.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Refuses a symlink or a file others can read; creates a new file for its owner only.
fn check_file(path: &Path) -> Result<(), StoreError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(StoreError::Unavailable(format!(
            "{} is a symlink; the store needs a plain file",
            path.display()
        ))),
        Ok(m) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                if m.permissions().mode() & 0o077 != 0 {
                    return Err(StoreError::Unavailable(format!(
                        "{} is readable or writable by others (mode {:o}); use chmod 600",
                        path.display(),
                        m.permissions().mode() & 0o777
                    )));
                }
            }
            let _ = m;
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(0o600);
            }
            match options.open(path) {
                Ok(_) => Ok(()),
                // Another process created it first.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                Err(e) => Err(unavailable(format!("{}: {e}", path.display()))),
            }
        }
        Err(e) => Err(unavailable(format!("{}: {e}", path.display()))),
    }
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(unavailable)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(unavailable)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(unavailable)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(unavailable)?;
    // A file that is not a database (or a corrupt one) fails here, not later.
    conn.query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0))
        .map_err(unavailable)?;
    Ok(conn)
}

/// Commits `outcome` for the open claim `token` on `conn`; committing the same outcome again is a
/// success.
fn commit_token(
    conn: &mut Connection,
    token: &Token,
    outcome: &Value,
    by: &str,
) -> Result<(), StoreError> {
    let text = outcome.to_string();
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(unavailable)?;
    let stored: Option<Option<String>> = tx
        .query_row(
            "SELECT outcome FROM claims WHERE token = ?1",
            params![token.0],
            |r| r.get(0),
        )
        .optional()
        .map_err(unavailable)?;
    match stored {
        None => return Err(StoreError::UnknownToken),
        Some(Some(existing)) => {
            return if existing == text {
                Ok(())
            } else {
                Err(StoreError::UnknownToken)
            };
        }
        Some(None) => {}
    }
    tx.execute(
        "UPDATE claims SET outcome = ?1, committed_at_ms = ?2, committed_by = ?3 WHERE token = ?4 AND outcome IS NULL",
        params![text, now_ms(), by, token.0],
    )
    .map_err(unavailable)?;
    tx.commit().map_err(unavailable)
}

impl IdempotencyStore for SqliteStore {
    fn claim(&self, r: &ClaimRequest) -> Result<Claim, StoreError> {
        if self.faults().claim {
            return Err(StoreError::Injected("claim"));
        }
        let mut conn = self.primary();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(unavailable)?;
        let existing: Option<(String, String, Option<String>)> = tx
            .query_row(
                "SELECT operation_id, input_digest, outcome FROM claims WHERE scope = ?1",
                params![r.scope],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()
            .map_err(unavailable)?;
        let answer = match existing {
            Some((op, digest, _)) if op != r.operation_id || digest != r.input_digest => {
                Claim::Conflict
            }
            Some((_, _, Some(outcome))) => Claim::Duplicate(
                serde_json::from_str(&outcome)
                    .map_err(|e| unavailable(format!("a stored outcome is not JSON: {e}")))?,
            ),
            Some((_, _, None)) => Claim::InProgress,
            None => {
                let token = new_token(&r.scope);
                tx.execute(
                    "INSERT INTO claims (scope, operation_id, input_digest, token, claimed_at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![r.scope, r.operation_id, r.input_digest, token.0, now_ms()],
                )
                .map_err(unavailable)?;
                Claim::Claimed(token)
            }
        };
        tx.commit().map_err(unavailable)?;
        Ok(answer)
    }

    fn complete(&self, token: &Token, outcome: &Value) -> Result<(), StoreError> {
        if self.faults().complete {
            return Err(StoreError::Injected("complete"));
        }
        commit_token(&mut self.primary(), token, outcome, "complete")
    }

    fn recover(&self, token: &Token, outcome: &Value) -> Result<(), StoreError> {
        if self.faults().recover {
            return Err(StoreError::Injected("recover"));
        }
        // An independent path: a connection of its own, whatever state the primary one is in.
        let mut conn = connect(&self.path)?;
        commit_token(&mut conn, token, outcome, "recover")
    }

    fn release(&self, token: &Token) -> Result<(), StoreError> {
        if self.faults().release {
            return Err(StoreError::Injected("release"));
        }
        let n = self
            .primary()
            .execute(
                "DELETE FROM claims WHERE token = ?1 AND outcome IS NULL",
                params![token.0],
            )
            .map_err(unavailable)?;
        if n == 0 {
            return Err(StoreError::UnknownToken);
        }
        Ok(())
    }
}

impl Operator for SqliteStore {
    fn in_progress(&self) -> Result<Vec<PendingClaim>, StoreError> {
        let conn = self.primary();
        let mut stmt = conn
            .prepare(
                "SELECT scope, operation_id, input_digest, claimed_at_ms FROM claims WHERE outcome IS NULL ORDER BY claimed_at_ms, scope",
            )
            .map_err(unavailable)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(PendingClaim {
                    scope: r.get(0)?,
                    operation_id: r.get(1)?,
                    input_digest: r.get(2)?,
                    claimed_at_ms: r.get(3)?,
                })
            })
            .map_err(unavailable)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(unavailable)
    }

    fn commit_scope(&self, scope: &str, outcome: &Value) -> Result<(), StoreError> {
        let n = self
            .primary()
            .execute(
                "UPDATE claims SET outcome = ?1, committed_at_ms = ?2, committed_by = 'operator' WHERE scope = ?3 AND outcome IS NULL",
                params![outcome.to_string(), now_ms(), scope],
            )
            .map_err(unavailable)?;
        if n == 0 {
            return Err(StoreError::NoClaimInProgress(scope.to_owned()));
        }
        Ok(())
    }

    fn release_scope(&self, scope: &str) -> Result<(), StoreError> {
        let n = self
            .primary()
            .execute(
                "DELETE FROM claims WHERE scope = ?1 AND outcome IS NULL",
                params![scope],
            )
            .map_err(unavailable)?;
        if n == 0 {
            return Err(StoreError::NoClaimInProgress(scope.to_owned()));
        }
        Ok(())
    }
}
