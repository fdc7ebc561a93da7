//! The fixture contract pipeline (PROTOCOL §1.7, PROTOCOL-V3 §1): the reference replay fixtures,
//! the fail-closed rejections of §1.8 (v1/v2) and of the v3 corpus, every version check under 1..2
//! and under the default 1..3, every binding rule on mutated copies of reference fixtures, the
//! project's own binding cases, the live single-event path, and bad input.
//!
//! The v1/v2 corpus states what a v1/v2 consumer does, so its expectations are checked under an
//! explicit 1..2 (byte-identical to the texts before v3); the default range has its own cases.

use prp_testkit as support;

use prp_peer::contract::{self, Code, Contract, Issue};
use serde_json::{Value, json};
use std::path::PathBuf;
use support::corpus_dir;

fn replay_dir() -> Option<PathBuf> {
    Some(corpus_dir()?.join("protocol/fixtures/replay"))
}

fn reference(name: &str) -> Option<Value> {
    Some(support::read_json(&replay_dir()?.join(name)))
}

fn issue(code: Code, path: &str, message: &str) -> Issue {
    Issue::new(code, path, message)
}

fn binding(path: &str, message: &str) -> Issue {
    issue(Code::BindingMismatch, path, message)
}

fn version(path: &str, message: &str) -> Issue {
    issue(Code::UnsupportedRequiredVersion, path, message)
}

/// The pipeline of a v1/v2 consumer.
fn v1_2() -> Contract {
    "1..2".parse().unwrap()
}

/// The issues of a fixture given as a value under `contract` (serialised first, so the byte path
/// is exercised).
fn issues_under(contract: Contract, value: &Value) -> Vec<Issue> {
    let bytes = serde_json::to_vec_pretty(value).unwrap();
    let outcome = contract.validate_fixture_bytes(&bytes);
    assert_eq!(outcome.ok(), outcome.issues.is_empty());
    assert_eq!(contract.validate_fixture_value(value), outcome);
    outcome.issues
}

/// The issues of a fixture under the default range, which the free functions use too.
fn issues(value: &Value) -> Vec<Issue> {
    let found = issues_under(Contract::default(), value);
    let bytes = serde_json::to_vec(value).unwrap();
    assert_eq!(contract::validate_fixture_bytes(&bytes).issues, found);
    found
}

/// `(code, path)` of each issue as `prp validate` reports it (schema keywords grouped as
/// `schema_validation`): stage-2 messages are implementation-defined (§1.7).
fn codes_and_paths(issues: &[Issue]) -> Vec<(&'static str, &str)> {
    issues
        .iter()
        .map(|i| (i.code.report_name(), i.path()))
        .collect()
}

fn renumber(events: &mut Value) {
    for (i, e) in events.as_array_mut().unwrap().iter_mut().enumerate() {
        e["sourceSeq"] = json!(i + 1);
    }
}

// ---- reference replay fixtures: one test per file, named after it -------------------------------

/// Every replay fixture of the corpus with the expectation its manifest gives.
const REPLAY_FIXTURES: &[(&str, bool)] = &[
    ("budget-cost-stop-reason.json", true),
    ("duplicate-event.json", true),
    ("failed-run.json", true),
    ("happy-path.json", true),
    ("interrupted-run.json", true),
    ("semantic-tool-artifact-happy-path.json", true),
    ("semantic-tool-conflict-duplicate-retry.json", true),
    ("semantic-tool-denial-redaction.json", true),
    ("semantic-tool-governance-wake-monitor.json", true),
    ("semantic-tool-unknown-optional-envelope.json", true),
    ("semantic-tool-unsupported-required-version.json", false),
    ("source-gap.json", true),
    ("unknown-optional-fields.json", true),
    ("unsupported-required-version.json", false),
];

fn replay_fixture(name: &str) {
    let Some(dir) = replay_dir() else { return };
    let expected = REPLAY_FIXTURES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, ok)| *ok)
        .unwrap();
    let outcome = v1_2().validate_fixture_bytes(&std::fs::read(dir.join(name)).unwrap());
    assert_eq!(outcome.ok(), expected, "{name}: {:#?}", outcome.issues);
    if let Some(doc) = &outcome.document {
        assert_eq!(doc.value, support::read_json(&dir.join(name)));
    }
}

macro_rules! replay_tests {
    ($($test:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            replay_fixture($file);
        }
    )*};
}

replay_tests! {
    budget_cost_stop_reason => "budget-cost-stop-reason.json",
    duplicate_event => "duplicate-event.json",
    failed_run => "failed-run.json",
    happy_path => "happy-path.json",
    interrupted_run => "interrupted-run.json",
    semantic_tool_artifact_happy_path => "semantic-tool-artifact-happy-path.json",
    semantic_tool_conflict_duplicate_retry => "semantic-tool-conflict-duplicate-retry.json",
    semantic_tool_denial_redaction => "semantic-tool-denial-redaction.json",
    semantic_tool_governance_wake_monitor => "semantic-tool-governance-wake-monitor.json",
    semantic_tool_unknown_optional_envelope => "semantic-tool-unknown-optional-envelope.json",
    semantic_tool_unsupported_required_version => "semantic-tool-unsupported-required-version.json",
    source_gap => "source-gap.json",
    unknown_optional_fields => "unknown-optional-fields.json",
    unsupported_required_version => "unsupported-required-version.json",
}

#[test]
fn replay_fixture_list_matches_the_reference_manifest() {
    let Some(corpus) = corpus_dir() else { return };
    let manifest = support::read_json(&corpus.join("protocol/manifest.json"));
    let mut listed: Vec<(String, bool)> = manifest["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            let path = e["path"].as_str()?;
            let name = path.strip_prefix("fixtures/replay/")?;
            (!name.contains('/')).then(|| (name.to_owned(), e["expectation"] == "accept"))
        })
        .collect();
    listed.sort();
    let ours: Vec<(String, bool)> = REPLAY_FIXTURES
        .iter()
        .map(|(n, ok)| ((*n).to_owned(), *ok))
        .collect();
    assert_eq!(ours, listed);
}

// ---- §1.8: the two fail-closed rejections ---------------------------------------------------------

#[test]
fn unsupported_protocol_version_gives_exactly_one_issue() {
    let Some(fixture) = reference("unsupported-required-version.json") else {
        return;
    };
    assert_eq!(
        issues_under(v1_2(), &fixture),
        vec![version(
            "/protocolVersion",
            "protocolVersion 3 is unsupported; this implementation supports 1-2"
        )]
    );
}

#[test]
fn unsupported_semantic_tool_version_gives_exactly_one_issue() {
    let Some(fixture) = reference("semantic-tool-unsupported-required-version.json") else {
        return;
    };
    assert_eq!(
        issues_under(v1_2(), &fixture),
        vec![version(
            "/events/0/payload/semantic_tool/schemaVersion",
            "semantic_tool schemaVersion 2 is unsupported; this implementation requires 1"
        )]
    );
}

/// The v3 corpus' rejection: a fixture at protocolVersion 4 fails closed in a v3 consumer.
#[test]
fn protocol_version_4_fails_closed_under_the_default_range() {
    let Some(dir) = support::contract_dir() else {
        return;
    };
    let path =
        support::reference_fixture_dir(&dir).join("replay/unsupported-required-version.json");
    let fixture = support::read_json(&path);
    let message = "protocolVersion 4 is unsupported; this implementation supports 1-3";
    assert_eq!(issues(&fixture), vec![version("/protocolVersion", message)]);
    // The v1/v2 corpus' rejection (protocolVersion 3) is no longer one under 1..3: v3 is known,
    // so stage 1 passes it on.
    if let Some(v2) = reference("unsupported-required-version.json") {
        assert!(issues(&v2).iter().all(|i| i.path() != "/protocolVersion"));
    }
}

// ---- stage 1: version checks ------------------------------------------------------------------

#[test]
fn every_version_check_is_collected_in_order() {
    let Some(mut f) = reference("budget-cost-stop-reason.json") else {
        return;
    };
    f["fixtureVersion"] = json!(2);
    f["protocolVersion"] = json!(0.5);
    let events = f["events"].as_array_mut().unwrap();
    let terminal = events
        .iter()
        .position(|e| e["eventType"] == "run.terminal")
        .unwrap();
    events[terminal]["payload"]["stopReason"]["schemaVersion"] = json!(2);
    events[0]["schemaVersion"] = json!(3);
    events[0]["payload"]["semantic_tool"] = json!({"schemaVersion": 1e21});
    f["capabilities"]["semanticTools"] = json!({"schemaVersion": -0.0});
    assert_eq!(
        issues_under(v1_2(), &f),
        vec![
            version(
                "/fixtureVersion",
                "fixtureVersion 2 is unsupported; this implementation requires 1"
            ),
            version(
                "/protocolVersion",
                "protocolVersion 0.5 is unsupported; this implementation supports 1-2"
            ),
            version(
                "/events/0/schemaVersion",
                "event schemaVersion 3 is unsupported; this implementation supports 1-2"
            ),
            version(
                "/events/0/payload/semantic_tool/schemaVersion",
                "semantic_tool schemaVersion 1e+21 is unsupported; this implementation requires 1"
            ),
            version(
                &format!("/events/{terminal}/payload/stopReason/schemaVersion"),
                "stopReason schemaVersion 2 is unsupported; this implementation requires 1"
            ),
            version(
                "/capabilities/semanticTools/schemaVersion",
                "semanticTools schemaVersion 0 is unsupported; this implementation requires 1"
            ),
        ]
    );
}

#[test]
fn version_checks_ignore_non_numbers_and_leave_them_to_the_schema() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    f["protocolVersion"] = json!("3");
    assert_eq!(
        codes_and_paths(&issues(&f)),
        vec![("schema_validation", "/protocolVersion")]
    );
    // A number inside the supported range but not in the enum is the schema's to reject too.
    f["protocolVersion"] = json!(1.5);
    assert_eq!(
        codes_and_paths(&issues(&f)),
        vec![("schema_validation", "/protocolVersion")]
    );
}

/// The Open point of §1.7, decided: an event newer than the fixture's protocol fails closed.
#[test]
fn event_schema_version_must_not_exceed_protocol_version() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    // turn.started exists in v2 with the same empty payload.
    f["events"][2]["schema"] = json!("paperclip.prp.event.v2");
    f["events"][2]["schemaVersion"] = json!(2);
    assert_eq!(
        issues(&f),
        vec![version(
            "/events/2/schemaVersion",
            "event schemaVersion 2 exceeds the fixture's protocolVersion 1"
        )]
    );
    f["protocolVersion"] = json!(2);
    assert_eq!(issues(&f), vec![]);
}

/// A small protocolVersion 3 fixture: a v3 `turn.started` between v1 events, as a runner stamps
/// them (PROTOCOL-V3 §1: an unchanged event keeps its older version).
fn v3_fixture() -> Value {
    let event = |seq: u64, version: u64, event_type: &str, payload: Value| {
        json!({
            "schema": format!("paperclip.prp.event.v{version}"), "sourceEventId": format!("event_v3_{seq}"),
            "sourceSeq": seq, "sourceInstanceId": "runner_v3", "sourceKind": "runner", "runId": "run_v3",
            "normalizedSessionId": "session_v3", "turnId": "turn_v3", "eventType": event_type,
            "schemaVersion": version, "priority": 0,
            "emittedAt": format!("2026-08-07T13:00:00.0{seq}0Z"), "payload": payload,
        })
    };
    let result = json!({
        "schema": "paperclip.run_result.v1", "reportedWorkDisposition": "done", "summary": "Done at v3.",
        "completionClaim": {"contractRevision": "replay-contract-v3", "objectiveSatisfied": true,
            "criteria": [], "remainingWork": []},
        "evidence": [], "verification": [], "attentionRequests": [], "artifacts": [],
    });
    let terminal = json!({"schema": "paperclip.prp.terminal.v1", "turnTerminalState": "completed",
        "runTerminalState": "succeeded", "reportedWorkDisposition": "done"});
    json!({
        "schema": "paperclip.prp.fixture.v1", "fixtureVersion": 1, "protocolVersion": 3,
        "name": "v3 event", "description": "A protocolVersion 3 run with one v3 event.",
        "identity": {"schema": "paperclip.prp.identity.v1", "companyId": "company_v3", "issueId": "issue_v3",
            "runId": "run_v3", "environmentLeaseId": "lease_v3", "runnerInstanceId": "runner_v3",
            "normalizedSessionId": "session_v3", "driverSessionId": "driver_v3"},
        "capabilities": {"schema": "paperclip.prp.capabilities.v1", "sessionReusePolicy": "new_per_run",
            "driver": {"kind": "fake", "version": "3.0.0"}, "steer": true, "interrupt": true, "resume": true,
            "runtimeRequests": true, "structuredResult": true, "typedEvents": true},
        "commands": [{"schema": "paperclip.prp.command.v1", "commandId": "command_v3", "controllerSeq": 1,
            "type": "run.prepare", "issuedAt": "2026-08-07T13:00:00.000Z", "payload": {}}],
        "events": [
            event(1, 3, "turn.started", json!({})),
            event(2, 1, "run.result.proposed", result.clone()),
            event(3, 1, "run.terminal", terminal),
        ],
        "requests": [],
        "result": result,
    })
}

#[test]
fn a_v3_fixture_is_accepted_under_the_default_range() {
    let f = v3_fixture();
    assert_eq!(issues(&f), vec![]);
    let outcome = Contract::default().validate_fixture_value(&f);
    let fixture = outcome.document.unwrap().typed;
    assert!(matches!(
        fixture.events[0],
        prp_types::types::FixtureEvent::EventV3(_)
    ));
    // A v1/v2 consumer refuses it in stage 1, with the texts it always had.
    assert_eq!(
        issues_under(v1_2(), &f),
        vec![
            version(
                "/protocolVersion",
                "protocolVersion 3 is unsupported; this implementation supports 1-2"
            ),
            version(
                "/events/0/schemaVersion",
                "event schemaVersion 3 is unsupported; this implementation supports 1-2"
            ),
        ]
    );
}

#[test]
fn a_v3_event_must_not_exceed_the_fixture_protocol_version() {
    let mut f = v3_fixture();
    f["protocolVersion"] = json!(2);
    assert_eq!(
        issues(&f),
        vec![version(
            "/events/0/schemaVersion",
            "event schemaVersion 3 exceeds the fixture's protocolVersion 2"
        )]
    );
}

/// The decided Open point of PROTOCOL-V3 §1: `schema` names the envelope's `schemaVersion`.
#[test]
fn an_event_schema_must_name_its_schema_version() {
    let mut f = v3_fixture();
    f["events"][0]["schema"] = json!("paperclip.prp.event.v2");
    let mismatch = "event schema \"paperclip.prp.event.v2\" does not match its schemaVersion 3, which requires paperclip.prp.event.v3";
    assert_eq!(issues(&f), vec![version("/events/0/schema", mismatch)]);
    // Both rules at once: each at its own pointer, the version first.
    f["protocolVersion"] = json!(2);
    assert_eq!(
        issues(&f),
        vec![
            version(
                "/events/0/schemaVersion",
                "event schemaVersion 3 exceeds the fixture's protocolVersion 2"
            ),
            version("/events/0/schema", mismatch),
        ]
    );
    // A v1 fixture event marked v2 only in its `schema` is caught under 1..2 as well.
    let Some(mut g) = reference("happy-path.json") else {
        return;
    };
    g["events"][2]["schema"] = json!("paperclip.prp.event.v2");
    let expected = vec![version(
        "/events/2/schema",
        "event schema \"paperclip.prp.event.v2\" does not match its schemaVersion 1, which requires paperclip.prp.event.v1",
    )];
    assert_eq!(issues_under(v1_2(), &g), expected);
    assert_eq!(issues(&g), expected);
    // A `schema` that is not a string is the schema's to refuse.
    g["events"][2]["schema"] = json!(1);
    assert_eq!(codes_and_paths(&issues(&g))[0].0, "schema_validation");
}

/// Stage 1 words its refusals with the configured range, in the same order and at the same
/// pointers under 1..2 and 1..3.
#[test]
fn version_texts_follow_the_range() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    f["protocolVersion"] = json!(7);
    f["events"][0]["schemaVersion"] = json!(4);
    for (contract, supports) in [(v1_2(), "1-2"), (Contract::default(), "1-3")] {
        assert_eq!(
            issues_under(contract, &f),
            vec![
                version(
                    "/protocolVersion",
                    &format!(
                        "protocolVersion 7 is unsupported; this implementation supports {supports}"
                    )
                ),
                version(
                    "/events/0/schemaVersion",
                    &format!(
                        "event schemaVersion 4 is unsupported; this implementation supports {supports}"
                    )
                ),
            ]
        );
    }
    // A range that starts above 1 refuses the older protocol, yet still reads v1 events.
    let v2_3: Contract = "2..3".parse().unwrap();
    f["protocolVersion"] = json!(1);
    f["events"][0]["schemaVersion"] = json!(1);
    assert_eq!(
        issues_under(v2_3, &f),
        vec![version(
            "/protocolVersion",
            "protocolVersion 1 is unsupported; this implementation supports 2-3"
        )]
    );
}

#[test]
fn a_range_beyond_the_build_is_refused() {
    for text in ["1..4", "4", "3..9"] {
        let err = text.parse::<Contract>().unwrap_err();
        assert!(
            matches!(err, contract::RangeError::BeyondKnown { .. }),
            "{text}: {err:?}"
        );
        assert!(err.to_string().contains("newest this build knows"), "{err}");
    }
    assert!(matches!(
        "2..1".parse::<Contract>(),
        Err(contract::RangeError::Malformed(_))
    ));
    assert_eq!(Contract::default().protocol(), contract::known());
    assert_eq!(Contract::default().to_string(), "1..3");
    assert_eq!(contract::known().max(), contract::LATEST);
    assert_eq!("1..2".parse::<Contract>().unwrap().protocol().max(), 2);
}

// ---- stage 2: schema --------------------------------------------------------------------------

#[test]
fn schema_failures_carry_their_pointer() {
    let Some(f) = reference("happy-path.json") else {
        return;
    };
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|f| f["name"] = json!("")), "/name"),
        (
            Box::new(|f| {
                f.as_object_mut().unwrap().remove("result");
            }),
            "/",
        ),
        (
            Box::new(|f| f["events"][3]["emittedAt"] = json!("2026-08-07T12:00:00+00:00")),
            "/events/3/emittedAt",
        ),
        (Box::new(|f| f["events"] = json!([])), "/events"),
    ];
    for (edit, path) in cases {
        let mut g = f.clone();
        edit(&mut g);
        assert_eq!(
            codes_and_paths(&issues(&g)),
            vec![("schema_validation", path)]
        );
    }
    assert_eq!(
        codes_and_paths(&issues(&json!([1, 2]))),
        vec![("schema_validation", "/")]
    );
}

// ---- stage 3: one test per binding rule on mutated reference fixtures ----------------------------

#[test]
fn rule_1_event_run_id_matches_identity() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    f["events"][2]["runId"] = json!("run_elsewhere");
    assert_eq!(
        issues(&f),
        vec![binding(
            "/events/2/runId",
            "event runId must match identity.runId"
        )]
    );
}

#[test]
fn rule_2_event_session_matches_identity_when_present() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    f["events"][1]["normalizedSessionId"] = json!("session_elsewhere");
    assert_eq!(
        issues(&f),
        vec![binding(
            "/events/1/normalizedSessionId",
            "event normalizedSessionId must match identity.normalizedSessionId"
        )]
    );
    f["events"][1]
        .as_object_mut()
        .unwrap()
        .remove("normalizedSessionId");
    assert_eq!(issues(&f), vec![]);
}

#[test]
fn rule_3_repeated_deliveries_are_canonically_equal() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    // The same delivery with its keys in another order is the same event.
    let mut again = serde_json::Map::new();
    let original = f["events"][4].as_object().unwrap().clone();
    for (k, v) in original.iter().rev() {
        again.insert(k.clone(), v.clone());
    }
    f["events"]
        .as_array_mut()
        .unwrap()
        .push(Value::Object(again));
    assert_eq!(issues(&f), vec![]);
    // A repeated terminal delivery is not a second terminal.
    let terminal = f["events"][8].clone();
    f["events"].as_array_mut().unwrap().push(terminal);
    assert_eq!(issues(&f), vec![]);

    f["events"][9]["payload"]["text"] = json!("Different text.");
    // A differing repeat is flagged; rules 1–2 still run on every delivery, repeats included.
    f["events"][9]["runId"] = json!("run_elsewhere");
    assert_eq!(
        issues(&f),
        vec![
            binding("/events/9/runId", "event runId must match identity.runId"),
            binding(
                "/events/9/sourceEventId",
                "duplicate sourceEventId deliveries must be byte-equivalent"
            ),
        ]
    );
}

#[test]
fn rule_4_envelope_correlation_matches_its_event() {
    let Some(mut f) = reference("semantic-tool-artifact-happy-path.json") else {
        return;
    };
    f["events"][0].as_object_mut().unwrap().remove("itemId");
    assert_eq!(
        issues(&f),
        vec![binding(
            "/events/0/payload/semantic_tool/correlation/itemId",
            "semantic_tool correlation itemId must match the containing event"
        )]
    );
}

#[test]
fn rule_4_applies_to_any_event_carrying_an_envelope_object() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    // An item.delta payload is extensible: the envelope is not schema-checked but is still bound.
    f["events"][4]["payload"]["semantic_tool"] =
        json!({"correlation": {"runId": "run_replay_happy"}});
    assert_eq!(
        issues(&f),
        vec![
            binding(
                "/events/4/payload/semantic_tool/correlation/normalizedSessionId",
                "semantic_tool correlation normalizedSessionId must match the containing event"
            ),
            binding(
                "/events/4/payload/semantic_tool/correlation/turnId",
                "semantic_tool correlation turnId must match the containing event"
            ),
            binding(
                "/events/4/payload/semantic_tool/correlation/itemId",
                "semantic_tool correlation itemId must match the containing event"
            ),
        ]
    );
}

#[test]
fn rule_5_one_envelope_per_call_and_phase() {
    let Some(mut f) = reference("semantic-tool-artifact-happy-path.json") else {
        return;
    };
    let mut again = f["events"][0].clone();
    again["sourceEventId"] = json!("semantic_happy_01b");
    f["events"].as_array_mut().unwrap().insert(1, again);
    renumber(&mut f["events"]);
    assert_eq!(
        issues(&f),
        vec![binding(
            "/events/1/payload/semantic_tool/callId",
            "semantic_tool call call_semantic_happy must contain exactly one input envelope"
        )]
    );
}

#[test]
fn rule_6_a_call_has_one_input_and_one_outcome() {
    let Some(f) = reference("semantic-tool-artifact-happy-path.json") else {
        return;
    };
    let message = "semantic_tool call call_semantic_happy must contain one input and exactly one result or reconciled envelope";
    // Input only: the path is the input's.
    let mut g = f.clone();
    g["events"].as_array_mut().unwrap().remove(1);
    renumber(&mut g["events"]);
    assert_eq!(
        issues(&g),
        vec![binding("/events/0/payload/semantic_tool/callId", message)]
    );
    // Result only: the path is the result's.
    let mut g = f.clone();
    g["events"].as_array_mut().unwrap().remove(0);
    renumber(&mut g["events"]);
    assert_eq!(
        issues(&g),
        vec![binding("/events/0/payload/semantic_tool/callId", message)]
    );
    // Both a result and a reconciled envelope: the path is the input's.
    let mut g = f.clone();
    let mut reconciled = g["events"][1].clone();
    reconciled["sourceEventId"] = json!("semantic_happy_02b");
    reconciled["eventType"] = json!("semantic_tool.reconciled");
    reconciled["payload"]["semantic_tool"]["phase"] = json!("reconciled");
    g["events"].as_array_mut().unwrap().insert(2, reconciled);
    renumber(&mut g["events"]);
    assert_eq!(
        issues(&g),
        vec![binding("/events/0/payload/semantic_tool/callId", message)]
    );
}

#[test]
fn rule_7_a_result_answers_its_input() {
    let Some(f) = reference("semantic-tool-artifact-happy-path.json") else {
        return;
    };
    let mut g = f.clone();
    let envelope = &mut g["events"][1]["payload"]["semantic_tool"];
    envelope["operationId"] = json!("other_operation");
    envelope["idempotencyKey"] = Value::Null;
    envelope["correlation"]["requestId"] = json!("request_1");
    let base = "/events/1/payload/semantic_tool";
    assert_eq!(
        issues(&g),
        vec![
            binding(
                &format!("{base}/operationId"),
                "semantic_tool result operationId must match its input envelope"
            ),
            binding(
                &format!("{base}/idempotencyKey"),
                "semantic_tool result idempotencyKey must match its input envelope"
            ),
            binding(
                &format!("{base}/correlation"),
                "semantic_tool result correlation must match its input envelope"
            ),
        ]
    );
    // The correlation is compared in canonical JSON: key order does not matter.
    let mut g = f.clone();
    let c = g["events"][1]["payload"]["semantic_tool"]["correlation"]
        .as_object()
        .unwrap()
        .clone();
    g["events"][1]["payload"]["semantic_tool"]["correlation"] =
        Value::Object(c.into_iter().rev().collect());
    assert_eq!(issues(&g), vec![]);
}

#[test]
fn rule_8_a_reconciled_envelope_answers_its_input() {
    let Some(mut f) = reference("semantic-tool-artifact-happy-path.json") else {
        return;
    };
    f["events"][1]["eventType"] = json!("semantic_tool.reconciled");
    f["events"][1]["payload"]["semantic_tool"]["phase"] = json!("reconciled");
    // A replacement runner may reconcile under another request id or with extra correlation keys.
    f["events"][1]["payload"]["semantic_tool"]["correlation"]["requestId"] = json!("request_2");
    f["events"][1]["payload"]["semantic_tool"]["correlation"]["futureKey"] = json!(true);
    assert_eq!(issues(&f), vec![]);

    f["events"][1]["turnId"] = json!("turn_replacement");
    let envelope = &mut f["events"][1]["payload"]["semantic_tool"];
    envelope["correlation"]["turnId"] = json!("turn_replacement");
    envelope["idempotencyKey"] = json!("another_key");
    let base = "/events/1/payload/semantic_tool";
    assert_eq!(
        issues(&f),
        vec![
            binding(
                &format!("{base}/idempotencyKey"),
                "semantic_tool reconciled idempotencyKey must match its input envelope"
            ),
            binding(
                &format!("{base}/correlation/turnId"),
                "semantic_tool reconciled correlation turnId must match its input envelope"
            ),
        ]
    );
}

#[test]
fn rule_9_controller_seq_counts_from_one() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    f["commands"][1]["controllerSeq"] = json!(7);
    f["commands"][2]["controllerSeq"] = json!(3.0);
    assert_eq!(
        issues(&f),
        vec![binding(
            "/commands/1/controllerSeq",
            "controllerSeq must be 2 in a scripted fixture"
        )]
    );
}

#[test]
fn rule_10_one_proposed_result_equal_to_the_fixture_result() {
    let Some(f) = reference("happy-path.json") else {
        return;
    };
    let mut g = f.clone();
    g["result"]["summary"] = json!("Another summary.");
    assert_eq!(
        issues(&g),
        vec![binding(
            "/result",
            "fixture result must match the run.result.proposed event payload"
        )]
    );
    let mut g = f.clone();
    g["events"].as_array_mut().unwrap().remove(6);
    renumber(&mut g["events"]);
    let missing = binding(
        "/events",
        "scripted fixtures must contain exactly one unique run.result.proposed event",
    );
    assert_eq!(issues(&g), vec![missing.clone()]);
    let mut g = f.clone();
    let mut second = g["events"][6].clone();
    second["sourceEventId"] = json!("event_happy_07b");
    g["events"].as_array_mut().unwrap().insert(7, second);
    renumber(&mut g["events"]);
    assert_eq!(issues(&g), vec![missing]);
}

#[test]
fn rule_11_one_terminal() {
    let Some(f) = reference("happy-path.json") else {
        return;
    };
    let mut g = f.clone();
    g["events"].as_array_mut().unwrap().remove(8);
    assert_eq!(
        issues(&g),
        vec![binding(
            "/events",
            "scripted fixtures must contain exactly one unique run.terminal event"
        )]
    );
}

#[test]
fn binding_issues_are_collected_in_rule_order() {
    let Some(mut f) = reference("happy-path.json") else {
        return;
    };
    f["events"].as_array_mut().unwrap().remove(8);
    f["commands"][0]["controllerSeq"] = json!(9);
    f["result"]["summary"] = json!("Another summary.");
    f["events"][0]["runId"] = json!("run_elsewhere");
    assert_eq!(
        codes_and_paths(&issues(&f)),
        vec![
            ("binding_mismatch", "/events/0/runId"),
            ("binding_mismatch", "/commands/0/controllerSeq"),
            ("binding_mismatch", "/result"),
            ("binding_mismatch", "/events"),
        ]
    );
}

// ---- the project's own binding cases ------------------------------------------------------------

/// Each file in fixtures/rejected/binding/ breaks one rule; its one issue, exactly.
const BINDING_CASES: &[(&str, &str, &str)] = &[
    (
        "01-event-run-id",
        "/events/3/runId",
        "event runId must match identity.runId",
    ),
    (
        "02-event-normalized-session-id",
        "/events/2/normalizedSessionId",
        "event normalizedSessionId must match identity.normalizedSessionId",
    ),
    (
        "03-duplicate-delivery-differs",
        "/events/4/sourceEventId",
        "duplicate sourceEventId deliveries must be byte-equivalent",
    ),
    (
        "04-semantic-correlation",
        "/events/0/payload/semantic_tool/correlation/itemId",
        "semantic_tool correlation itemId must match the containing event",
    ),
    (
        "05-semantic-envelope-repeated",
        "/events/2/payload/semantic_tool/callId",
        "semantic_tool call call_binding_lookup must contain exactly one result envelope",
    ),
    (
        "06-semantic-call-incomplete",
        "/events/0/payload/semantic_tool/callId",
        "semantic_tool call call_binding_lookup must contain one input and exactly one result or reconciled envelope",
    ),
    (
        "07-semantic-result-differs",
        "/events/1/payload/semantic_tool/operationId",
        "semantic_tool result operationId must match its input envelope",
    ),
    (
        "08-semantic-reconciled-differs",
        "/events/1/payload/semantic_tool/correlation/turnId",
        "semantic_tool reconciled correlation turnId must match its input envelope",
    ),
    (
        "09-controller-seq",
        "/commands/0/controllerSeq",
        "controllerSeq must be 1 in a scripted fixture",
    ),
    (
        "10-result-differs",
        "/result",
        "fixture result must match the run.result.proposed event payload",
    ),
    (
        "10-result-proposed-missing",
        "/events",
        "scripted fixtures must contain exactly one unique run.result.proposed event",
    ),
    (
        "11-terminal-missing",
        "/events",
        "scripted fixtures must contain exactly one unique run.terminal event",
    ),
];

fn binding_case_dir() -> PathBuf {
    support::project_dir().join("fixtures/rejected/binding")
}

#[test]
fn project_binding_cases_are_rejected_with_their_one_issue() {
    for (name, path, message) in BINDING_CASES {
        let bytes = std::fs::read(binding_case_dir().join(format!("{name}.json"))).unwrap();
        let outcome = contract::validate_fixture_bytes(&bytes);
        assert_eq!(outcome.issues, vec![binding(path, message)], "{name}");
    }
}

#[test]
fn project_binding_cases_are_all_listed() {
    let mut files: Vec<String> = std::fs::read_dir(binding_case_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let listed: Vec<String> = BINDING_CASES
        .iter()
        .map(|(n, _, _)| format!("{n}.json"))
        .collect();
    assert_eq!(files, listed);
}

// ---- the live path: one event ---------------------------------------------------------------------

#[test]
fn single_event_validation() {
    let Some(f) = reference("happy-path.json") else {
        return;
    };
    let event = &f["events"][2];
    let check = |v: &Value| v1_2().validate_event_bytes(&serde_json::to_vec(v).unwrap());

    let ok = check(event);
    assert!(ok.ok(), "{:?}", ok.issues);
    assert!(matches!(
        ok.document.unwrap().typed,
        prp_types::types::FixtureEvent::Event(_)
    ));

    let mut e = event.clone();
    e["schemaVersion"] = json!(3);
    assert_eq!(
        check(&e).issues,
        vec![version(
            "/schemaVersion",
            "event schemaVersion 3 is unsupported; this implementation supports 1-2"
        )]
    );
    // schemaVersion 2 selects the v2 schema, whose `schema` const this v1 envelope fails.
    e["schemaVersion"] = json!(2);
    assert_eq!(
        codes_and_paths(&check(&e).issues),
        vec![("schema_validation", "/schema")]
    );
    e["schema"] = json!("paperclip.prp.event.v2");
    let v2 = check(&e);
    assert!(matches!(
        v2.document.unwrap().typed,
        prp_types::types::FixtureEvent::EventV2(_)
    ));
    // Anything else, a missing schemaVersion included, is checked against v1.
    e["schema"] = json!("paperclip.prp.event.v1");
    e.as_object_mut().unwrap().remove("schemaVersion");
    assert_eq!(
        codes_and_paths(&check(&e).issues),
        vec![("schema_validation", "/")]
    );
    assert_eq!(
        codes_and_paths(&contract::validate_event_bytes(b"{").issues),
        vec![("invalid_json", "/")]
    );
}

/// The live path under the default range: 3 selects event-v3, 4 is the version beyond it.
#[test]
fn single_event_validation_under_the_default_range() {
    let f = v3_fixture();
    let check = |v: &Value| contract::validate_event_bytes(&serde_json::to_vec(v).unwrap());
    let v3 = check(&f["events"][0]);
    assert!(v3.ok(), "{:?}", v3.issues);
    assert!(matches!(
        v3.document.unwrap().typed,
        prp_types::types::FixtureEvent::EventV3(_)
    ));
    let mut e = f["events"][0].clone();
    e["schemaVersion"] = json!(4);
    assert_eq!(
        check(&e).issues,
        vec![version(
            "/schemaVersion",
            "event schemaVersion 4 is unsupported; this implementation supports 1-3"
        )]
    );
    // schemaVersion 3 selects the v3 schema, whose `schema` const a v1 envelope fails.
    let mut e = f["events"][1].clone();
    e["schemaVersion"] = json!(3);
    assert_eq!(
        codes_and_paths(&check(&e).issues),
        vec![("schema_validation", "/schema")]
    );
}

// ---- bad input ------------------------------------------------------------------------------------

#[test]
fn invalid_json_is_one_issue_at_the_root() {
    for text in ["", "{", "[1,", "nul", "{\"a\":1}x", "\u{feff}{}"] {
        let outcome = contract::validate_fixture_bytes(text.as_bytes());
        assert!(!outcome.ok());
        assert_eq!(
            codes_and_paths(&outcome.issues),
            vec![("invalid_json", "/")],
            "{text:?}"
        );
        assert!(!outcome.issues[0].message.is_empty());
    }
    // Nested past the decoder's limit: too deep, with the real depth, whatever else is wrong.
    let deep = "[".repeat(100_000);
    let outcome = contract::validate_fixture_bytes(deep.as_bytes());
    assert_eq!(codes_and_paths(&outcome.issues), vec![("too_deep", "/")]);
    assert!(
        outcome.issues[0].message.contains("100000 levels"),
        "{:?}",
        outcome.issues
    );
    let json = contract::validate_fixture_bytes(b"{").to_json();
    assert_eq!(json["ok"], false);
    assert_eq!(json["fixture"], Value::Null);
    assert_eq!(json["issues"][0]["code"], "invalid_json");
}

/// A small deterministic generator (xorshift), so the garbage is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn garbage_never_panics() {
    let Some(dir) = replay_dir() else { return };
    let text = std::fs::read(dir.join("semantic-tool-artifact-happy-path.json")).unwrap();
    // Every prefix.
    for end in 0..text.len() {
        let _ = contract::validate_fixture_bytes(&text[..end]);
        let _ = contract::validate_event_bytes(&text[..end]);
    }
    // Random byte flips.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let mut bytes = text.clone();
        for _ in 0..1 + rng.next() % 4 {
            let at = (rng.next() as usize) % bytes.len();
            bytes[at] = rng.next() as u8;
        }
        let _ = contract::validate_fixture_bytes(&bytes);
    }
    // Random bytes.
    for _ in 0..500 {
        let len = (rng.next() % 64) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = contract::validate_fixture_bytes(&bytes);
        let _ = contract::validate_event_bytes(&bytes);
    }
}

#[test]
fn every_value_replaced_by_every_kind_never_panics() {
    let Some(f) = reference("semantic-tool-artifact-happy-path.json") else {
        return;
    };
    let mut pointers = Vec::new();
    support::walk_containers(&f, &mut |pointer, value| {
        let children: Vec<String> = match value {
            Value::Object(m) => m
                .keys()
                .map(|k| format!("{pointer}/{}", support::escape_pointer_token(k)))
                .collect(),
            Value::Array(a) => (0..a.len()).map(|i| format!("{pointer}/{i}")).collect(),
            _ => vec![],
        };
        pointers.extend(children);
    });
    let replacements = [
        Value::Null,
        json!(0),
        json!(2),
        json!(-1.5),
        json!("x"),
        json!([]),
        json!({}),
        json!(1e300),
    ];
    for pointer in &pointers {
        for r in &replacements {
            let mut g = f.clone();
            *g.pointer_mut(pointer).unwrap() = r.clone();
            let outcome = contract::validate_fixture_value(&g);
            assert_eq!(outcome.ok(), outcome.issues.is_empty());
        }
    }
}
