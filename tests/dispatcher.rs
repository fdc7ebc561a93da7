//! The authorization decision (PROTOCOL §4.3), one test per check in its order, and the bounded
//! record of decisions (§4.10).

use prp_types::catalog::lookup;
use prp_types::dispatcher::{
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
