//! The steps of `dispatch(call)` (PROTOCOL §4.4), a function each, in the order `dispatch` runs
//! them. A step that ends the call returns its result as the `Err` of its `Result`; every ending
//! after the identity check records the authorization decision in force before it answers.

use super::*;
use crate::digest::Inspection;
use crate::store::Token;

/// What the steps after the identity check know of the call: its idempotency key, operation
/// receipt id, input digest (step 8) and inspection (step 5), computed once.
pub(super) struct Attempt<'c> {
    pub(super) call: &'c Call,
    pub(super) key: Option<&'c str>,
    pub(super) receipt_id: String,
    pub(super) input_digest: String,
    pub(super) seen: Inspection,
}

/// The checked output of a binding (steps 12 to 14).
pub(super) struct Output {
    pub(super) safe: Value,
    pub(super) redacted: bool,
    pub(super) code: String,
    pub(super) revision: Option<u64>,
    pub(super) audit: Option<String>,
    pub(super) references: Vec<SafeReference>,
}

/// An ending: the result the call gets (boxed: a result is large, and endings are the rare path).
pub(super) type End = Box<DispatchResult>;

/// Step 1: identity: `correlation.runId == runId`, every id stable; else a denial with both receipts
/// `null` and the unstable ids echoed as `"invalid"`.
pub(super) fn identity(call: &Call) -> Result<(), End> {
    let c = &call.correlation;
    let ids_ok = c.run_id == call.run_id
        && [
            &call.run_id,
            &call.call_id,
            &call.operation_id,
            &c.normalized_session_id,
            &c.turn_id,
            &c.item_id,
        ]
        .iter()
        .all(|s| is_stable_id(s))
        && c.request_id.as_deref().is_none_or(is_stable_id);
    if ids_ok {
        return Ok(());
    }
    let echo = |s: &str| {
        if is_stable_id(s) {
            s.to_owned()
        } else {
            "invalid".to_owned()
        }
    };
    Err(Box::new(DispatchResult {
        ok: false,
        operation_id: echo(&call.operation_id),
        call_id: echo(&call.call_id),
        value: None,
        code: None,
        duplicate: None,
        state_revision: None,
        error: Some(denial_error("input_invalid")),
        input_receipt: None,
        result_receipt: None,
    }))
}

impl<'c> Attempt<'c> {
    pub(super) fn new(call: &'c Call) -> Self {
        let key = call.input.get("idempotencyKey").and_then(Value::as_str);
        Attempt {
            call,
            key,
            receipt_id: operation_receipt_id(
                &call.correlation.run_id,
                &call.operation_id,
                key.unwrap_or(&call.call_id),
            ),
            input_digest: digest(&call.input),
            seen: inspect(&call.input),
        }
    }
}

impl Dispatcher {
    /// A denial of the attempt with `code`, receipts built.
    pub(super) fn deny(&self, a: &Attempt<'_>, code: &'static str) -> DispatchResult {
        let redacted = a.seen.contains_protected_data;
        self.denial(
            a.call,
            a.key,
            &a.input_digest,
            redacted,
            &a.receipt_id,
            code,
        )
    }

    /// Records `decision` for the attempt, with its input digest and receipt id.
    pub(super) fn note(
        &self,
        a: &Attempt<'_>,
        ctx: &RunContext,
        decision: &super::super::Decision,
    ) {
        self.record(
            decision,
            ctx,
            &a.call.call_id,
            Some(a.input_digest.clone()),
            Some(a.receipt_id.clone()),
        );
    }

    /// Records `decision` for the attempt, then denies it with `code`.
    pub(super) fn refuse(
        &self,
        a: &Attempt<'_>,
        ctx: &RunContext,
        decision: &super::super::Decision,
        code: &'static str,
    ) -> DispatchResult {
        self.note(a, ctx, decision);
        self.deny(a, code)
    }

    /// Steps 4 to 7: authorization, inspection, the idempotency key (where the input declares one, or the
    /// operation writes: see the module's decision) and the input contract. `Ok(true)`: the call
    /// is a mutation, to be claimed.
    pub(super) fn admit(
        &self,
        a: &Attempt<'_>,
        action: &'static Declaration,
        ctx: &RunContext,
        decision: &super::super::Decision,
    ) -> Result<bool, End> {
        let deny = |code| Err(Box::new(self.refuse(a, ctx, decision, code)));
        if !decision.allowed {
            return deny(decision.code.as_str());
        }
        if !a.seen.within_bounds {
            return deny("input_invalid");
        }
        if a.seen.contains_protected_data {
            return deny("protected_data_denied");
        }
        let declares_key = action.input_schema["properties"]
            .get("idempotencyKey")
            .is_some();
        let mutation =
            action.effect != Effect::Read && (declares_key || action.effect == Effect::Write);
        if mutation && a.key.is_none() {
            return deny("idempotency_required");
        }
        if (action.check_input)(a.call.input.to_string().as_bytes()).is_err() {
            return deny("input_invalid");
        }
        Ok(mutation)
    }

    /// Step 9: the claim of a mutation's scope; a duplicate is answered from its stored outcome.
    pub(super) fn claim(
        &self,
        a: &Attempt<'_>,
        action: &'static Declaration,
        ctx: &RunContext,
        decision: &super::super::Decision,
    ) -> Result<Token, End> {
        let deny = |code| Box::new(self.refuse(a, ctx, decision, code));
        let Some(store) = &self.store else {
            return Err(deny("receipt_store_unavailable"));
        };
        let call = a.call;
        let request = ClaimRequest {
            scope: digest(&json!([
                ctx.company_id,
                ctx.run_id,
                call.operation_id,
                a.key
            ])),
            operation_id: call.operation_id.clone(),
            input_digest: a.input_digest.clone(),
        };
        match store.claim(&request) {
            Err(_) => Err(deny("receipt_store_unavailable")),
            Ok(Claim::Conflict) => Err(deny("idempotency_conflict")),
            Ok(Claim::InProgress) => Err(deny("idempotency_in_progress")),
            Ok(Claim::Duplicate(stored)) => {
                self.note(a, ctx, decision);
                let redacted = a.seen.contains_protected_data;
                let (digest, receipt) = (&a.input_digest, &a.receipt_id);
                Err(Box::new(self.replay(
                    call, action, a.key, digest, redacted, receipt, &stored,
                )))
            }
            Ok(Claim::Claimed(t)) => Ok(t),
        }
    }

    /// Step 10: the authority re-check just before the binding: the context read again and decided
    /// again; on either failure the claim is released (a failed release is
    /// `receipt_store_unavailable`). Returns the context the binding runs in.
    pub(super) fn recheck(
        &self,
        a: &Attempt<'_>,
        action: &'static Declaration,
        ctx: &RunContext,
        decision: &super::super::Decision,
        token: Option<&Token>,
    ) -> Result<RunContext, End> {
        let release = |code: &'static str| {
            if let (Some(store), Some(t)) = (&self.store, token)
                && store.release(t).is_err()
            {
                return Box::new(self.deny(a, "receipt_store_unavailable"));
            }
            Box::new(self.deny(a, code))
        };
        let call = a.call;
        let Ok(now) = self.provider.context(&call.run_id) else {
            self.note(a, ctx, decision);
            return Err(release("binding_failed"));
        };
        let again = decide(
            action,
            &now,
            Phase::Invocation,
            &call.run_id,
            Some(&call.input),
        );
        if !again.allowed {
            self.note(a, ctx, &again);
            return Err(release(again.code.as_str()));
        }
        Ok(now)
    }

    /// Steps 12 to 14: the binding's output: an object with `value`, within bounds, with a valid `code`,
    /// `stateRevision` and `auditReceiptId` where given, and a redacted value the output schema
    /// accepts. `Err`: invalid, and whether it holds protected data.
    pub(super) fn output(action: &Declaration, executed: &Value) -> Result<Output, bool> {
        let value = executed.get("value").ok_or(false)?;
        let out = inspect(value);
        let safe = redact(value);
        let code = executed
            .get("code")
            .map(|c| c.as_str().filter(|s| is_stable_code(s)));
        let revision = executed
            .get("stateRevision")
            .map(|r| r.as_u64().filter(|n| *n <= 9_007_199_254_740_991));
        let audit = executed
            .get("auditReceiptId")
            .map(|a| a.as_str().filter(|s| is_stable_id(s)));
        let valid = out.within_bounds
            && !matches!(code, Some(None))
            && !matches!(revision, Some(None))
            && !matches!(audit, Some(None))
            && output_valid(action, &safe);
        if !valid {
            return Err(out.contains_protected_data);
        }
        Ok(Output {
            safe,
            redacted: out.contains_protected_data,
            code: code.flatten().unwrap_or("ok").to_owned(),
            revision: revision.flatten(),
            audit: audit.flatten().map(str::to_owned),
            references: references(executed.get("references")),
        })
    }

    /// Step 15: the commit of a mutation's sanitised outcome: `complete`, else `recover`; when both
    /// fail the claim stays reserved for an operator.
    pub(super) fn commit(&self, a: &Attempt<'_>, token: &Token, out: &Output) -> bool {
        let Some(store) = &self.store else {
            return true;
        };
        let mut stored = json!({
            "operationId": a.call.operation_id, "inputDigest": a.input_digest,
            "operationReceiptId": a.receipt_id, "value": out.safe, "code": out.code,
            "references": out.references,
        });
        if let Some(r) = out.revision {
            stored["stateRevision"] = json!(r);
        }
        if let Some(id) = &out.audit {
            stored["auditReceiptId"] = json!(id);
        }
        store.complete(token, &stored).is_ok() || store.recover(token, &stored).is_ok()
    }

    /// Step 16: success, with both receipts.
    pub(super) fn succeed(&self, a: &Attempt<'_>, out: Output) -> DispatchResult {
        let call = a.call;
        let settled = Settled {
            digest: digest(&out.safe),
            redacted: out.redacted,
            references: out.references,
            outcome: Outcome::Succeeded,
            code: &out.code,
            retryable: false,
            receipt_id: a.receipt_id.clone(),
            audit: out.audit.as_deref(),
            revision: out.revision,
            duplicate_of: None,
        };
        let redacted = a.seen.contains_protected_data;
        DispatchResult {
            ok: true,
            operation_id: call.operation_id.clone(),
            call_id: call.call_id.clone(),
            value: Some(out.safe.clone()),
            code: Some(out.code.clone()),
            duplicate: Some(false),
            state_revision: out.revision,
            error: None,
            input_receipt: input_receipt(call, a.key, &a.input_digest, redacted),
            result_receipt: result_receipt(call, a.key, settled),
        }
    }
}
