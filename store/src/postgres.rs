//! The fleet store: PostgreSQL, shared by every runner and dispatcher of a company.
//!
//! The promise is the SQLite store's, across hosts: a mutation takes effect at most once.
//!
//! - `claim` is one statement (`INSERT … ON CONFLICT (scope) DO UPDATE … RETURNING`), atomic under
//!   any number of concurrent clients: exactly one gets its own token back. A claim whose answer
//!   was lost with the connection is retried once on a new connection with the same token, so the
//!   retry recognises its own row instead of calling it `in_progress`.
//! - A claim in progress is never handed out again automatically (no takeover after a timeout);
//!   an operator commits or releases it (`prp store … --store postgres://…`).
//! - `recover` is a different statement on a connection of its own, opened for the purpose, so a
//!   primary connection or statement in a failed state does not take the fallback with it.
//! - The schema is created and migrated on first use, under an advisory lock, and versioned in
//!   `prp_store_migrations`; a database migrated by a newer build is refused.
//!
//! Connection settings come from the URL (`postgres://user:password@host:port/db?sslmode=…`) and,
//! for what it leaves out, from the usual environment: `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`,
//! `PGDATABASE`, `PGSSLMODE`, `PGCONNECT_TIMEOUT`, `PGAPPNAME`, and `PGSSLROOTCERT` for a CA to
//! trust. TLS goes through native-tls, which verifies the server's certificate and host name.

use super::{
    Claim, ClaimRequest, Faults, IdempotencyStore, Operator, PendingClaim, StoreError, Token,
    new_token, now_ms,
};
use postgres::config::SslMode;
use postgres::{Client, Config};
use postgres_native_tls::MakeTlsConnector;
use serde_json::Value;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

/// The newest schema version this build knows, and how to reach each version from the one before.
const MIGRATIONS: &[(i32, &str)] = &[(
    1,
    "CREATE TABLE prp_claims (
        scope TEXT PRIMARY KEY NOT NULL,
        operation_id TEXT NOT NULL,
        input_digest TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        claimed_at_ms BIGINT NOT NULL,
        outcome TEXT,
        committed_at_ms BIGINT,
        committed_by TEXT CHECK (committed_by IN ('complete', 'recover', 'operator'))
    );
    CREATE INDEX prp_claims_in_progress ON prp_claims (claimed_at_ms, scope) WHERE outcome IS NULL;",
)];

/// The advisory lock that serialises migrations (any fixed 64-bit key: "prpstore").
const MIGRATION_LOCK: i64 = 0x7072_7073_746f_7265;

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

/// A database error with the server's own words when there are some.
fn db_error(e: postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(db) => StoreError::Unavailable(format!(
            "PostgreSQL: {} ({})",
            db.message(),
            db.code().code()
        )),
        None => StoreError::Unavailable(format!("PostgreSQL: {e}")),
    }
}

/// Claims in a PostgreSQL database.
pub struct PostgresStore {
    config: Config,
    tls: MakeTlsConnector,
    primary: Mutex<Option<Client>>,
    faults: Mutex<Faults>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password.
        f.debug_struct("PostgresStore")
            .field("hosts", &self.config.get_hosts())
            .field("ports", &self.config.get_ports())
            .field("dbname", &self.config.get_dbname())
            .field("user", &self.config.get_user())
            .finish_non_exhaustive()
    }
}

/// The URL's settings, completed from the environment where it says nothing.
fn settings(url: &str) -> Result<Config, StoreError> {
    let mut config = Config::from_str(url).map_err(|e| {
        StoreError::Unavailable(format!("`{}` is not a PostgreSQL URL: {e}", redact(url)))
    })?;
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if config.get_hosts().is_empty() {
        config.host(&env("PGHOST").unwrap_or_else(|| "localhost".into()));
    }
    if config.get_ports().is_empty()
        && let Some(port) = env("PGPORT")
    {
        let port = port
            .parse()
            .map_err(|_| unavailable(format!("PGPORT `{port}` is not a port")))?;
        config.port(port);
    }
    if config.get_user().is_none() {
        let user = env("PGUSER")
            .or_else(|| env("USER"))
            .or_else(|| env("LOGNAME"));
        config.user(user.as_deref().unwrap_or("postgres"));
    }
    if config.get_password().is_none()
        && let Some(p) = env("PGPASSWORD")
    {
        config.password(p);
    }
    if config.get_dbname().is_none()
        && let Some(db) = env("PGDATABASE")
    {
        config.dbname(&db);
    }
    if !url.contains("sslmode=")
        && let Some(mode) = env("PGSSLMODE")
    {
        config.ssl_mode(match mode.as_str() {
            "disable" => SslMode::Disable,
            "allow" | "prefer" => SslMode::Prefer,
            "require" | "verify-ca" | "verify-full" => SslMode::Require,
            other => {
                return Err(unavailable(format!(
                    "PGSSLMODE `{other}` is not an sslmode"
                )));
            }
        });
    }
    if config.get_connect_timeout().is_none() {
        let secs = match env("PGCONNECT_TIMEOUT") {
            Some(s) => s
                .parse()
                .map_err(|_| unavailable(format!("PGCONNECT_TIMEOUT `{s}` is not a number")))?,
            None => 5,
        };
        config.connect_timeout(Duration::from_secs(secs));
    }
    if config.get_application_name().is_none() {
        config.application_name(&env("PGAPPNAME").unwrap_or_else(|| "prp-store".into()));
    }
    Ok(config)
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

fn tls() -> Result<MakeTlsConnector, StoreError> {
    let mut builder = native_tls::TlsConnector::builder();
    if let Some(path) = std::env::var_os("PGSSLROOTCERT").filter(|p| !p.is_empty()) {
        let pem = std::fs::read(&path)
            .map_err(|e| unavailable(format!("PGSSLROOTCERT {}: {e}", path.to_string_lossy())))?;
        let cert = native_tls::Certificate::from_pem(&pem).map_err(unavailable)?;
        builder.add_root_certificate(cert);
    }
    Ok(MakeTlsConnector::new(builder.build().map_err(unavailable)?))
}

impl PostgresStore {
    /// Connects to the store at `url` (`postgres://…` or `postgresql://…`), creating or migrating
    /// its schema.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let store = PostgresStore {
            config: settings(url)?,
            tls: tls()?,
            primary: Mutex::new(None),
            faults: Mutex::new(Faults::default()),
        };
        let mut client = store.connect()?;
        migrate(&mut client)?;
        *store.slot() = Some(client);
        Ok(store)
    }

    /// Sets the failures to inject from now on.
    pub fn set_faults(&self, faults: Faults) {
        *self.faults.lock().unwrap_or_else(|p| p.into_inner()) = faults;
    }

    fn faults(&self) -> Faults {
        *self.faults.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Client>> {
        self.primary.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn connect(&self) -> Result<Client, StoreError> {
        self.config.connect(self.tls.clone()).map_err(|e| {
            let hosts: Vec<String> = self
                .config
                .get_hosts()
                .iter()
                .map(|h| format!("{h:?}"))
                .collect();
            StoreError::Unavailable(format!(
                "cannot connect to PostgreSQL at {} (port {:?}): {e}",
                hosts.join(", "),
                self.config.get_ports()
            ))
        })
    }

    /// Runs `op` on the primary connection, connecting first if there is none. When the connection
    /// turns out to be gone (a server restart, a dropped socket), it is replaced and `op` runs once
    /// more; `op` must be safe to repeat (each one here is).
    fn on_primary<T>(
        &self,
        op: impl Fn(&mut Client, bool) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut slot = self.slot();
        for retry in [false, true] {
            if slot.as_ref().is_none_or(Client::is_closed) {
                *slot = Some(self.connect()?);
            }
            let client = slot.as_mut().expect("connected above");
            match op(client, retry) {
                Ok(v) => return Ok(v),
                // The connection is gone: replace it and try once more.
                Err(e) if connection_lost(client, &e) && !retry => *slot = None,
                Err(e) => {
                    if connection_lost(client, &e) {
                        *slot = None;
                    }
                    return Err(db_error(e));
                }
            }
        }
        unreachable!("the loop returns on its second pass")
    }
}

/// Whether `e` means the connection is gone: closed, a connection exception (SQLSTATE class 08),
/// or the server terminating the session (`57P01`-`57P03`: an administrator, a crash, a restart).
fn connection_lost(client: &Client, e: &postgres::Error) -> bool {
    client.is_closed()
        || e.as_db_error().is_some_and(|db| {
            let code = db.code().code();
            code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
        })
}

fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction().map_err(db_error)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(db_error)?;
    // Created only when missing, so that a role without CREATE can use a migrated store.
    let exists: bool = tx
        .query_one(
            "SELECT to_regclass('prp_store_migrations') IS NOT NULL",
            &[],
        )
        .map_err(db_error)?
        .get(0);
    if !exists {
        tx.batch_execute(
            "CREATE TABLE prp_store_migrations (
                version INTEGER PRIMARY KEY,
                applied_at_ms BIGINT NOT NULL
            )",
        )
        .map_err(db_error)?;
    }
    let current: i32 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM prp_store_migrations",
            &[],
        )
        .map_err(db_error)?
        .get(0);
    let newest = MIGRATIONS.last().map_or(0, |m| m.0);
    if current > newest {
        return Err(StoreError::Unavailable(format!(
            "the store's schema is at version {current}; this build knows versions up to {newest}"
        )));
    }
    for (version, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        tx.batch_execute(sql).map_err(db_error)?;
        tx.execute(
            "INSERT INTO prp_store_migrations (version, applied_at_ms) VALUES ($1, $2)",
            &[version, &now_ms()],
        )
        .map_err(db_error)?;
    }
    tx.commit().map_err(db_error)
}

impl IdempotencyStore for PostgresStore {
    fn claim(&self, r: &ClaimRequest) -> Result<Claim, StoreError> {
        if self.faults().claim {
            return Err(StoreError::Injected("claim"));
        }
        let token = new_token(&r.scope);
        let row =
            self.on_primary(|c, _| {
                c.query_one(
                "INSERT INTO prp_claims (scope, operation_id, input_digest, token, claimed_at_ms)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (scope) DO UPDATE SET scope = prp_claims.scope
                 RETURNING token, operation_id, input_digest, outcome",
                &[&r.scope, &r.operation_id, &r.input_digest, &token.0, &now_ms()],
            )
            })?;
        let (stored_token, op, digest, outcome): (String, String, String, Option<String>) =
            (row.get(0), row.get(1), row.get(2), row.get(3));
        Ok(if stored_token == token.0 {
            Claim::Claimed(token)
        } else if op != r.operation_id || digest != r.input_digest {
            Claim::Conflict
        } else {
            match outcome {
                Some(text) => Claim::Duplicate(
                    serde_json::from_str(&text)
                        .map_err(|e| unavailable(format!("a stored outcome is not JSON: {e}")))?,
                ),
                None => Claim::InProgress,
            }
        })
    }

    fn complete(&self, token: &Token, outcome: &Value) -> Result<(), StoreError> {
        if self.faults().complete {
            return Err(StoreError::Injected("complete"));
        }
        let text = outcome.to_string();
        let stored: Option<Option<String>> = self.on_primary(|c, _| {
            let updated = c.execute(
                "UPDATE prp_claims SET outcome = $1, committed_at_ms = $2, committed_by = 'complete'
                 WHERE token = $3 AND outcome IS NULL",
                &[&text, &now_ms(), &token.0],
            )?;
            if updated == 1 {
                return Ok(Some(Some(text.clone())));
            }
            // Committed before (this call's first attempt, or `recover`): the same outcome is a
            // success, anything else an unknown token.
            let row = c.query_opt(
                "SELECT outcome FROM prp_claims WHERE token = $1",
                &[&token.0],
            )?;
            Ok(row.map(|r| r.get(0)))
        })?;
        match stored {
            Some(Some(existing)) if existing == text => Ok(()),
            _ => Err(StoreError::UnknownToken),
        }
    }

    fn recover(&self, token: &Token, outcome: &Value) -> Result<(), StoreError> {
        if self.faults().recover {
            return Err(StoreError::Injected("recover"));
        }
        // An independent path: a connection of its own and a statement of its own.
        let mut client = self.connect()?;
        let text = outcome.to_string();
        let row = client
            .query_opt(
                "UPDATE prp_claims
                 SET outcome = COALESCE(outcome, $1),
                     committed_at_ms = COALESCE(committed_at_ms, $2),
                     committed_by = COALESCE(committed_by, 'recover')
                 WHERE token = $3
                 RETURNING outcome",
                &[&text, &now_ms(), &token.0],
            )
            .map_err(db_error)?;
        match row.map(|r| r.get::<_, Option<String>>(0)) {
            Some(Some(stored)) if stored == text => Ok(()),
            _ => Err(StoreError::UnknownToken),
        }
    }

    fn release(&self, token: &Token) -> Result<(), StoreError> {
        if self.faults().release {
            return Err(StoreError::Injected("release"));
        }
        let deleted = self.on_primary(|c, retry| {
            let n = c.execute(
                "DELETE FROM prp_claims WHERE token = $1 AND outcome IS NULL",
                &[&token.0],
            )?;
            // A retry after a lost answer finds nothing left to delete: the first attempt did it,
            // unless the token is still there with an outcome.
            if n == 0 && retry {
                let left = c.query_opt("SELECT 1 FROM prp_claims WHERE token = $1", &[&token.0])?;
                return Ok(u64::from(left.is_none()));
            }
            Ok(n)
        })?;
        if deleted == 0 {
            return Err(StoreError::UnknownToken);
        }
        Ok(())
    }
}

impl Operator for PostgresStore {
    fn in_progress(&self) -> Result<Vec<PendingClaim>, StoreError> {
        let rows = self.on_primary(|c, _| {
            c.query(
                "SELECT scope, operation_id, input_digest, claimed_at_ms FROM prp_claims
                 WHERE outcome IS NULL ORDER BY claimed_at_ms, scope",
                &[],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| PendingClaim {
                scope: r.get(0),
                operation_id: r.get(1),
                input_digest: r.get(2),
                claimed_at_ms: r.get(3),
            })
            .collect())
    }

    fn commit_scope(&self, scope: &str, outcome: &Value) -> Result<(), StoreError> {
        let text = outcome.to_string();
        let n = self.on_primary(|c, _| {
            c.execute(
                "UPDATE prp_claims SET outcome = $1, committed_at_ms = $2, committed_by = 'operator'
                 WHERE scope = $3 AND outcome IS NULL",
                &[&text, &now_ms(), &scope],
            )
        })?;
        if n == 0 {
            return Err(StoreError::NoClaimInProgress(scope.to_owned()));
        }
        Ok(())
    }

    fn release_scope(&self, scope: &str) -> Result<(), StoreError> {
        let n = self.on_primary(|c, _| {
            c.execute(
                "DELETE FROM prp_claims WHERE scope = $1 AND outcome IS NULL",
                &[&scope],
            )
        })?;
        if n == 0 {
            return Err(StoreError::NoClaimInProgress(scope.to_owned()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            redact("postgres://app:s3cret@db.internal:5432/prp"),
            "postgres://app:***@db.internal:5432/prp"
        );
        assert_eq!(redact("postgres://db/prp"), "postgres://db/prp");
        let e = settings("postgres://app:s3cret@db:notaport/prp").unwrap_err();
        assert!(!e.to_string().contains("s3cret"), "{e}");
    }
}
