//! PRP v3 negotiation (PROTOCOL-V3 §1–§2): the local range 1..3, v3 capability snapshots, the
//! v3-only command and its stamping, the version each event type is stamped with, and the
//! `runner.diagnostic` placeholder for an event above the negotiated version.

use prp_peer::goals::{self, Refusal};
use prp_peer::negotiation::{
    self, CommandSchemaError, SUPPORTED, Session, SessionError, VersionRange,
};
use prp_types::decode;
use prp_types::types::{
    Capabilities, CapabilitiesV2, CapabilitiesV3, Command, CommandTypeV3, CommandV3, Event,
    EventV2, EventV3, FixtureEvent,
};
use serde_json::{Value, json};

const AT: &str = "2026-10-02T08:00:00Z";

fn session(peer: &str) -> Session {
    Session::negotiate(peer.parse().unwrap()).unwrap()
}

fn from_json<T: serde::de::DeserializeOwned>(doc: Value) -> T {
    decode(doc.to_string().as_bytes()).unwrap()
}

fn goal_capability() -> Value {
    json!({
        "availability": "available", "actions": ["set", "pause", "resume", "clear"],
        "autonomousUpdates": true, "persistentAcrossResume": true, "maxObjectiveChars": 4000,
        "tokenBudgetControl": true, "usageReporting": true
    })
}

/// A capability snapshot of `version`; a v3 one with `externalProvider` when given.
fn snapshot(version: u32, external_provider: Option<bool>) -> Value {
    let mut doc = json!({
        "schema": format!("paperclip.prp.capabilities.v{version}"),
        "sessionReusePolicy": "reuse_per_issue",
        "driver": {"kind": "scripted", "version": "1"},
        "steer": true, "interrupt": true, "resume": true, "runtimeRequests": false,
        "structuredResult": true, "typedEvents": true
    });
    if version >= 2 {
        doc["sessionGoals"] = goal_capability();
    }
    if let Some(flag) = external_provider {
        doc["externalProvider"] = flag.into();
    }
    doc
}

fn v3_session(external_provider: Option<bool>) -> Session {
    let mut s = session("1..3");
    s.set_capabilities(from_json::<CapabilitiesV3>(snapshot(3, external_provider)))
        .unwrap();
    s
}

fn command_v3(type_: &str, payload: Value) -> CommandV3 {
    from_json(json!({
        "schema": "paperclip.prp.command.v3", "commandId": "cmd-ep", "controllerSeq": 9,
        "type": type_, "issuedAt": AT, "payload": payload
    }))
}

fn operation() -> CommandV3 {
    command_v3(
        "external_provider.operation",
        json!({
            "requestId": "req-1", "bindingId": "b-1", "runId": "run-1",
            "normalizedSessionId": "session-1", "turnId": "turn-1",
            "bindingGeneration": 1, "assignmentRevision": 2,
            "digest": format!("sha256:{}", "0".repeat(64)),
            "action": "accept", "input": {}
        }),
    )
}

fn binding() -> Value {
    json!({
        "companyId": "co-1", "agentId": "agent-1", "bindingId": "b-1", "runId": "run-1",
        "normalizedSessionId": "session-1", "turnId": "turn-1",
        "bindingGeneration": 1, "assignmentRevision": 2
    })
}

fn event(version: u32, seq: u64, event_type: &str, payload: Value) -> FixtureEvent {
    from_json(json!({
        "schema": format!("paperclip.prp.event.v{version}"), "sourceEventId": format!("evt-{seq}"),
        "sourceSeq": seq, "sourceInstanceId": "runner-1", "sourceKind": "runner",
        "runId": "run-1", "normalizedSessionId": "session-1", "turnId": "turn-1",
        "eventType": event_type, "schemaVersion": version, "priority": 0,
        "emittedAt": "2026-10-02T08:00:01.250Z", "observedAt": "2026-10-02T08:00:01.500Z",
        "payload": payload, "debug": {"objective": "secret"}
    }))
}

fn settled(seq: u64) -> FixtureEvent {
    event(
        3,
        seq,
        "external_provider.operation_settled",
        json!({"binding": binding(), "requestId": "req-1", "outcome": {"ok": true}}),
    )
}

#[test]
fn the_local_range_is_1_to_3() {
    assert_eq!((SUPPORTED.min(), SUPPORTED.max()), (1, 3));
    assert_eq!(SUPPORTED.to_string(), "1..3");
    for (peer, want) in [
        ("1..1", 1),
        ("1..2", 2),
        ("2..2", 2),
        ("1..3", 3),
        ("3..7", 3),
    ] {
        assert_eq!(session(peer).version(), want, "peer {peer}");
    }
    let e = Session::negotiate("4..5".parse().unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no common protocol version: local 1..3, peer 4..5"
    );
    // A consumer of 1..2 is the same code, configured.
    let narrow = VersionRange::new(1, 2).unwrap();
    assert_eq!(
        negotiation::negotiate(narrow, "1..3".parse().unwrap()),
        Ok(2)
    );
}

#[test]
fn a_v3_session_takes_a_v3_snapshot() {
    let s = v3_session(Some(true));
    assert_eq!(s.version(), 3);
    assert!(s.external_provider());
    assert_eq!(
        s.goal_capability().map(|c| c.max_objective_chars),
        Some(4000),
        "a v3 snapshot carries sessionGoals as v2's does"
    );
    assert!(!v3_session(Some(false)).external_provider());
    assert!(
        !v3_session(None).external_provider(),
        "a missing externalProvider means unsupported"
    );
    assert!(!session("1..3").external_provider(), "no snapshot yet");
}

#[test]
fn a_snapshot_of_another_version_is_refused() {
    let v3 = || from_json::<CapabilitiesV3>(snapshot(3, Some(true)));
    for (peer, selected) in [("1..1", 1), ("1..2", 2)] {
        let mut s = session(peer);
        assert_eq!(
            s.set_capabilities(v3()),
            Err(SessionError::VersionMismatch { selected, got: 3 })
        );
        assert_eq!(s.capabilities(), None, "a refused snapshot is not kept");
    }
    assert_eq!(
        session("1..2")
            .set_capabilities(v3())
            .unwrap_err()
            .to_string(),
        "a version 3 message in a session negotiated at version 2"
    );
    let mut s = session("1..3");
    assert_eq!(
        s.set_capabilities(from_json::<CapabilitiesV2>(snapshot(2, None))),
        Err(SessionError::VersionMismatch {
            selected: 3,
            got: 2
        })
    );
    assert_eq!(
        s.set_capabilities(from_json::<Capabilities>(snapshot(1, None))),
        Err(SessionError::VersionMismatch {
            selected: 3,
            got: 1
        })
    );
}

#[test]
fn an_external_provider_operation_needs_a_v3_session() {
    for (peer, negotiated) in [("1..1", 1), ("1..2", 2)] {
        let refusal = session(peer).serialize(&operation()).unwrap_err();
        assert_eq!(refusal, Refusal::ExternalProviderNeedsV3 { negotiated });
        assert_eq!(refusal.code(), "external_provider_needs_v3");
        assert_eq!(
            refusal.to_string(),
            format!(
                "external provider operations require PRP v3; this session negotiated v{negotiated}"
            )
        );
    }
}

#[test]
fn an_external_provider_operation_needs_the_runner_to_advertise_it() {
    for s in [session("1..3"), v3_session(None), v3_session(Some(false))] {
        let refusal = s.may_send(&operation()).unwrap_err();
        assert_eq!(refusal, Refusal::NoExternalProvider);
        assert_eq!(refusal.code(), "no_external_provider");
    }
    let bytes = v3_session(Some(true)).serialize(&operation()).unwrap();
    let sent: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(sent["schema"], "paperclip.prp.command.v3");
    assert_eq!(sent["type"], "external_provider.operation");
    assert_eq!(decode::<CommandV3>(&bytes).unwrap(), operation());
}

#[test]
fn commands_are_stamped_by_type() {
    for (type_, version) in [
        ("external_provider.operation", 3),
        ("session.goal.get", 2),
        ("session.goal.set", 2),
        ("session.goal.clear", 2),
        ("turn.start", 1),
        ("run.prepare", 1),
    ] {
        assert_eq!(
            negotiation::command_schema_version(type_),
            version,
            "{type_}"
        );
    }
    let s = v3_session(Some(true));
    // Another type written as v3 is refused, and told what to be sent as.
    for (type_, stamp) in [("turn.start", 1), ("session.goal.get", 2)] {
        let refusal = s.serialize(&command_v3(type_, json!({}))).unwrap_err();
        assert_eq!(refusal.code(), "not_an_external_provider_operation");
        assert_eq!(
            refusal.to_string(),
            format!(
                "only external provider operations are sent as paperclip.prp.command.v3; send \
                 `{type_}` as paperclip.prp.command.v{stamp}"
            )
        );
    }
    // Goal commands go out as v2 and the rest as v1 in a v3 session too.
    let get = goals::get("cmd-g", 2, AT).unwrap();
    let bytes = s.serialize(&get).unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&bytes).unwrap()["schema"],
        "paperclip.prp.command.v2"
    );
    let turn: Command = from_json(json!({
        "schema": "paperclip.prp.command.v1", "commandId": "cmd-1", "controllerSeq": 1,
        "type": "turn.start", "issuedAt": AT, "payload": {}
    }));
    assert_eq!(
        decode::<Command>(&s.serialize(&turn).unwrap()).unwrap(),
        turn
    );
    assert_eq!(operation().type_, CommandTypeV3::ExternalProviderOperation);
}

#[test]
fn a_received_command_under_too_old_a_schema_is_refused() {
    let op = "external_provider.operation";
    for version in [1, 2] {
        let e = negotiation::check_command_schema(op, &format!("paperclip.prp.command.v{version}"))
            .unwrap_err();
        assert_eq!(
            e,
            CommandSchemaError::ExternalProviderNeedsV3 { schema: version }
        );
        assert_eq!(e.code(), "external_provider_schema_below_v3");
        assert_eq!(e.detail(), "external provider operations require PRP v3");
        assert_eq!(
            e.to_string(),
            format!(
                "external provider operations require PRP v3; this command is \
                 paperclip.prp.command.v{version}"
            )
        );
    }
    assert_eq!(
        negotiation::check_command_schema(op, "paperclip.prp.command.v3"),
        Ok(())
    );
    let goal = negotiation::check_command_schema("session.goal.set", "paperclip.prp.command.v1")
        .unwrap_err();
    assert_eq!(goal.code(), "goal_command_schema_below_v2");
    assert_eq!(
        negotiation::check_command_schema("session.goal.set", "paperclip.prp.command.v3"),
        Ok(())
    );
    assert_eq!(
        negotiation::check_command_schema("turn.start", "paperclip.prp.command.v1"),
        Ok(())
    );
    // A schema that names no command version is for the caller's schema check to refuse.
    for other in ["paperclip.prp.event.v1", "paperclip.prp.command.vx", ""] {
        assert_eq!(
            negotiation::check_command_schema(op, other),
            Ok(()),
            "{other}"
        );
    }
}

#[test]
fn each_event_type_has_one_schema_version() {
    for (type_, version) in [
        ("external_provider.dispatch_requested", 3),
        ("external_provider.operation_settled", 3),
        ("external_provider.input_available", 3),
        ("session.capabilities.updated", 2),
        ("session.goal.snapshot", 2),
        ("session.goal.updated", 2),
        ("session.goal.cleared", 2),
        ("session.started", 1),
        ("session.updated", 1),
        ("runner.diagnostic", 1),
        ("run.terminal", 1),
    ] {
        assert_eq!(negotiation::event_schema_version(type_), version, "{type_}");
        assert_eq!(
            negotiation::event_schema(version),
            format!("paperclip.prp.event.v{version}")
        );
    }
}

#[test]
fn an_event_the_session_speaks_goes_out_as_it_is() {
    let goal = event(2, 4, "session.goal.cleared", json!({}));
    assert_eq!(
        session("1..2").outgoing_event(goal.clone()),
        Ok(goal.clone())
    );
    assert_eq!(session("1..3").outgoing_event(goal.clone()), Ok(goal));
    assert_eq!(session("1..3").outgoing_event(settled(5)), Ok(settled(5)));
    let started = event(1, 6, "session.started", json!({}));
    assert_eq!(session("1..1").outgoing_event(started.clone()), Ok(started));
}

#[test]
fn an_event_above_the_negotiated_version_goes_out_as_a_placeholder() {
    let cases = [
        (
            "1..1",
            event(2, 4, "session.goal.updated", json!({"goal": null})),
            "event_requires_prp_v2",
        ),
        ("1..1", settled(5), "event_requires_prp_v3"),
        ("1..2", settled(6), "event_requires_prp_v3"),
    ];
    for (peer, original, reason) in cases {
        let original_type = negotiation::event_type(&original).unwrap();
        let FixtureEvent::Event(p) = session(peer).outgoing_event(original.clone()).unwrap() else {
            panic!("a placeholder is a v1 event");
        };
        assert_eq!(p.event_type.as_str(), "runner.diagnostic");
        assert_eq!(p.schema_version.as_i64(), 1);
        let sent = serde_json::to_value(&p).unwrap();
        assert_eq!(
            sent["payload"],
            json!({"reasonCode": reason, "originalEventType": original_type})
        );
        let was = serde_json::to_value(&original).unwrap();
        for member in [
            "sourceEventId",
            "sourceSeq",
            "sourceInstanceId",
            "sourceKind",
            "runId",
            "normalizedSessionId",
            "turnId",
            "priority",
            "emittedAt",
            "observedAt",
        ] {
            assert_eq!(sent[member], was[member], "{member} is kept");
        }
        assert_eq!(sent["schema"], "paperclip.prp.event.v1");
        assert!(
            sent.get("debug").is_none(),
            "the original's debug is not passed on"
        );
    }
}

#[test]
fn a_placeholder_is_a_valid_v1_event_for_an_independent_validator() {
    let oracle = prp_testkit::Oracle::from_dirs(&[prp_testkit::project_schema_dir()]);
    let validator = oracle.validator("https://paperclip.dev/schemas/prp/v1/event.schema.json");
    for original in [
        event(2, 1, "session.goal.snapshot", json!({"goal": null})),
        settled(2),
        event(
            3,
            3,
            "external_provider.dispatch_requested",
            json!({"binding": binding(), "kind": "authority_revoked", "externalStopConfirmed": false}),
        ),
    ] {
        let placeholder = negotiation::outgoing_event(1, original).unwrap();
        let value = serde_json::to_value(&placeholder).unwrap();
        assert!(validator.is_valid(&value), "{value}");
        // It reads back as the typed v1 event it was built as.
        let FixtureEvent::Event(typed) = placeholder else {
            panic!("a placeholder is a v1 event");
        };
        assert_eq!(
            decode::<Event>(value.to_string().as_bytes()).unwrap(),
            typed
        );
    }
    // The typed events the tests build are of the versions they say.
    assert!(matches!(settled(1), FixtureEvent::EventV3(EventV3 { .. })));
    assert!(matches!(
        event(2, 1, "session.goal.cleared", json!({})),
        FixtureEvent::EventV2(EventV2 { .. })
    ));
}

#[test]
fn a_v3_goal_event_says_what_its_v2_form_says() {
    use prp_peer::goals::{GoalChange, GoalEvent};
    let capability = event(
        3,
        1,
        "session.capabilities.updated",
        json!({"sessionGoals": goal_capability()}),
    );
    assert_eq!(capability.schema_version(), 3);
    let GoalChange::Capability(c) = capability.goal_change().unwrap() else {
        panic!("a capability event");
    };
    assert_eq!(c.max_objective_chars, 4000);
    let cleared = event(3, 2, "session.goal.updated", json!({"goal": null}));
    assert!(matches!(
        cleared.goal_change(),
        Ok(GoalChange::Updated(None))
    ));
    assert!(matches!(
        settled(3).goal_change(),
        Ok(GoalChange::Unrelated)
    ));
    assert!(matches!(
        event(3, 4, "session.resumed", json!({})).goal_change(),
        Ok(GoalChange::SessionOpened)
    ));
}
