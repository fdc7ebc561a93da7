//! The in-memory store: the contract of §4.5 in a map, with injectable failures.

use super::{
    Claim, ClaimRequest, Faults, IdempotencyStore, Operator, PendingClaim, StoreError, Token,
    now_ms,
};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Debug)]
struct Entry {
    operation_id: String,
    input_digest: String,
    token: Token,
    claimed_at_ms: i64,
    outcome: Option<Value>,
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<String, Entry>,
    /// The scope of each token issued and not released.
    scopes: HashMap<Token, String>,
    issued: u64,
    faults: Faults,
}

/// Claims kept in memory; gone with the process. Tokens are `claim:N`.
#[derive(Debug, Default)]
pub struct MemoryStore {
    state: Mutex<State>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the failures to inject from now on.
    pub fn set_faults(&self, faults: Faults) {
        self.lock().faults = faults;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock leaves the map consistent (every change is one insert
        // or remove), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn commit(
        &self,
        token: &Token,
        outcome: &Value,
        fault: bool,
        name: &'static str,
    ) -> Result<(), StoreError> {
        let mut s = self.lock();
        if fault {
            return Err(StoreError::Injected(name));
        }
        let scope = s
            .scopes
            .get(token)
            .cloned()
            .ok_or(StoreError::UnknownToken)?;
        let entry = s.entries.get_mut(&scope).ok_or(StoreError::UnknownToken)?;
        match &entry.outcome {
            None => {
                entry.outcome = Some(outcome.clone());
                Ok(())
            }
            Some(stored) if stored == outcome => Ok(()),
            Some(_) => Err(StoreError::UnknownToken),
        }
    }
}

impl IdempotencyStore for MemoryStore {
    fn claim(&self, r: &ClaimRequest) -> Result<Claim, StoreError> {
        let mut s = self.lock();
        if s.faults.claim {
            return Err(StoreError::Injected("claim"));
        }
        if let Some(e) = s.entries.get(&r.scope) {
            if e.operation_id != r.operation_id || e.input_digest != r.input_digest {
                return Ok(Claim::Conflict);
            }
            return Ok(match &e.outcome {
                Some(outcome) => Claim::Duplicate(outcome.clone()),
                None => Claim::InProgress,
            });
        }
        s.issued += 1;
        let token = Token(format!("claim:{}", s.issued));
        s.scopes.insert(token.clone(), r.scope.clone());
        s.entries.insert(
            r.scope.clone(),
            Entry {
                operation_id: r.operation_id.clone(),
                input_digest: r.input_digest.clone(),
                token: token.clone(),
                claimed_at_ms: now_ms(),
                outcome: None,
            },
        );
        Ok(Claim::Claimed(token))
    }

    fn complete(&self, token: &Token, outcome: &Value) -> Result<(), StoreError> {
        let fault = self.lock().faults.complete;
        self.commit(token, outcome, fault, "complete")
    }

    fn recover(&self, token: &Token, outcome: &Value) -> Result<(), StoreError> {
        let fault = self.lock().faults.recover;
        self.commit(token, outcome, fault, "recover")
    }

    fn release(&self, token: &Token) -> Result<(), StoreError> {
        let mut s = self.lock();
        if s.faults.release {
            return Err(StoreError::Injected("release"));
        }
        let scope = s
            .scopes
            .get(token)
            .cloned()
            .ok_or(StoreError::UnknownToken)?;
        if s.entries.get(&scope).is_none_or(|e| e.outcome.is_some()) {
            return Err(StoreError::UnknownToken);
        }
        s.entries.remove(&scope);
        s.scopes.remove(token);
        Ok(())
    }
}

impl Operator for MemoryStore {
    fn in_progress(&self) -> Result<Vec<PendingClaim>, StoreError> {
        let s = self.lock();
        let mut out: Vec<PendingClaim> = s
            .entries
            .iter()
            .filter(|(_, e)| e.outcome.is_none())
            .map(|(scope, e)| PendingClaim {
                scope: scope.clone(),
                operation_id: e.operation_id.clone(),
                input_digest: e.input_digest.clone(),
                claimed_at_ms: e.claimed_at_ms,
            })
            .collect();
        out.sort_by(|a, b| (a.claimed_at_ms, &a.scope).cmp(&(b.claimed_at_ms, &b.scope)));
        Ok(out)
    }

    fn commit_scope(&self, scope: &str, outcome: &Value) -> Result<(), StoreError> {
        let mut s = self.lock();
        match s.entries.get_mut(scope) {
            Some(e) if e.outcome.is_none() => {
                e.outcome = Some(outcome.clone());
                Ok(())
            }
            _ => Err(StoreError::NoClaimInProgress(scope.to_owned())),
        }
    }

    fn release_scope(&self, scope: &str) -> Result<(), StoreError> {
        let mut s = self.lock();
        match s.entries.get(scope) {
            Some(e) if e.outcome.is_none() => {
                let token = e.token.clone();
                s.entries.remove(scope);
                s.scopes.remove(&token);
                Ok(())
            }
            _ => Err(StoreError::NoClaimInProgress(scope.to_owned())),
        }
    }
}
