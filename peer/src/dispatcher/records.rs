//! Authorization records (§4.10): a bounded FIFO of the decisions a dispatcher took.

use super::{Decision, RunContext};
use std::collections::VecDeque;

/// One `paperclip.semantic-authorization-record.v1` record.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationRecord {
    /// `paperclip.semantic-authorization-record.v1`.
    pub schema: &'static str,
    /// `semantic_auth:` and an eight-digit sequence number.
    pub id: String,
    /// The run.
    pub run_id: String,
    /// The company.
    pub company_id: String,
    /// The actor.
    pub actor_id: String,
    /// The task.
    pub task_id: String,
    /// The call, for invocation records.
    pub call_id: Option<String>,
    /// Whether it was allowed.
    pub allowed: bool,
    /// `exposure` or `invocation`.
    pub phase: &'static str,
    /// The operation.
    pub operation_id: &'static str,
    /// The decision code.
    pub code: &'static str,
    /// The decision's sentence.
    pub reason: String,
    /// The effective claims.
    pub effective_claims: Vec<String>,
    /// The input's digest, on invocation records.
    pub input_digest: Option<String>,
    /// The operation receipt id, on invocation records.
    pub operation_receipt_id: Option<String>,
}

/// The records, oldest first, at most `capacity` of them; the sequence keeps counting past
/// evictions.
#[derive(Debug, Clone)]
pub struct AuthorizationRecords {
    ring: VecDeque<AuthorizationRecord>,
    capacity: usize,
    next: u64,
}

impl AuthorizationRecords {
    /// Room for `max` records: clamp(floor(max, default 1000), 1, 10000).
    pub fn new(max: Option<f64>) -> Self {
        let capacity = max
            .filter(|m| m.is_finite())
            .map_or(1000.0, f64::floor)
            .clamp(1.0, 10_000.0) as usize;
        AuthorizationRecords {
            ring: VecDeque::with_capacity(capacity.min(1024)),
            capacity,
            next: 1,
        }
    }

    /// Appends the record of `decision` (a decision on a malformed context is not recorded).
    pub fn push(
        &mut self,
        decision: &Decision,
        ctx: &RunContext,
        call_id: Option<&str>,
        input_digest: Option<String>,
        operation_receipt_id: Option<String>,
    ) {
        if decision.code == super::DecisionCode::AuthorityContextInvalid {
            return;
        }
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(AuthorizationRecord {
            schema: "paperclip.semantic-authorization-record.v1",
            id: format!("semantic_auth:{:08}", self.next),
            run_id: ctx.run_id.clone(),
            company_id: ctx.company_id.clone(),
            actor_id: ctx.actor.id.clone(),
            task_id: ctx.active_task.id.clone(),
            call_id: call_id.map(str::to_owned),
            allowed: decision.allowed,
            phase: decision.phase.as_str(),
            operation_id: decision.operation_id,
            code: decision.code.as_str(),
            reason: decision.reason.clone(),
            effective_claims: decision.effective_claims.clone(),
            input_digest,
            operation_receipt_id,
        });
        self.next += 1;
    }

    /// A copy of the records, oldest first.
    pub fn snapshot(&self) -> Vec<AuthorizationRecord> {
        self.ring.iter().cloned().collect()
    }
}
