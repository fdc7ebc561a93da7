//! Negotiation, capability gating and the session-goal projection (PROTOCOL §5): what a controller
//! may send, what it refuses before anything is written, and what the goal events fold into.

use std::path::PathBuf;

use prp_peer::goals::{self, GoalProjection, Outcome, Refusal};
use prp_peer::negotiation::{Session, SessionError};
use prp_types::types::{
    Capabilities, CapabilitiesV2, Command, CommandPayloadSessionGoalSetStatusV2 as SetStatus,
    CommandV2, EventV2, GoalCapabilityAction, GoalSnapshotStatus,
};
use prp_types::{Code, decode, decode_str};
use serde_json::{Value, json};

fn session(peer: &str) -> Session {
    Session::negotiate(peer.parse().unwrap()).unwrap()
}

fn goal_capability(overrides: Value) -> Value {
    let mut c = json!({
        "availability": "available",
        "actions": ["set", "pause", "resume", "clear"],
        "autonomousUpdates": true,
        "persistentAcrossResume": true,
        "maxObjectiveChars": 12,
        "tokenBudgetControl": true,
        "usageReporting": true
    });
    for (k, v) in overrides.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

fn capabilities_v2(goals: Value) -> CapabilitiesV2 {
    let doc = json!({
        "schema": "paperclip.prp.capabilities.v2",
        "sessionReusePolicy": "reuse_per_issue",
        "driver": {"kind": "scripted", "version": "1"},
        "steer": true, "interrupt": true, "resume": true, "runtimeRequests": false,
        "structuredResult": true, "typedEvents": true,
        "sessionGoals": goals
    });
    decode(doc.to_string().as_bytes()).unwrap()
}

fn capabilities_v1() -> Capabilities {
    decode_str(
        r#"{"schema":"paperclip.prp.capabilities.v1","sessionReusePolicy":"new_per_run",
            "driver":{"kind":"codex","version":"1"},"steer":true,"interrupt":true,"resume":true,
            "runtimeRequests":true,"structuredResult":true,"typedEvents":true}"#,
    )
    .unwrap()
}

/// A v2 session whose runner advertises `goals`.
fn v2_session(goals: Value) -> Session {
    let mut s = session("1..2");
    s.set_capabilities(capabilities_v2(goal_capability(goals)))
        .unwrap();
    s
}

const AT: &str = "2026-10-02T08:00:00Z";

fn set(change: goals::GoalSet) -> CommandV2 {
    goals::set("cmd-set", 5, AT, change).unwrap()
}

fn turn_start_v1() -> Command {
    decode_str(
        r#"{"schema":"paperclip.prp.command.v1","commandId":"cmd-1","controllerSeq":1,
            "type":"turn.start","issuedAt":"2026-10-02T08:00:00Z","payload":{}}"#,
    )
    .unwrap()
}

fn event_v2(seq: u64, event_type: &str, payload: Value) -> EventV2 {
    let doc = json!({
        "schema": "paperclip.prp.event.v2", "sourceEventId": format!("evt-{seq}"),
        "sourceSeq": seq, "sourceInstanceId": "runner-1", "sourceKind": "runner",
        "runId": "run-1", "eventType": event_type, "schemaVersion": 2, "priority": 0,
        "emittedAt": "2026-10-02T08:00:01Z", "payload": payload
    });
    decode(doc.to_string().as_bytes()).unwrap()
}

fn event_v1(seq: u64, event_type: &str) -> prp_types::types::Event {
    let doc = json!({
        "schema": "paperclip.prp.event.v1", "sourceEventId": format!("evt-{seq}"),
        "sourceSeq": seq, "sourceInstanceId": "runner-1", "sourceKind": "runner",
        "runId": "run-1", "eventType": event_type, "schemaVersion": 1, "priority": 0,
        "emittedAt": "2026-10-02T08:00:01Z", "payload": {}
    });
    decode(doc.to_string().as_bytes()).unwrap()
}

fn goal(objective: &str, status: &str, working: bool) -> Value {
    json!({
        "objective": objective, "status": status, "tokenBudget": null, "tokensUsed": 10,
        "elapsedSeconds": 1.5, "iterations": 1, "lastReason": null,
        "createdAt": "2026-10-02T08:00:00Z", "updatedAt": "2026-10-02T08:00:01Z",
        "completedAt": null, "workingNow": working
    })
}

#[test]
fn the_negotiation_table() {
    let cases = [
        ("1..1", "1..1", Ok(1)),
        ("1..2", "1..1", Ok(1)),
        ("1..1", "1..2", Ok(1)),
        ("1..2", "1..2", Ok(2)),
        ("2..2", "2..2", Ok(2)),
        ("2..2", "2..3", Ok(2)),
        ("2..3", "3..3", Ok(3)),
        (
            "1..2",
            "3..3",
            Err("no common protocol version: local 1..2, peer 3..3"),
        ),
        (
            "1..1",
            "2..2",
            Err("no common protocol version: local 1..1, peer 2..2"),
        ),
    ];
    for (local, peer, want) in cases {
        let got = prp_peer::negotiation::negotiate(local.parse().unwrap(), peer.parse().unwrap())
            .map_err(|e| e.to_string());
        assert_eq!(got, want.map_err(str::to_owned), "{local} with {peer}");
    }
    for (bad, why) in [
        ("2..1", "the minimum is above the maximum"),
        ("0..1", "versions start at 1"),
        ("-1..2", "versions start at 1"),
        ("x..2", "expected MIN..MAX of integers"),
    ] {
        let e = bad
            .parse::<prp_peer::negotiation::VersionRange>()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("malformed version range `{bad}`: {why}")
        );
    }
}

#[test]
fn every_v2_capability_snapshot_carries_session_goals() {
    let mut doc = serde_json::to_value(capabilities_v2(goal_capability(json!({})))).unwrap();
    doc.as_object_mut().unwrap().remove("sessionGoals");
    let e = decode::<CapabilitiesV2>(doc.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (Code::Keyword(prp_types::Keyword::Required), "")
    );
    assert!(e.message.contains("sessionGoals"), "{e}");
    // Unsupported and policy-disabled goals are still a capability, with every required member.
    for availability in ["unsupported", "policy_disabled"] {
        let c = capabilities_v2(goal_capability(
            json!({"availability": availability, "actions": []}),
        ));
        assert_eq!(c.session_goals.availability.as_str(), availability);
    }
}

#[test]
fn a_v1_session_never_sends_a_goal_command() {
    let mut s = session("1..1");
    s.set_capabilities(capabilities_v1()).unwrap();
    assert_eq!(s.goal_capability(), None, "a v1 snapshot means unsupported");
    for command in [
        goals::get("cmd-g", 2, AT).unwrap(),
        goals::clear("cmd-c", 3, AT).unwrap(),
        set(goals::GoalSet::builder().objective("Ship").build().unwrap()),
    ] {
        let refusal = s.serialize(&command).unwrap_err();
        assert_eq!(
            refusal,
            Refusal::GoalCommandNeedsV2 {
                command: command.type_.as_str(),
                negotiated: 1
            }
        );
        assert_eq!(refusal.code(), "goal_command_needs_v2");
    }
    // Everything else goes out as v1.
    let bytes = s.serialize(&turn_start_v1()).unwrap();
    assert_eq!(decode::<Command>(&bytes).unwrap(), turn_start_v1());
    // A v2 snapshot does not fit a v1 session.
    assert_eq!(
        s.set_capabilities(capabilities_v2(goal_capability(json!({})))),
        Err(SessionError::VersionMismatch {
            selected: 1,
            got: 2
        })
    );
}

#[test]
fn a_missing_capability_means_unsupported_whatever_the_driver() {
    let mut s = session("1..2");
    assert_eq!(s.version(), 2);
    let get = goals::get("cmd-g", 2, AT).unwrap();
    assert_eq!(s.may_send(&get), Err(Refusal::NoGoalCapability));
    // A v1 snapshot in a v2 session is refused, and the driver name (codex) implies nothing.
    assert!(s.set_capabilities(capabilities_v1()).is_err());
    assert_eq!(s.may_send(&get), Err(Refusal::NoGoalCapability));
}

#[test]
fn unavailable_goals_refuse_every_goal_command() {
    let s = v2_session(json!({
        "availability": "policy_disabled", "actions": [], "reasonCode": "goals_off"
    }));
    let refusal = s
        .may_send(&goals::get("cmd-g", 2, AT).unwrap())
        .unwrap_err();
    assert_eq!(refusal.code(), "goals_unavailable");
    assert_eq!(
        refusal.to_string(),
        "session goals are policy_disabled on this runner (reasonCode `goals_off`)"
    );
    assert!(!s.goals().goals_available());
}

#[test]
fn controls_map_to_advertised_actions() {
    let change = || goals::GoalSet::builder();
    let cases: [(goals::GoalSet, &[GoalCapabilityAction]); 6] = [
        (
            change().objective("Ship").build().unwrap(),
            &[GoalCapabilityAction::Set],
        ),
        (
            change().status(SetStatus::Paused).build().unwrap(),
            &[GoalCapabilityAction::Pause],
        ),
        // With no paused goal held, making a goal active is a set, not a resume.
        (
            change().status(SetStatus::Active).build().unwrap(),
            &[GoalCapabilityAction::Set],
        ),
        (
            change().token_budget(10).build().unwrap(),
            &[GoalCapabilityAction::Set],
        ),
        (
            change().token_budget_null().build().unwrap(),
            &[GoalCapabilityAction::Set],
        ),
        (
            change()
                .objective("Ship")
                .status(SetStatus::Paused)
                .build()
                .unwrap(),
            &[GoalCapabilityAction::Set, GoalCapabilityAction::Pause],
        ),
    ];
    for (payload, want) in cases {
        let command = set(payload);
        assert_eq!(goals::required_actions(&command, None), want, "{command:?}");
    }
    let clear = goals::clear("cmd-c", 3, AT).unwrap();
    assert_eq!(
        goals::required_actions(&clear, None),
        [GoalCapabilityAction::Clear]
    );
    assert!(goals::required_actions(&goals::get("cmd-g", 2, AT).unwrap(), None).is_empty());

    // Each missing action is refused by name, and nothing is serialized.
    let s = v2_session(json!({"actions": ["set"]}));
    let pause = set(change().status(SetStatus::Paused).build().unwrap());
    assert_eq!(
        s.serialize(&pause),
        Err(Refusal::ActionNotAdvertised {
            command: "session.goal.set",
            action: "pause"
        })
    );
    assert_eq!(
        s.serialize(&clear).unwrap_err().to_string(),
        "`session.goal.clear` needs the `clear` action, which the runner does not advertise"
    );
    // get needs only availability.
    assert!(s.serialize(&goals::get("cmd-g", 2, AT).unwrap()).is_ok());
}

#[test]
fn resuming_a_paused_goal_needs_resume() {
    let mut s = v2_session(json!({"actions": ["set", "pause"]}));
    let activate = set(goals::GoalSet::builder()
        .status(SetStatus::Active)
        .build()
        .unwrap());
    assert!(s.may_send(&activate).is_ok(), "no goal held: a set");
    s.observe(&event_v2(
        1,
        "session.goal.updated",
        json!({"goal": goal("Ship it", "paused", false)}),
    ))
    .unwrap();
    assert_eq!(
        goals::required_actions(&activate, s.goals().goal()),
        [GoalCapabilityAction::Resume]
    );
    assert_eq!(
        s.may_send(&activate),
        Err(Refusal::ActionNotAdvertised {
            command: "session.goal.set",
            action: "resume"
        })
    );
}

#[test]
fn budgets_objectives_and_empty_sets_are_checked_before_sending() {
    let s = v2_session(json!({"tokenBudgetControl": false, "maxObjectiveChars": 12}));
    let budget = set(goals::GoalSet::builder().token_budget(100).build().unwrap());
    assert_eq!(s.may_send(&budget), Err(Refusal::NoTokenBudgetControl));
    // maxObjectiveChars counts code points: twelve 4-byte characters fit, thirteen do not.
    let fits = set(goals::GoalSet::builder()
        .objective("😀".repeat(12))
        .build()
        .unwrap());
    assert!(s.may_send(&fits).is_ok());
    let long = set(goals::GoalSet::builder()
        .objective("😀".repeat(13))
        .build()
        .unwrap());
    assert_eq!(
        s.serialize(&long),
        Err(Refusal::ObjectiveTooLong { chars: 13, max: 12 })
    );
    let empty = set(goals::GoalSet::builder()
        .request_id("req-1")
        .build()
        .unwrap());
    assert_eq!(s.may_send(&empty), Err(Refusal::EmptySet));
}

#[test]
fn goal_commands_go_out_as_v2_and_everything_else_as_v1() {
    let s = v2_session(json!({}));
    assert!(s.may_send(&turn_start_v1()).is_ok());
    let mut as_v2 = goals::get("cmd-g", 2, AT).unwrap();
    as_v2.type_ = prp_types::types::CommandTypeV2::TurnStart;
    assert_eq!(
        s.serialize(&as_v2).unwrap_err().to_string(),
        "only session goal commands are sent as paperclip.prp.command.v2; send `turn.start` as \
         paperclip.prp.command.v1"
    );
    // What may be sent is the command's own JSON, and it decodes back to the same value.
    let command = set(goals::GoalSet::builder()
        .objective("Ship")
        .status(SetStatus::Active)
        .token_budget(5000)
        .build()
        .unwrap());
    let bytes = s.serialize(&command).unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&bytes).unwrap(),
        json!({
            "schema": "paperclip.prp.command.v2", "commandId": "cmd-set", "controllerSeq": 5,
            "type": "session.goal.set", "issuedAt": AT,
            "payload": {"objective": "Ship", "status": "active", "tokenBudget": 5000}
        })
    );
    assert_eq!(decode::<CommandV2>(&bytes).unwrap(), command);
}

#[test]
fn a_v1_goal_command_is_refused_with_the_reason() {
    let doc = r#"{"schema":"paperclip.prp.command.v1","commandId":"c","controllerSeq":1,
                  "type":"session.goal.set","issuedAt":"2026-10-02T08:00:00Z","payload":{}}"#;
    let e = decode_str::<Command>(doc).unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (Code::Keyword(prp_types::Keyword::Enum), "/type")
    );
    assert!(
        e.message
            .starts_with("session goal commands require the paperclip.prp.command.v2 schema"),
        "{e}"
    );
    // Any other v1 type outside the enum keeps the plain message.
    let e = decode_str::<Command>(&doc.replace("session.goal.set", "session.nap")).unwrap_err();
    assert!(!e.message.contains("paperclip.prp.command.v2"), "{e}");
    // The same document as v2 is a goal command.
    let v2 = doc.replace("command.v1", "command.v2");
    assert_eq!(
        decode_str::<CommandV2>(&v2).unwrap().type_.as_str(),
        "session.goal.set"
    );
}

#[test]
fn constructors_fill_constants_and_enforce_limits() {
    let get = goals::get("cmd-g", 2, AT).unwrap();
    assert_eq!(
        serde_json::to_value(&get).unwrap(),
        json!({"schema": "paperclip.prp.command.v2", "commandId": "cmd-g", "controllerSeq": 2,
               "type": "session.goal.get", "issuedAt": AT, "payload": {}})
    );
    assert_eq!(
        goals::clear("cmd-c", 3, AT).unwrap().type_.as_str(),
        "session.goal.clear"
    );
    // The objective is 1 to 4000 code points.
    assert!(
        goals::GoalSet::builder()
            .objective("é".repeat(4000))
            .build()
            .is_ok()
    );
    let e = goals::GoalSet::builder()
        .objective("é".repeat(4001))
        .build()
        .unwrap_err();
    assert_eq!(
        prp_types::Issue::from(e).code,
        Code::Keyword(prp_types::Keyword::MaxLength)
    );
    let e = goals::GoalSet::builder().objective("").build().unwrap_err();
    assert_eq!(
        prp_types::Issue::from(e).code,
        Code::Keyword(prp_types::Keyword::MinLength)
    );
    // The budget is at least 1, or null for none.
    let e = goals::GoalSet::builder()
        .token_budget(0)
        .build()
        .unwrap_err();
    let e = prp_types::Issue::from(e);
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (Code::Keyword(prp_types::Keyword::Minimum), "/tokenBudget")
    );
    let unbounded = set(goals::GoalSet::builder()
        .token_budget_null()
        .build()
        .unwrap());
    assert_eq!(
        serde_json::to_value(&unbounded).unwrap()["payload"],
        json!({"tokenBudget": null})
    );
    // Envelope members are checked too, and a payload changed after building is checked again.
    let e = goals::get("", 2, AT).unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (Code::Keyword(prp_types::Keyword::MinLength), "/commandId")
    );
    let e = goals::get("cmd-g", 0, AT).unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (Code::Keyword(prp_types::Keyword::Minimum), "/controllerSeq")
    );
    let e = goals::get("cmd-g", 1, "yesterday").unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (Code::Keyword(prp_types::Keyword::Format), "/issuedAt")
    );
    let mut change = goals::GoalSet::builder().token_budget(5).build().unwrap();
    change.token_budget = prp_types::Tri::Value(0.into());
    let e = goals::set("cmd-s", 4, AT, change).unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str()),
        (
            Code::Keyword(prp_types::Keyword::Minimum),
            "/payload/tokenBudget"
        )
    );
}

#[test]
fn the_snapshot_after_open_or_resume_replaces_what_was_held() {
    let mut p = GoalProjection::new(2);
    let caps = goal_capability(json!({}));
    let apply = |p: &mut GoalProjection, e: &EventV2| p.apply(e).unwrap();
    apply(
        &mut p,
        &event_v2(
            1,
            "session.capabilities.updated",
            json!({"sessionGoals": caps}),
        ),
    );
    assert!(p.goals_available());
    apply(
        &mut p,
        &event_v2(
            2,
            "session.goal.updated",
            json!({"goal": goal("One", "active", true)}),
        ),
    );
    // Active and idle: the status is durable, workingNow says what happens now.
    apply(
        &mut p,
        &event_v2(
            3,
            "session.goal.updated",
            json!({"goal": goal("One", "active", false)}),
        ),
    );
    let held = p.goal().unwrap();
    assert_eq!(
        (held.status, held.working_now),
        (GoalSnapshotStatus::Active, false)
    );

    assert_eq!(
        p.apply(&event_v1(4, "session.resumed")).unwrap(),
        Outcome::Applied
    );
    assert!(p.awaiting_snapshot());
    assert_eq!(
        p.goal().unwrap().objective,
        "One",
        "held until the snapshot comes"
    );
    apply(
        &mut p,
        &event_v2(5, "session.goal.snapshot", json!({"goal": null})),
    );
    assert!(!p.awaiting_snapshot());
    assert_eq!(p.goal(), None, "a null snapshot replaces the held goal");

    apply(
        &mut p,
        &event_v2(
            6,
            "session.goal.snapshot",
            json!({"goal": goal("Two", "blocked", false)}),
        ),
    );
    assert_eq!(p.goal().unwrap().objective, "Two");
    apply(&mut p, &event_v2(7, "session.goal.cleared", json!({})));
    assert_eq!(p.goal(), None);
    let caps = goal_capability(json!({"availability": "unsupported", "actions": []}));
    apply(
        &mut p,
        &event_v2(
            8,
            "session.capabilities.updated",
            json!({"sessionGoals": caps}),
        ),
    );
    assert!(!p.goals_available());
    assert_eq!(p.to_json()["lastGoalEvent"]["sourceEventId"], "evt-8");
}

#[test]
fn stale_and_repeated_goal_events_change_nothing() {
    let mut p = GoalProjection::new(2);
    let newer = event_v2(
        5,
        "session.goal.updated",
        json!({"goal": goal("New", "active", true)}),
    );
    assert_eq!(p.apply(&newer).unwrap(), Outcome::Applied);
    assert_eq!(p.apply(&newer).unwrap(), Outcome::AlreadyProcessed);
    let older = event_v2(
        4,
        "session.goal.updated",
        json!({"goal": goal("Old", "paused", false)}),
    );
    assert_eq!(p.apply(&older).unwrap(), Outcome::OutOfOrder);
    assert_eq!(p.goal().unwrap().objective, "New");
    assert_eq!(
        p.to_json()["events"],
        json!({"applied": 1, "alreadyProcessed": 1, "outOfOrder": ["evt-4"]})
    );
}

#[test]
fn an_event_above_the_negotiated_version_is_refused() {
    let mut s = session("1..1");
    let e = s
        .observe(&event_v2(1, "session.goal.snapshot", json!({"goal": null})))
        .unwrap_err();
    assert_eq!(
        (e.code, e.pointer.as_str(), e.message.as_str()),
        (
            Code::UnsupportedRequiredVersion,
            "/schemaVersion",
            "event schemaVersion 2 exceeds the negotiated protocol version 1"
        )
    );
    assert_eq!(
        s.observe(&event_v1(1, "session.started")).unwrap(),
        Outcome::Applied
    );
    assert!(
        !s.goals().awaiting_snapshot(),
        "a v1 session waits for no goal snapshot"
    );
}

fn goal_fixtures() -> Vec<PathBuf> {
    let dir = prp_testkit::project_dir().join("fixtures/goals");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.ends_with(".json") && !name.ends_with(".projection.json")
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_goal_fixtures_project_as_expected() {
    let fixtures = goal_fixtures();
    assert_eq!(fixtures.len(), 3);
    let update = std::env::var_os("UPDATE_GOALS").is_some();
    for path in fixtures {
        let bytes = std::fs::read(&path).unwrap();
        let projection = GoalProjection::of_fixture_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        // They are protocolVersion 2 fixtures that the whole pipeline and the reducer accept.
        assert_eq!(projection.negotiated(), 2, "{}", path.display());
        prp_peer::reducer::replay_fixture_bytes(&bytes).unwrap();
        let text = prp_peer::json::pretty(&projection.to_json());
        let expected = path.with_extension("projection.json");
        if update {
            std::fs::write(&expected, &text).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(&expected).unwrap(),
            text,
            "{} (UPDATE_GOALS=1 rewrites it; review the diff)",
            path.display()
        );
    }
}

#[test]
fn what_the_goal_fixtures_show() {
    let project = |name: &str| {
        let path = prp_testkit::project_dir().join("fixtures/goals").join(name);
        GoalProjection::of_fixture_bytes(&std::fs::read(path).unwrap())
            .unwrap()
            .to_json()
    };
    let lifecycle = project("goal-lifecycle.json");
    assert_eq!(lifecycle["goal"], Value::Null, "completed, then cleared");
    assert_eq!(
        lifecycle["lastGoalEvent"]["eventType"],
        "session.goal.cleared"
    );
    assert_eq!(lifecycle["goalsAvailable"], true);

    let resume = project("goal-resume.json");
    assert_eq!(
        resume["goal"]["status"], "usage_limited",
        "the snapshot after resume"
    );
    assert_eq!(resume["goal"]["workingNow"], false);
    assert_eq!(
        resume["events"]["outOfOrder"],
        json!(["evt_rs_goal-resume_late"])
    );
    assert_eq!(resume["events"]["alreadyProcessed"], 1);
    assert_eq!(resume["capability"]["tokenBudgetControl"], false);

    let disabled = project("goals-policy-disabled.json");
    assert_eq!(disabled["goalsAvailable"], false);
    assert_eq!(
        disabled["capability"]["reasonCode"],
        "goals_disabled_by_policy"
    );

    // A v1 fixture: negotiated at 1, no capability, goals unavailable.
    let happy = prp_testkit::project_dir().join("fixtures/replay/happy-path.json");
    let v1 = GoalProjection::of_fixture_bytes(&std::fs::read(happy).unwrap()).unwrap();
    assert_eq!(
        (v1.negotiated(), v1.capability(), v1.goals_available()),
        (1, None, false)
    );
}

#[test]
fn the_goal_fixtures_pass_prp_validate_s_pipeline_and_a_v1_fixture_cannot_carry_goal_events() {
    let path = prp_testkit::project_dir().join("fixtures/goals/goal-lifecycle.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    doc["protocolVersion"] = json!(1);
    let issues = GoalProjection::of_fixture_bytes(doc.to_string().as_bytes()).unwrap_err();
    assert!(
        issues
            .iter()
            .any(|i| i.code == Code::UnsupportedRequiredVersion
                && i.pointer == "/events/2/schemaVersion"),
        "{issues:?}"
    );
}
