//! `dispatch(call)` (PROTOCOL §4.4): identity, lookup, context, authorization, inspection, the
//! idempotency key, the input contract, the claim, the authority re-check, the binding, the
//! output checks, the commit, and digest-only receipts for every outcome.
//!
//! Decision on the Open point of §4.4 (non-read operations whose closed input has no
//! `idempotencyKey`): the three governance reads (`list_approvals`, `get_approval`,
//! `get_approval_context`) change nothing, so they run without a key and without a claim;
//! `call_api`, a generic write, keeps the order of §4.4 and is refused (`idempotency_required`
//! without a key, `input_invalid` with one): a write that cannot be made at-most-once is not run.

mod steps;

use super::{Phase, RunContext, decide, is_stable_id};
use crate::catalog::{self, Declaration, Effect};
use crate::digest::{digest, inspect, redact};
use crate::store::{Claim, ClaimRequest, IdempotencyStore};
use crate::types::{
    SafeContent, SafeContentRedactionDisposition, SafeReference, SafeReferenceKind, SemanticTool,
    SemanticToolAuthorizationBoundary as Boundary, SemanticToolCorrelation,
    SemanticToolCurrentRevision, SemanticToolOutcome as Outcome, SemanticToolPhase,
};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use steps::Attempt;

/// The context provider: the run's current context, read anew on every call and again just
/// before a binding runs.
pub trait ContextProvider: Send + Sync {
    /// The current context of `run_id`, or why there is none.
    fn context(&self, run_id: &str) -> Result<RunContext, String>;
}

impl<F: Fn(&str) -> Result<RunContext, String> + Send + Sync> ContextProvider for F {
    fn context(&self, run_id: &str) -> Result<RunContext, String> {
        self(run_id)
    }
}

/// What a binding is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation<'a> {
    /// The run.
    pub run_id: &'a str,
    /// The company.
    pub company_id: &'a str,
    /// The actor.
    pub actor_id: &'a str,
    /// The task.
    pub task_id: &'a str,
    /// The call.
    pub call_id: &'a str,
    /// The operation.
    pub operation_id: &'a str,
    /// The checked input.
    pub input: &'a Value,
}

/// The code that carries out one operation. It returns an object with `value` (and optionally
/// `code`, `references`, `stateRevision`, `auditReceiptId`), or fails.
pub trait Binding: Send + Sync {
    /// Runs the operation.
    fn execute(&self, invocation: &Invocation<'_>) -> Result<Value, String>;
}

impl<F: Fn(&Invocation<'_>) -> Result<Value, String> + Send + Sync> Binding for F {
    fn execute(&self, invocation: &Invocation<'_>) -> Result<Value, String> {
        self(invocation)
    }
}

/// A call (§4.4).
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    /// The run.
    pub run_id: String,
    /// The call.
    pub call_id: String,
    /// The operation.
    pub operation_id: String,
    /// Where the call stands in the session.
    pub correlation: Correlation,
    /// The input.
    #[serde(default)]
    pub input: Value,
}

/// The correlation of a call.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Correlation {
    /// The run.
    pub run_id: String,
    /// The session.
    pub normalized_session_id: String,
    /// The turn.
    pub turn_id: String,
    /// The item.
    pub item_id: String,
    /// The runtime request, when the call answers one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// A denial's error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DispatchError {
    /// The code of §4.7.
    pub code: &'static str,
    /// Its fixed message.
    pub message: &'static str,
    /// Whether retrying later can succeed.
    pub retryable: bool,
}

/// What `dispatch` answers (§4.4 step 16, or a denial).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DispatchResult {
    /// Whether the action ran (or was replayed).
    pub ok: bool,
    /// The operation (`invalid` when the call's was not a stable id).
    pub operation_id: String,
    /// The call (`invalid` when the call's was not a stable id).
    pub call_id: String,
    /// The redacted value, on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// The binding's code, on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Whether the value is a stored one, on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<bool>,
    /// The state revision the binding reported, on success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_revision: Option<u64>,
    /// Why not, on a denial.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<DispatchError>,
    /// The input receipt (`null` when the call's identity is invalid).
    pub input_receipt: Option<SemanticTool>,
    /// The result receipt (`null` when the call's identity is invalid).
    pub result_receipt: Option<SemanticTool>,
}

/// Why a dispatcher could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConstructionError {
    /// Two bindings for one operation.
    #[error("duplicate semantic action binding: {0}")]
    DuplicateBinding(String),
    /// A binding for an operation the catalog does not have.
    #[error("unknown semantic action binding: {0}")]
    UnknownBinding(String),
}

/// The run-scoped dispatcher.
pub struct Dispatcher {
    pub(super) provider: Box<dyn ContextProvider>,
    pub(super) bindings: HashMap<&'static str, Box<dyn Binding>>,
    store: Option<Arc<dyn IdempotencyStore>>,
    pub(super) records: Mutex<super::AuthorizationRecords>,
}

impl std::fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut bound: Vec<&str> = self.bindings.keys().copied().collect();
        bound.sort_unstable();
        f.debug_struct("Dispatcher")
            .field("bindings", &bound)
            .finish_non_exhaustive()
    }
}

/// The fixed message, retryability, outcome and boundary of a code (§4.7).
pub fn message(code: &str) -> &'static str {
    match code {
        "operation_absent" => "The requested semantic action is not available.",
        "idempotency_in_progress" => "The original mutation is still in progress.",
        "binding_failed" => "The semantic action could not complete safely.",
        _ => "The requested semantic action was not executed.",
    }
}

/// Whether retrying a denial with this code can succeed.
pub fn retryable(code: &str) -> bool {
    matches!(code, "idempotency_in_progress" | "binding_failed")
}

/// The outcome of a code that is not a success.
pub fn outcome(code: &str) -> Outcome {
    if code.contains("conflict") {
        Outcome::Conflict
    } else if code == "operation_absent" {
        Outcome::Unavailable
    } else if code.contains("binding") || code.contains("recovery") {
        Outcome::Failed
    } else {
        Outcome::Denied
    }
}

/// The authorization boundary of a code (substring rules, first match wins).
pub fn boundary(code: &str) -> Boundary {
    let has = |w: &[&str]| w.iter().any(|x| code.contains(x));
    if has(&["company"]) {
        Boundary::Company
    } else if has(&["actor", "role"]) {
        Boundary::Actor
    } else if has(&["claim", "absent"]) {
        Boundary::Grant
    } else if has(&["idempotency", "revision", "receipt"]) {
        Boundary::Revision
    } else if has(&["ownership", "run_mismatch"]) {
        Boundary::Lock
    } else if has(&["interaction", "governance"]) {
        Boundary::GovernedAction
    } else {
        Boundary::ActiveTask
    }
}

/// `semantic_receipt:` and the first 32 hex characters of SHA-256 of
/// `runId:operationId:(idempotencyKey or callId)`.
pub fn operation_receipt_id(run_id: &str, operation_id: &str, key_or_call: &str) -> String {
    let hash = Sha256::digest(format!("{run_id}:{operation_id}:{key_or_call}").as_bytes());
    format!("semantic_receipt:{}", crate::digest::hex(&hash[..16]))
}

/// A stable code: the generated `StableCode` rule (`^[a-z][a-z0-9_.:-]*$`, 1 to 160 characters).
fn is_stable_code(s: &str) -> bool {
    crate::types::StableCode::try_from(s).is_ok()
}

/// The references of a binding: the first 200, safe kinds and stable ids only, first occurrence
/// of each `kind:id`, as `{kind, id}`.
fn references(raw: Option<&Value>) -> Vec<SafeReference> {
    let mut out: Vec<SafeReference> = Vec::new();
    for r in raw
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(200)
    {
        let (Some(kind), Some(id)) = (
            r.get("kind").and_then(Value::as_str),
            r.get("id").and_then(Value::as_str),
        ) else {
            continue;
        };
        let (Ok(kind), true) = (kind.parse::<SafeReferenceKind>(), is_stable_id(id)) else {
            continue;
        };
        if out.iter().any(|o| o.kind == kind && o.id == id) {
            continue;
        }
        if let Ok(reference) = SafeReference::builder().kind(kind).id(id).build() {
            out.push(reference);
        }
    }
    out
}

/// What a result receipt says beyond the input receipt's keys.
struct Settled<'a> {
    digest: String,
    redacted: bool,
    references: Vec<SafeReference>,
    outcome: Outcome,
    code: &'a str,
    retryable: bool,
    receipt_id: String,
    audit: Option<&'a str>,
    revision: Option<u64>,
    duplicate_of: Option<&'a str>,
}

impl Dispatcher {
    /// A dispatcher over `bindings`, reading contexts from `provider`; mutations need `store`.
    pub fn new(
        provider: impl ContextProvider + 'static,
        bindings: Vec<(String, Box<dyn Binding>)>,
        store: Option<Arc<dyn IdempotencyStore>>,
        max_authorization_records: Option<f64>,
    ) -> Result<Self, ConstructionError> {
        let mut map: HashMap<&'static str, Box<dyn Binding>> = HashMap::new();
        for (id, binding) in bindings {
            let declaration = catalog::lookup(&id)
                .ok_or_else(|| ConstructionError::UnknownBinding(id.clone()))?;
            if map.insert(declaration.operation_id, binding).is_some() {
                return Err(ConstructionError::DuplicateBinding(id));
            }
        }
        Ok(Dispatcher {
            provider: Box::new(provider),
            bindings: map,
            store,
            records: Mutex::new(super::AuthorizationRecords::new(max_authorization_records)),
        })
    }

    /// A copy of the authorization records, oldest first.
    pub fn authorization_records(&self) -> Vec<super::AuthorizationRecord> {
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .snapshot()
    }

    fn record(
        &self,
        d: &super::Decision,
        ctx: &RunContext,
        call: &str,
        digest: Option<String>,
        receipt: Option<String>,
    ) {
        self.records.lock().unwrap_or_else(|p| p.into_inner()).push(
            d,
            ctx,
            Some(call),
            digest,
            receipt,
        );
    }

    /// Runs one call through the sixteen steps of §4.4, each a function of the private `steps`.
    pub fn dispatch(&self, call: &Call) -> DispatchResult {
        if let Err(end) = steps::identity(call) {
            return *end;
        }
        let a = Attempt::new(call);
        // 2. Lookup.
        let (Some(action), Some(binding)) = (
            catalog::lookup(&call.operation_id),
            self.bindings.get(call.operation_id.as_str()),
        ) else {
            return self.deny(&a, "operation_absent");
        };
        // 3. Context.
        let Ok(ctx) = self.provider.context(&call.run_id) else {
            return self.deny(&a, "binding_failed");
        };
        let decision = decide(
            action,
            &ctx,
            Phase::Invocation,
            &call.run_id,
            Some(&call.input),
        );
        self.run(&a, action, binding.as_ref(), &ctx, &decision)
            .unwrap_or_else(|end| *end)
    }

    /// Steps 4 to 16, once the operation and its context are known.
    fn run(
        &self,
        a: &Attempt<'_>,
        action: &'static Declaration,
        binding: &dyn Binding,
        ctx: &RunContext,
        decision: &super::Decision,
    ) -> Result<DispatchResult, steps::End> {
        let mutation = self.admit(a, action, ctx, decision)?;
        let token = match mutation {
            true => Some(self.claim(a, action, ctx, decision)?),
            false => None,
        };
        let now = self.recheck(a, action, ctx, decision, token.as_ref())?;
        // 11. Execute; a failure keeps the claim: its effect is uncertain.
        let invocation = Invocation {
            run_id: &now.run_id,
            company_id: &now.company_id,
            actor_id: &now.actor.id,
            task_id: &now.active_task.id,
            call_id: &a.call.call_id,
            operation_id: action.operation_id,
            input: &a.call.input,
        };
        let Ok(executed) = binding.execute(&invocation) else {
            return Err(Box::new(self.refuse(a, ctx, decision, "binding_failed")));
        };
        let out = match Self::output(action, &executed) {
            Ok(out) => out,
            Err(redacted) => {
                let mut end = self.refuse(a, ctx, decision, "binding_output_invalid");
                if redacted && let Some(r) = &mut end.result_receipt {
                    r.content.redaction_disposition = SafeContentRedactionDisposition::Redacted;
                }
                return Err(Box::new(end));
            }
        };
        if let Some(t) = &token
            && !self.commit(a, t, &out)
        {
            return Err(Box::new(self.refuse(
                a,
                ctx,
                decision,
                "receipt_recovery_failed",
            )));
        }
        self.note(a, ctx, decision);
        Ok(self.succeed(a, out))
    }

    /// §4.8: answers a duplicate from the stored outcome, or refuses a stored outcome that does
    /// not hold.
    #[allow(clippy::too_many_arguments)]
    fn replay(
        &self,
        call: &Call,
        action: &'static Declaration,
        key: Option<&str>,
        input_digest: &str,
        input_redacted: bool,
        receipt_id: &str,
        stored: &Value,
    ) -> DispatchResult {
        let invalid = || {
            self.denial(
                call,
                key,
                input_digest,
                input_redacted,
                receipt_id,
                "binding_output_invalid",
            )
        };
        let s = |k: &str| stored.get(k).and_then(Value::as_str);
        let (Some(op), Some(digest_), Some(rid), Some(code), Some(value), Some(refs)) = (
            s("operationId"),
            s("inputDigest"),
            s("operationReceiptId"),
            s("code"),
            stored.get("value"),
            stored.get("references").and_then(Value::as_array),
        ) else {
            return invalid();
        };
        let revision = stored.get("stateRevision").map(Value::as_u64);
        if op != call.operation_id
            || digest_ != input_digest
            || !is_stable_id(rid)
            || !is_stable_code(code)
            || matches!(revision, Some(None))
        {
            return invalid();
        }
        let seen = inspect(value);
        let safe = redact(value);
        if !seen.within_bounds || !output_valid(action, &safe) {
            return invalid();
        }
        let refs = references(Some(&Value::Array(refs.clone())));
        let settled = Settled {
            digest: digest(&safe),
            redacted: seen.contains_protected_data,
            references: refs,
            outcome: Outcome::Duplicate,
            code,
            retryable: false,
            receipt_id: rid.to_owned(),
            audit: s("auditReceiptId").filter(|a| is_stable_id(a)),
            revision: revision.flatten(),
            duplicate_of: Some(rid),
        };
        DispatchResult {
            ok: true,
            operation_id: call.operation_id.clone(),
            call_id: call.call_id.clone(),
            value: Some(safe),
            code: Some(code.to_owned()),
            duplicate: Some(true),
            state_revision: revision.flatten(),
            error: None,
            input_receipt: input_receipt(call, key, input_digest, input_redacted),
            result_receipt: result_receipt(call, key, settled),
        }
    }

    fn denial(
        &self,
        call: &Call,
        key: Option<&str>,
        input_digest: &str,
        input_redacted: bool,
        receipt_id: &str,
        code: &'static str,
    ) -> DispatchResult {
        let code_str = code;
        let settled = Settled {
            digest: digest(&json!({"code": code_str})),
            redacted: code == "protected_data_denied",
            references: Vec::new(),
            outcome: outcome(code),
            code,
            retryable: retryable(code),
            receipt_id: receipt_id.to_owned(),
            audit: None,
            revision: None,
            duplicate_of: None,
        };
        DispatchResult {
            ok: false,
            operation_id: call.operation_id.clone(),
            call_id: call.call_id.clone(),
            value: None,
            code: None,
            duplicate: None,
            state_revision: None,
            error: Some(denial_error(code)),
            input_receipt: input_receipt(call, key, input_digest, input_redacted),
            result_receipt: result_receipt(call, key, settled),
        }
    }
}

fn denial_error(code: &'static str) -> DispatchError {
    DispatchError {
        code,
        message: message(code),
        retryable: retryable(code),
    }
}

/// Whether the output contract accepts the redacted value.
fn output_valid(action: &Declaration, safe: &Value) -> bool {
    match action.output {
        catalog::Output::Open => safe.is_object(),
        catalog::Output::Receipt => {
            crate::decode::decode::<catalog::inputs::Receipt>(safe.to_string().as_bytes()).is_ok()
        }
    }
}

fn correlation(call: &Call) -> Option<SemanticToolCorrelation> {
    let c = &call.correlation;
    let mut b = SemanticToolCorrelation::builder()
        .run_id(c.run_id.as_str())
        .normalized_session_id(c.normalized_session_id.as_str())
        .turn_id(c.turn_id.as_str())
        .item_id(c.item_id.as_str());
    if let Some(r) = &c.request_id {
        b = b.request_id(r.as_str());
    }
    b.build().ok()
}

fn content(digest: &str, redacted: bool, references: Vec<SafeReference>) -> Option<SafeContent> {
    SafeContent::builder()
        .digest(digest)
        .redaction_disposition(if redacted {
            SafeContentRedactionDisposition::Redacted
        } else {
            SafeContentRedactionDisposition::DigestOnly
        })
        .references(references)
        .build()
        .ok()
}

fn input_receipt(
    call: &Call,
    key: Option<&str>,
    digest: &str,
    redacted: bool,
) -> Option<SemanticTool> {
    let mut b = SemanticTool::builder()
        .phase(SemanticToolPhase::Input)
        .operation_id(call.operation_id.as_str())
        .call_id(call.call_id.as_str())
        .correlation(correlation(call)?)
        .content(content(digest, redacted, Vec::new())?);
    if let Some(k) = key.filter(|k| (1..=240).contains(&k.chars().count())) {
        b = b.idempotency_key(k);
    }
    b.build().ok()
}

fn result_receipt(call: &Call, key: Option<&str>, s: Settled<'_>) -> Option<SemanticTool> {
    let mut b = SemanticTool::builder()
        .phase(SemanticToolPhase::Result)
        .operation_id(call.operation_id.as_str())
        .call_id(call.call_id.as_str())
        .correlation(correlation(call)?)
        .content(content(&s.digest, s.redacted, s.references)?)
        .outcome(s.outcome)
        .code(s.code)
        .retryable(s.retryable)
        .authorization_boundary(boundary(s.code))
        .operation_receipt_id(s.receipt_id.as_str());
    if let Some(k) = key.filter(|k| (1..=240).contains(&k.chars().count())) {
        b = b.idempotency_key(k);
    }
    if let Some(a) = s.audit {
        b = b.audit_receipt_id(a);
    }
    if let Some(r) = s.revision {
        b = b.current_revision(SemanticToolCurrentRevision::Integer(r.into()));
    }
    if let Some(d) = s.duplicate_of {
        b = b.duplicate_of_receipt_id(d);
    }
    b.build().ok()
}
