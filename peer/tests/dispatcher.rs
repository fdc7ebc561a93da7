//! The authorization decision (PROTOCOL §4.3), one test per check in its order, and the bounded
//! record of decisions (§4.10).

use prp_peer::catalog::lookup;
use prp_peer::dispatcher::{
    AuthorizationRecords, DecisionCode, Phase, RunContext, decide, effective_claims,
};
use serde_json::{Value, json};

fn context() -> Value {
    json!({
        "runId": "run-1",
        "companyId": "co-1",
        "actor": {"id": "agent-1", "companyId": "co-1", "status": "active", "role": "Engineer ",
                  "claims": ["workspace:read", "api:discover", "governance:approvals:decide"]},
        "activeTask": {"id": "task-1", "companyId": "co-1", "assigneeActorId": "agent-1",
                       "executionRunId": "run-1", "status": "in_progress", "workMode": "standard"},
        "delegatedClaims": ["workspace:read", "api:discover", "dependencies:write", "api:discover"],
        "policy": {"deniedOperationIds": ["search_tasks"], "allowedInteractionKinds": ["confirmation"]}
    })
}

fn ctx(v: &Value) -> RunContext {
    serde_json::from_value(v.clone()).unwrap()
}

fn code(op: &str, v: &Value, phase: Phase, input: Option<&Value>) -> DecisionCode {
    decide(lookup(op).unwrap(), &ctx(v), phase, "run-1", input).code
}

fn with(path: &[&str], value: Value) -> Value {
    let mut v = context();
    let mut at = &mut v;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at[path[path.len() - 1]] = value;
    v
}

#[test]
fn allowed_with_effective_claims_in_code_unit_order() {
    let d = decide(
        lookup("get_workspace_runtime").unwrap(),
        &ctx(&context()),
        Phase::Exposure,
        "run-1",
        None,
    );
    assert!(d.allowed);
    assert_eq!(d.code, DecisionCode::Allowed);
    // Delegated and held, distinct, sorted; `dependencies:write` is delegated but not held.
    assert_eq!(d.effective_claims, ["api:discover", "workspace:read"]);
    let mut v = context();
    v["actor"]["claims"] = json!(["b_x", "b:x", "B", "b1"]);
    v["delegatedClaims"] = json!(["b_x", "b:x", "B", "b1"]);
    assert_eq!(effective_claims(&ctx(&v)), ["B", "b1", "b:x", "b_x"]);
}

#[test]
fn check_1_a_malformed_context() {
    for v in [
        with(&["runId"], json!("")),
        with(&["companyId"], json!("-bad")),
        with(&["actor", "id"], json!("a b")),
        with(&["activeTask", "assigneeActorId"], json!("x".repeat(241))),
        with(&["actor", "role"], json!("")),
        with(&["delegatedClaims"], json!(vec!["c"; 1001])),
        with(&["policy", "deniedOperationIds"], json!([""])),
    ] {
        let d = decide(
            lookup("list_documents").unwrap(),
            &ctx(&v),
            Phase::Exposure,
            "run-1",
            None,
        );
        assert_eq!(d.code, DecisionCode::AuthorityContextInvalid, "{v}");
        assert!(d.effective_claims.is_empty());
    }
    // The requested run id is checked too.
    let d = decide(
        lookup("list_documents").unwrap(),
        &ctx(&context()),
        Phase::Exposure,
        "",
        None,
    );
    assert_eq!(d.code, DecisionCode::AuthorityContextInvalid);
}

#[test]
fn checks_3_to_6_run_company_actor_ownership() {
    let d = decide(
        lookup("list_documents").unwrap(),
        &ctx(&context()),
        Phase::Exposure,
        "run-2",
        None,
    );
    assert_eq!(d.code, DecisionCode::RunMismatch);
    assert_eq!(
        code(
            "list_documents",
            &with(&["actor", "companyId"], json!("co-2")),
            Phase::Exposure,
            None
        ),
        DecisionCode::CompanyMismatch
    );
    assert_eq!(
        code(
            "list_documents",
            &with(&["activeTask", "companyId"], json!("co-2")),
            Phase::Exposure,
            None
        ),
        DecisionCode::CompanyMismatch
    );
    assert_eq!(
        code(
            "list_documents",
            &with(&["actor", "status"], json!("suspended")),
            Phase::Exposure,
            None
        ),
        DecisionCode::ActorInactive
    );
    assert_eq!(
        code(
            "list_documents",
            &with(&["activeTask", "assigneeActorId"], json!("agent-2")),
            Phase::Exposure,
            None
        ),
        DecisionCode::TaskOwnershipDenied
    );
    assert_eq!(
        code(
            "list_documents",
            &with(&["activeTask", "executionRunId"], Value::Null),
            Phase::Exposure,
            None
        ),
        DecisionCode::TaskOwnershipDenied
    );
}

#[test]
fn checks_7_and_8_mode_and_task_state() {
    // finish_task is STANDARD only; reads stay allowed on a finished task, mutations do not.
    let ask = with(&["activeTask", "workMode"], json!("ask"));
    assert_eq!(
        code("finish_task", &ask, Phase::Exposure, None),
        DecisionCode::TaskModeDenied
    );
    assert_eq!(
        code("list_documents", &ask, Phase::Exposure, None),
        DecisionCode::Allowed
    );
    for status in ["done", "cancelled", "canceled"] {
        let v = with(&["activeTask", "status"], json!(status));
        assert_eq!(
            code("report_progress", &v, Phase::Exposure, None),
            DecisionCode::TaskStateDenied
        );
        assert_eq!(
            code("read_document", &v, Phase::Exposure, None),
            DecisionCode::Allowed
        );
    }
}

#[test]
fn checks_9_to_11_policy_role_claims() {
    let mut v = context();
    v["actor"]["claims"] = json!(["discovery:tasks:read"]);
    v["delegatedClaims"] = json!(["discovery:tasks:read"]);
    assert_eq!(
        code("search_tasks", &v, Phase::Exposure, None),
        DecisionCode::PolicyDenied
    );
    // decide_approval: roles board/approver/security, compared trimmed and lowercased.
    assert_eq!(
        code("decide_approval", &context(), Phase::Exposure, None),
        DecisionCode::ActorRoleDenied
    );
    let mut v = with(&["actor", "role"], json!("  Approver "));
    v["delegatedClaims"] = json!(["governance:approvals:decide"]);
    assert_eq!(
        code("decide_approval", &v, Phase::Exposure, None),
        DecisionCode::Allowed
    );
    // A required claim the actor holds but nobody delegated is missing.
    assert_eq!(
        code("list_agents", &context(), Phase::Exposure, None),
        DecisionCode::RequiredClaimMissing
    );
    let v = with(&["activeTask", "workMode"], json!("standard"));
    assert_eq!(
        code("set_dependencies", &v, Phase::Exposure, None),
        DecisionCode::RequiredClaimMissing,
        "delegated but not held"
    );
}

#[test]
fn check_12_interaction_kind_at_invocation_only() {
    let asks = json!({"interactionKind": "questions"});
    assert_eq!(
        code(
            "request_human_input",
            &context(),
            Phase::Invocation,
            Some(&asks)
        ),
        DecisionCode::InteractionKindDenied
    );
    assert_eq!(
        code(
            "request_human_input",
            &context(),
            Phase::Exposure,
            Some(&asks)
        ),
        DecisionCode::Allowed
    );
    let ok = json!({"interactionKind": "confirmation"});
    assert_eq!(
        code(
            "request_human_input",
            &context(),
            Phase::Invocation,
            Some(&ok)
        ),
        DecisionCode::Allowed
    );
    let mut no_policy = context();
    no_policy.as_object_mut().unwrap().remove("policy");
    assert_eq!(
        code(
            "request_human_input",
            &no_policy,
            Phase::Invocation,
            Some(&asks)
        ),
        DecisionCode::Allowed
    );
}

#[test]
fn the_first_failing_check_wins() {
    // Wrong company and inactive actor and wrong mode: the company check comes first.
    let mut v = with(&["actor", "companyId"], json!("co-2"));
    v["actor"]["status"] = json!("gone");
    v["activeTask"]["workMode"] = json!("ask");
    assert_eq!(
        code("finish_task", &v, Phase::Exposure, None),
        DecisionCode::CompanyMismatch
    );
}

#[test]
fn records_are_a_bounded_fifo_with_a_counting_sequence() {
    let c = ctx(&context());
    let mut records = AuthorizationRecords::new(Some(2.7));
    for op in ["list_documents", "read_document", "get_task_context"] {
        let d = decide(lookup(op).unwrap(), &c, Phase::Exposure, "run-1", None);
        records.push(&d, &c, None, None, None);
    }
    let bad = ctx(&with(&["runId"], json!("")));
    let d = decide(
        lookup("list_documents").unwrap(),
        &bad,
        Phase::Exposure,
        "run-1",
        None,
    );
    records.push(&d, &bad, None, None, None);
    let snap = records.snapshot();
    let ids: Vec<&str> = snap.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        ["semantic_auth:00000002", "semantic_auth:00000003"],
        "capacity floor(2.7) = 2"
    );
    assert_eq!(snap[1].operation_id, "get_task_context");
    let json = serde_json::to_value(&snap[0]).unwrap();
    assert_eq!(json["schema"], "paperclip.semantic-authorization-record.v1");
    assert_eq!(json["inputDigest"], Value::Null);
    // A capacity below 1 is 1.
    let mut one = AuthorizationRecords::new(Some(0.0));
    for op in ["list_documents", "read_document"] {
        let d = decide(lookup(op).unwrap(), &c, Phase::Exposure, "run-1", None);
        one.push(&d, &c, None, None, None);
    }
    let kept: Vec<String> = one.snapshot().into_iter().map(|r| r.id).collect();
    assert_eq!(kept, ["semantic_auth:00000002"]);
}

// ---- dispatch (§4.4) ---------------------------------------------------------------------------

mod dispatch {
    use super::context;
    use prp_peer::dispatcher::{Binding, Call, DispatchResult, Dispatcher, Invocation, RunContext};
    use prp_peer::store::{Faults, IdempotencyStore, MemoryStore};
    use prp_types::types::SemanticTool;
    use serde_json::{Value, json};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    /// A context with every claim the tests need, delegated and held.
    fn full_context() -> Value {
        let mut v = context();
        let claims = json!([
            "workspace:read",
            "api:discover",
            "api:call",
            "governance:approvals:read",
            "discovery:agents:read",
            "dependencies:write"
        ]);
        v["actor"]["claims"] = claims.clone();
        v["delegatedClaims"] = claims;
        v
    }

    /// A binding that counts its runs and answers `answer`.
    fn counting(answer: Result<Value, String>, runs: Arc<AtomicUsize>) -> Box<dyn Binding> {
        Box::new(move |_: &Invocation<'_>| {
            runs.fetch_add(1, Ordering::SeqCst);
            answer.clone()
        })
    }

    fn receipt_value(n: u64) -> Value {
        json!({"value": {"commandId": "cmd-1", "disposition": "applied", "stateRevision": n,
                         "entityRefs": ["task-1"], "scheduledWakeIds": []},
               "stateRevision": n, "references": [{"kind": "task", "id": "task-1"},
               {"kind": "task", "id": "task-1"}, {"kind": "nope", "id": "x"}]})
    }

    struct Harness {
        dispatcher: Dispatcher,
        runs: Arc<AtomicUsize>,
        store: Arc<MemoryStore>,
        ctx: Arc<Mutex<Vec<Value>>>,
    }

    /// A dispatcher whose context provider hands out the queued contexts in turn (the last one
    /// forever), with `op` bound to a counting binding answering `answer`.
    fn harness(op: &str, answer: Result<Value, String>, store: bool) -> Harness {
        let runs = Arc::new(AtomicUsize::new(0));
        let memory = Arc::new(MemoryStore::new());
        let ctx = Arc::new(Mutex::new(vec![full_context()]));
        let queue = ctx.clone();
        let provider = move |_: &str| -> Result<RunContext, String> {
            let mut q = queue.lock().unwrap();
            let v = if q.len() > 1 {
                q.remove(0)
            } else {
                q[0].clone()
            };
            if v.is_null() {
                return Err("no context".into());
            }
            serde_json::from_value(v).map_err(|e| e.to_string())
        };
        let bound = ["get_task_context", "list_approvals", "call_api"]
            .into_iter()
            .filter(|b| *b != op)
            .map(|b| {
                (
                    b.to_owned(),
                    counting(Ok(json!({"value": {}})), Arc::new(AtomicUsize::new(0))),
                )
            });
        let mut bindings: Vec<(String, Box<dyn Binding>)> = bound.collect();
        bindings.push((op.to_owned(), counting(answer, runs.clone())));
        let store_arg: Option<Arc<dyn IdempotencyStore>> =
            store.then(|| memory.clone() as Arc<dyn IdempotencyStore>);
        Harness {
            dispatcher: Dispatcher::new(provider, bindings, store_arg, None).unwrap(),
            runs,
            store: memory,
            ctx,
        }
    }

    fn call(op: &str, input: Value) -> Call {
        serde_json::from_value(json!({
            "runId": "run-1", "callId": "call-1", "operationId": op,
            "correlation": {"runId": "run-1", "normalizedSessionId": "sess-1", "turnId": "turn-1",
                            "itemId": "item-1"},
            "input": input
        }))
        .unwrap()
    }

    /// The denial code, after checking that both receipts are valid documents.
    fn code(r: &DispatchResult) -> &str {
        for receipt in [&r.input_receipt, &r.result_receipt].into_iter().flatten() {
            let bytes = prp_types::encode(receipt).expect("a receipt validates");
            let back: SemanticTool = prp_types::decode(&bytes).expect("a receipt decodes");
            assert_eq!(&back, receipt);
            let text = String::from_utf8(bytes).unwrap();
            assert!(
                !text.contains("secret-body"),
                "raw content in a receipt: {text}"
            );
        }
        match &r.error {
            Some(e) => e.code,
            None => "ok",
        }
    }

    fn progress(key: &str, body: &str) -> Value {
        json!({"idempotencyKey": key, "body": body})
    }

    #[test]
    fn a_read_succeeds_with_digest_only_receipts() {
        let h = harness(
            "get_task_context",
            Ok(json!({"value": {"title": "secret-body"}})),
            true,
        );
        let r = h.dispatcher.dispatch(&call("get_task_context", json!({})));
        assert_eq!(code(&r), "ok");
        assert!(r.ok && r.duplicate == Some(false));
        assert_eq!(r.value, Some(json!({"title": "secret-body"})));
        let result = r.result_receipt.as_ref().unwrap();
        assert_eq!(result.outcome.map(|o| o.as_str()), Some("succeeded"));
        assert_eq!(
            result.content.digest.as_str(),
            prp_peer::digest::digest(&json!({"title": "secret-body"}))
        );
        assert_eq!(h.runs.load(Ordering::SeqCst), 1);
        assert_eq!(h.dispatcher.authorization_records().len(), 1);
    }

    #[test]
    fn a_mutation_runs_once_and_a_repeat_is_a_duplicate() {
        let h = harness("report_progress", Ok(receipt_value(4)), true);
        let first = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k1", "secret-body")));
        assert_eq!(code(&first), "ok");
        assert_eq!(first.state_revision, Some(4));
        let refs = &first.result_receipt.as_ref().unwrap().content.references;
        assert_eq!(refs.len(), 1, "deduplicated, unsafe kinds dropped");
        let again = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k1", "secret-body")));
        assert_eq!(code(&again), "ok");
        assert_eq!(again.duplicate, Some(true));
        assert_eq!(again.value, first.value);
        let rr = again.result_receipt.as_ref().unwrap();
        assert_eq!(rr.outcome.map(|o| o.as_str()), Some("duplicate"));
        assert_eq!(rr.duplicate_of_receipt_id, rr.operation_receipt_id);
        assert_eq!(h.runs.load(Ordering::SeqCst), 1, "no mutation runs twice");
        // The same key with another input is a conflict.
        let other = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k1", "other")));
        assert_eq!(code(&other), "idempotency_conflict");
        assert_eq!(
            other.result_receipt.unwrap().outcome.map(|o| o.as_str()),
            Some("conflict")
        );
    }

    #[test]
    fn a_failed_binding_keeps_its_claim() {
        let h = harness("report_progress", Err("boom".into()), true);
        let r = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k1", "b")));
        assert_eq!(code(&r), "binding_failed");
        assert!(r.error.as_ref().unwrap().retryable);
        let r = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k1", "b")));
        assert_eq!(code(&r), "idempotency_in_progress");
        assert!(r.error.unwrap().retryable);
        assert_eq!(h.runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn store_failures() {
        // No store at all.
        let h = harness("report_progress", Ok(receipt_value(1)), false);
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k", "b")))
            ),
            "receipt_store_unavailable"
        );
        // The claim fails.
        let h = harness("report_progress", Ok(receipt_value(1)), true);
        h.store.set_faults(Faults {
            claim: true,
            ..Faults::default()
        });
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k", "b")))
            ),
            "receipt_store_unavailable"
        );
        assert_eq!(h.runs.load(Ordering::SeqCst), 0);
        // The primary commit fails, the recovery commits: the next call is a duplicate.
        h.store.set_faults(Faults {
            complete: true,
            ..Faults::default()
        });
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k", "b")))
            ),
            "ok"
        );
        h.store.set_faults(Faults::default());
        let r = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k", "b")));
        assert_eq!((code(&r), r.duplicate), ("ok", Some(true)));
        // Both commits fail: recovery failed, the claim stays reserved.
        h.store.set_faults(Faults {
            complete: true,
            recover: true,
            ..Faults::default()
        });
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k2", "b")))
            ),
            "receipt_recovery_failed"
        );
        h.store.set_faults(Faults::default());
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k2", "b")))
            ),
            "idempotency_in_progress"
        );
        assert_eq!(h.runs.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn the_recheck_releases_the_claim() {
        let h = harness("report_progress", Ok(receipt_value(1)), true);
        let mut inactive = full_context();
        inactive["actor"]["status"] = json!("suspended");
        *h.ctx.lock().unwrap() = vec![full_context(), inactive, full_context()];
        let r = h
            .dispatcher
            .dispatch(&call("report_progress", progress("k", "b")));
        assert_eq!(code(&r), "actor_inactive");
        assert_eq!(h.runs.load(Ordering::SeqCst), 0);
        // Released: the next call runs it.
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k", "b")))
            ),
            "ok"
        );
        // The context cannot be re-read: released, binding_failed; a failing release wins.
        *h.ctx.lock().unwrap() = vec![full_context(), Value::Null, full_context()];
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k3", "b")))
            ),
            "binding_failed"
        );
        *h.ctx.lock().unwrap() = vec![full_context(), Value::Null, full_context()];
        h.store.set_faults(Faults {
            release: true,
            ..Faults::default()
        });
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("report_progress", progress("k4", "b")))
            ),
            "receipt_store_unavailable"
        );
    }

    #[test]
    fn output_checks() {
        for (answer, want) in [
            (json!({"nothing": 1}), "binding_output_invalid"),
            (json!({"value": {"x": 1}}), "binding_output_invalid"),
            (
                json!({"value": receipt_value(1)["value"], "code": "Not Stable"}),
                "binding_output_invalid",
            ),
            (
                json!({"value": receipt_value(1)["value"], "stateRevision": -1}),
                "binding_output_invalid",
            ),
            (
                json!({"value": receipt_value(1)["value"], "auditReceiptId": "a b"}),
                "binding_output_invalid",
            ),
            (
                json!({"value": receipt_value(1)["value"], "code": "noted", "auditReceiptId": "audit-1"}),
                "ok",
            ),
        ] {
            let h = harness("report_progress", Ok(answer.clone()), true);
            let r = h
                .dispatcher
                .dispatch(&call("report_progress", progress("k", "b")));
            assert_eq!(code(&r), want, "{answer}");
        }
    }

    #[test]
    fn input_denials() {
        let h = harness("report_progress", Ok(receipt_value(1)), true);
        let d =
            |input: Value| code(&h.dispatcher.dispatch(&call("report_progress", input))).to_owned();
        assert_eq!(d(json!({"body": "b"})), "idempotency_required");
        assert_eq!(d(json!({"idempotencyKey": "k"})), "input_invalid");
        assert_eq!(
            d(progress("k", "Bearer abcdefghijklmn")),
            "protected_data_denied"
        );
        let deep = (0..20).fold(json!(1), |v, _| json!([v]));
        assert_eq!(
            d(json!({"idempotencyKey": "k", "body": "b", "x": deep})),
            "input_invalid"
        );
        assert_eq!(h.runs.load(Ordering::SeqCst), 0);
        // An invalid identity: no receipts, ids echoed only when they are stable ids.
        let mut bad = call("report_progress", progress("k", "b"));
        bad.call_id = "not stable".into();
        let r = h.dispatcher.dispatch(&bad);
        assert_eq!(
            (
                r.error.unwrap().code,
                r.call_id.as_str(),
                r.operation_id.as_str()
            ),
            ("input_invalid", "invalid", "report_progress")
        );
        assert!(r.input_receipt.is_none() && r.result_receipt.is_none());
        let mut bad = call("report_progress", progress("k", "b"));
        bad.correlation.run_id = "run-2".into();
        assert!(h.dispatcher.dispatch(&bad).result_receipt.is_none());
    }

    #[test]
    fn absent_actions_and_authority_denials() {
        let h = harness("report_progress", Ok(receipt_value(1)), true);
        assert_eq!(
            code(&h.dispatcher.dispatch(&call("list_agents", json!({})))),
            "operation_absent"
        );
        assert_eq!(
            code(&h.dispatcher.dispatch(&call("run_shell", json!({})))),
            "operation_absent"
        );
        let mut other_run = call("get_task_context", json!({}));
        other_run.run_id = "run-2".into();
        other_run.correlation.run_id = "run-2".into();
        assert_eq!(code(&h.dispatcher.dispatch(&other_run)), "run_mismatch");
        *h.ctx.lock().unwrap() = vec![Value::Null];
        assert_eq!(
            code(&h.dispatcher.dispatch(&call("get_task_context", json!({})))),
            "binding_failed"
        );
    }

    #[test]
    fn every_decision_denial_reaches_the_caller() {
        // Each check of §4.3, through dispatch: the context as the provider gives it.
        let cases: Vec<(Value, &str, &str, Value)> = vec![
            (
                json!({"runId": ""}),
                "authority_context_invalid",
                "report_progress",
                progress("k", "b"),
            ),
            (
                json!({"companyId": "co-9"}),
                "company_mismatch",
                "report_progress",
                progress("k", "b"),
            ),
            (
                json!({"actor": {"status": "gone"}}),
                "actor_inactive",
                "report_progress",
                progress("k", "b"),
            ),
            (
                json!({"activeTask": {"assigneeActorId": "agent-9"}}),
                "task_ownership_denied",
                "report_progress",
                progress("k", "b"),
            ),
            (
                json!({"activeTask": {"workMode": "ask"}}),
                "task_mode_denied",
                "finish_task",
                json!({"idempotencyKey": "k", "summary": "s"}),
            ),
            (
                json!({"activeTask": {"status": "done"}}),
                "task_state_denied",
                "report_progress",
                progress("k", "b"),
            ),
            (
                json!({"policy": {"deniedOperationIds": ["report_progress"]}}),
                "policy_denied",
                "report_progress",
                progress("k", "b"),
            ),
            (
                json!({}),
                "actor_role_denied",
                "decide_approval",
                json!({"idempotencyKey": "k", "approvalId": "a", "decision": "approved", "note": "n"}),
            ),
            (
                json!({}),
                "required_claim_missing",
                "create_task",
                json!({"idempotencyKey": "k", "title": "t"}),
            ),
            (
                json!({}),
                "interaction_kind_denied",
                "request_human_input",
                json!({"idempotencyKey": "k", "interactionKind": "questions", "title": "t", "prompt": "p", "continuationPolicy": "none"}),
            ),
        ];
        for (patch, want, op, input) in cases {
            let h = harness(op, Ok(receipt_value(1)), true);
            let mut v = full_context();
            merge(&mut v, &patch);
            *h.ctx.lock().unwrap() = vec![v];
            let r = h.dispatcher.dispatch(&call(op, input));
            assert_eq!(code(&r), want, "{op} with {patch}");
            assert_eq!(h.runs.load(Ordering::SeqCst), 0);
            let records = h.dispatcher.authorization_records();
            // A malformed context is not recorded; every other denial is, once.
            let expected = usize::from(want != "authority_context_invalid");
            assert_eq!(records.len(), expected, "{want}");
        }
    }

    fn merge(into: &mut Value, patch: &Value) {
        if let (Some(a), Some(b)) = (into.as_object_mut(), patch.as_object()) {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(x) if x.is_object() && v.is_object() => merge(x, v),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
    }

    #[test]
    fn non_read_operations_without_a_declared_key() {
        // The governance reads run without a key and without a claim.
        let h = harness(
            "list_approvals",
            Ok(json!({"value": {"approvals": []}})),
            false,
        );
        assert_eq!(
            code(&h.dispatcher.dispatch(&call("list_approvals", json!({})))),
            "ok"
        );
        for op in ["get_approval", "get_approval_context"] {
            let h = harness(op, Ok(json!({"value": {"id": "ap-1"}})), false);
            let input = json!({"approvalId": "ap-1"});
            assert_eq!(code(&h.dispatcher.dispatch(&call(op, input))), "ok", "{op}");
            assert_eq!(h.runs.load(Ordering::SeqCst), 1);
        }
        // call_api, a write that cannot be made at-most-once, is refused either way.
        let h = harness("call_api", Ok(json!({"value": {}})), true);
        assert_eq!(
            code(
                &h.dispatcher
                    .dispatch(&call("call_api", json!({"operationId": "GET /x"})))
            ),
            "idempotency_required"
        );
        assert_eq!(
            code(&h.dispatcher.dispatch(&call(
                "call_api",
                json!({"operationId": "GET /x", "idempotencyKey": "k"})
            ))),
            "input_invalid"
        );
        assert_eq!(h.runs.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn construction_refuses_duplicate_and_unknown_bindings() {
        let provider = |_: &str| -> Result<RunContext, String> { Err("none".into()) };
        let b = || -> Box<dyn Binding> { Box::new(|_: &Invocation<'_>| Ok(json!({"value": {}}))) };
        let err = Dispatcher::new(
            provider,
            vec![("read_document".into(), b()), ("read_document".into(), b())],
            None,
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "duplicate semantic action binding: read_document"
        );
        let err =
            Dispatcher::new(provider, vec![("run_shell".into(), b())], None, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown semantic action binding: run_shell"
        );
    }
}

// ---- discovery (§4.9) --------------------------------------------------------------------------

mod discovery {
    use super::context;
    use prp_peer::dispatcher::{
        Binding, DiscoveryRequest, Dispatcher, Invocation, RunContext, namespace,
    };
    use serde_json::json;

    fn dispatcher(claims: &[&str]) -> Dispatcher {
        let mut v = context();
        v["actor"]["claims"] = json!(claims);
        v["delegatedClaims"] = json!(claims);
        v["policy"] = json!({});
        let provider = move |_: &str| -> Result<RunContext, String> {
            serde_json::from_value(v.clone()).map_err(|e| e.to_string())
        };
        let bindings: Vec<(String, Box<dyn Binding>)> = prp_peer::catalog::catalog()
            .iter()
            .filter(|d| d.operation_id != "get_agent")
            .map(|d| {
                let b: Box<dyn Binding> = Box::new(|_: &Invocation<'_>| Ok(json!({"value": {}})));
                (d.operation_id.to_owned(), b)
            })
            .collect();
        Dispatcher::new(provider, bindings, None, None).unwrap()
    }

    fn names(v: &serde_json::Value) -> Vec<String> {
        v["operations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn the_namespace_table() {
        let table: Vec<(&str, &str)> = prp_peer::catalog::catalog()
            .iter()
            .map(|d| (d.operation_id, namespace(d.operation_id)))
            .collect();
        let of = |ns: &str| -> Vec<&str> {
            table
                .iter()
                .filter(|(_, n)| *n == ns)
                .map(|(id, _)| *id)
                .collect()
        };
        assert_eq!(of("api_fallback"), ["search_api", "call_api"]);
        assert_eq!(
            of("discovery"),
            ["list_agents", "get_agent", "search_tasks"]
        );
        assert_eq!(of("delegation"), ["set_dependencies", "create_task"]);
        assert_eq!(
            of("workspace"),
            ["get_workspace_runtime", "control_workspace_service"]
        );
        assert_eq!(
            of("documents"),
            [
                "list_documents",
                "read_document",
                "list_document_revisions",
                "write_document"
            ]
        );
        assert_eq!(of("continuation"), ["schedule_wake"]);
        assert_eq!(
            of("governance"),
            [
                "list_approvals",
                "get_approval",
                "get_approval_context",
                "request_approval",
                "decide_approval",
                "comment_on_approval"
            ]
        );
        assert_eq!(of("active_task").len(), 29 - 2 - 3 - 2 - 2 - 4 - 1 - 6);
    }

    #[test]
    fn always_available_tools_are_the_bound_authorized_always_actions() {
        let d = dispatcher(&[]);
        let tools = d.list_always_available_tools("run-1");
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert!(names.contains(&"get_task_context") && names.contains(&"finish_task"));
        assert!(
            !names.contains(&"search_api"),
            "optional actions are discovered, not listed"
        );
        assert_eq!(
            tools[0]["annotations"]["semanticContract"],
            "paperclip.semantic-action.v1"
        );
        // One exposure record per always action considered.
        let always = prp_peer::catalog::catalog()
            .iter()
            .filter(|d| d.placement == prp_peer::catalog::Placement::Always)
            .count();
        assert_eq!(d.authorization_records().len(), always);
    }

    #[test]
    fn discovery_scores_and_limits() {
        let d = dispatcher(&[
            "discovery:agents:read",
            "discovery:tasks:read",
            "governance:approvals:read",
        ]);
        let r = d
            .discover_tools(
                "run-1",
                &DiscoveryRequest {
                    query: "approval".into(),
                    namespace: None,
                    limit: None,
                },
            )
            .unwrap();
        assert_eq!(
            names(&r),
            ["get_approval", "get_approval_context", "list_approvals"]
        );
        assert_eq!(r["truncated"], false);
        // An exact id scores 100; get_agent is unbound, so absent.
        let r = d
            .discover_tools(
                "run-1",
                &DiscoveryRequest {
                    query: " List_Agents ".into(),
                    namespace: None,
                    limit: Some(1.9),
                },
            )
            .unwrap();
        assert_eq!(names(&r), ["list_agents"]);
        assert_eq!(r["query"], " List_Agents ");
        // A namespace filters; claims not held keep actions out.
        let r = d
            .discover_tools(
                "run-1",
                &DiscoveryRequest {
                    query: "discovery".into(),
                    namespace: Some("Discovery".into()),
                    limit: None,
                },
            )
            .unwrap();
        assert_eq!(names(&r), ["list_agents", "search_tasks"]);
        assert_eq!(r["namespace"], "discovery");
        let r = d
            .discover_tools(
                "run-1",
                &DiscoveryRequest {
                    query: "approval".into(),
                    namespace: None,
                    limit: Some(0.0),
                },
            )
            .unwrap();
        assert_eq!((names(&r).len(), r["truncated"].clone()), (1, json!(true)));
        let err = d
            .discover_tools(
                "run-1",
                &DiscoveryRequest {
                    query: "  ".into(),
                    namespace: None,
                    limit: None,
                },
            )
            .unwrap_err();
        assert_eq!(err.code, "semantic_discovery_query_invalid");
        let err = d
            .discover_tools(
                "run-1",
                &DiscoveryRequest {
                    query: "x".into(),
                    namespace: Some("9x".into()),
                    limit: None,
                },
            )
            .unwrap_err();
        assert_eq!(err.code, "semantic_discovery_namespace_invalid");
    }
}

/// Dispatcher output put into a replay fixture passes the contract pipeline's binding checks.
#[test]
fn a_fixture_built_from_dispatcher_receipts_passes_the_binding_checks() {
    use prp_peer::dispatcher::{Binding, Call, Dispatcher, Invocation};
    use prp_peer::store::MemoryStore;
    use std::sync::Arc;
    let path = prp_testkit::project_dir().join("fixtures/replay/semantic-tool-call.json");
    let mut fixture: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut v = context();
    v["runId"] = json!("run_rs_semantic");
    v["companyId"] = json!("company_rs_fixtures");
    v["actor"]["companyId"] = json!("company_rs_fixtures");
    v["activeTask"]["companyId"] = json!("company_rs_fixtures");
    v["activeTask"]["executionRunId"] = json!("run_rs_semantic");
    let c = ctx(&v);
    let read: Box<dyn Binding> =
        Box::new(|_: &Invocation<'_>| Ok(json!({"value": {"title": "t"}})));
    let write: Box<dyn Binding> = Box::new(|_: &Invocation<'_>| {
        Ok(
            json!({"value": {"commandId": "cmd-1", "disposition": "applied", "stateRevision": 2,
                            "entityRefs": ["task-1"], "scheduledWakeIds": []},
                  "references": [{"kind": "task", "id": "task-1"}]}),
        )
    });
    let d = Dispatcher::new(
        move |_: &str| Ok(c.clone()),
        vec![
            ("get_task_context".into(), read),
            ("report_progress".into(), write),
        ],
        Some(Arc::new(MemoryStore::new())),
        None,
    )
    .unwrap();
    let calls = [
        (
            2,
            "get_task_context",
            "call_rs_context_1",
            "item_rs_semantic_context",
            json!({}),
        ),
        (
            4,
            "report_progress",
            "call_rs_comment_1",
            "item_rs_semantic_comment",
            json!({"idempotencyKey": "comment_rs_semantic_once", "body": "Progress"}),
        ),
    ];
    for (at, op, call_id, item, input) in calls {
        let call: Call = serde_json::from_value(json!({
            "runId": "run_rs_semantic", "callId": call_id, "operationId": op,
            "correlation": {"runId": "run_rs_semantic", "normalizedSessionId": "session_rs_semantic",
                            "turnId": "turn_rs_semantic_1", "itemId": item},
            "input": input
        }))
        .unwrap();
        let r = d.dispatch(&call);
        assert!(r.ok, "{:?}", r.error);
        fixture["events"][at]["payload"]["semantic_tool"] =
            serde_json::to_value(r.input_receipt.unwrap()).unwrap();
        fixture["events"][at + 1]["payload"]["semantic_tool"] =
            serde_json::to_value(r.result_receipt.unwrap()).unwrap();
    }
    let outcome =
        prp_peer::contract::validate_fixture_bytes(&serde_json::to_vec(&fixture).unwrap());
    assert!(outcome.ok(), "{:#?}", outcome.issues);
    assert!(prp_peer::reducer::replay_fixture(&outcome.document.unwrap().typed).is_ok());
}
