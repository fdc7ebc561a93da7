//! A producer's view: values built or changed in code are checked by `validate` with the code and
//! pointer that decoding their JSON gives, `encode` refuses exactly what `validate` refuses, member
//! order survives a round trip, and repeated member names are refused wherever they occur.

use prp_testkit as support;

use prp_types::types::{
    DateTime, Event, EventBuilder, EventPayload, EventPriority, EventSchemaVersion,
    EventSourceKind, EventType, Plan, PlanStep, PlanStepStatus, PlanSyncStatus, StableId1To160,
    Text1To160,
};
use prp_types::{Issue, Validate, decode, decode_str, encode};
use serde_json::{Value, json};
use support::*;

fn sample(name: &str) -> String {
    std::fs::read_to_string(project_dir().join("fixtures/documents").join(name)).unwrap()
}

fn plan_event() -> Event {
    decode_str(&sample("event-plan-updated.json")).unwrap()
}

/// What decoding the value's JSON says, written without validation.
fn decode_verdict(event: &Event) -> Result<(), Issue> {
    let bytes = serde_json::to_vec(event).unwrap();
    decode::<Event>(&bytes).map(|_| ())
}

/// `validate` and `decode` agree on code and pointer, and `encode` refuses with the same error.
fn assert_refused(event: &Event, code: &str, pointer: &str) {
    let v = event
        .validate()
        .expect_err("validate accepts a value the schema refuses");
    assert_eq!(
        (v.code.as_str(), v.pointer.as_str()),
        (code, pointer),
        "{v}"
    );
    assert_eq!(encode(event).unwrap_err(), v);
    let d = decode_verdict(event).expect_err("decoding accepts what validate refuses");
    assert_eq!(
        (d.code.as_str(), d.pointer.as_str()),
        (code, pointer),
        "{d}"
    );
}

#[test]
fn constrained_members_are_valid_by_construction() {
    // A constrained string exists only once checked, with the decoder's code.
    let long = "x".repeat(161);
    assert_eq!(
        Text1To160::try_from(long.as_str()).unwrap_err().code,
        "max_length"
    );
    assert_eq!(Text1To160::try_from("").unwrap_err().code, "min_length");
    assert_eq!("not a date".parse::<DateTime>().unwrap_err().code, "format");
    assert_eq!(
        StableId1To160::try_from("-lead").unwrap_err().code,
        "pattern"
    );
    let id = Text1To160::try_from("run-1").unwrap();
    assert_eq!(id, "run-1");
    assert_eq!(id.len(), 5);
    // Closed sets of integers are enums; constants are one-value enums the builder fills in.
    assert_eq!(EventPriority::try_from(7).unwrap_err().code, "enum");
    assert_eq!(EventPriority::try_from(2).unwrap(), EventPriority::V2);
    assert_eq!(EventSchemaVersion::ALL, [EventSchemaVersion::V1]);
    // Decoding builds them through the same check: the same code, located.
    let text =
        sample("event-plan-updated.json").replacen(r#""priority": 1"#, r#""priority": 7"#, 1);
    assert_ne!(text, sample("event-plan-updated.json"));
    let err = decode_str::<Event>(&text).unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.pointer.as_str()),
        ("enum", "/priority")
    );
    // A builder reports a refused member at its pointer, before anything else.
    let err = plan_builder().run_id("").build().unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.rel.as_str()),
        ("min_length", "/runId")
    );
}

#[test]
fn validate_catches_what_the_types_cannot_hold() {
    let base = plan_event();
    assert_eq!(base.validate(), Ok(()));

    let mut e = base.clone();
    e.source_seq = 0;
    assert_refused(&e, "minimum", "/sourceSeq");

    let EventPayload::Plan(plan) = &base.payload else {
        panic!("a plan payload")
    };
    let mut e = base.clone();
    let mut p = plan.clone();
    p.steps = vec![p.steps[0].clone(); 257];
    e.payload = EventPayload::Plan(p);
    assert_refused(&e, "max_items", "/payload/steps");

    let mut e = base.clone();
    let mut p = plan.clone();
    p.revision = 0.into();
    p.steps = vec![p.steps[0].clone(); 257];
    e.payload = EventPayload::Plan(p);
    // The first violation in member order, as decoding reports it.
    assert_refused(&e, "minimum", "/payload/revision");
}

#[test]
fn a_payload_must_fit_the_schema_its_event_type_selects() {
    let other: Event = decode_str(&sample("event-run-terminal-failed.json")).unwrap();
    let EventPayload::Terminal(terminal) = other.payload else {
        panic!("a terminal payload")
    };
    let mut e = plan_event();
    e.payload = EventPayload::Terminal(terminal);
    let err = e.validate().unwrap_err();
    assert!(err.pointer.starts_with("/payload"), "{err}");
    assert_eq!(decode_verdict(&e).unwrap_err(), err);
    assert!(encode(&e).is_err());

    // The other way round: a plan under a terminal event type.
    let mut e = plan_event();
    e.event_type = EventType::RunTerminal;
    let err = e.validate().unwrap_err();
    assert_eq!(decode_verdict(&e).unwrap_err(), err);
}

#[test]
fn extra_members_cannot_shadow_declared_ones() {
    for key in ["runId", "eventType", "schema"] {
        let mut e = plan_event();
        e.extra.insert(key.into(), json!("run-other"));
        let err = e.validate().unwrap_err();
        assert_eq!(err.code, "duplicate_key", "{key}: {err}");
        assert_eq!(err.pointer, format!("/{key}"));
        assert!(encode(&e).is_err());
        // Decoding the JSON written without validation refuses it too.
        let d = decode_verdict(&e).unwrap_err();
        assert_eq!(
            (d.code.as_str(), d.pointer.as_str()),
            ("duplicate_key", &*err.pointer)
        );
    }
}

fn plan() -> Plan {
    Plan::builder()
        .plan_id("plan-1")
        .revision(1)
        .steps(vec![
            PlanStep::builder()
                .step_id("read")
                .body("Read the failing test")
                .status(PlanStepStatus::Completed)
                .build()
                .unwrap(),
        ])
        .complete(false)
        .sync_status(PlanSyncStatus::NotApplicable)
        .build()
        .unwrap()
}

/// An event with every required member but `eventType`, which the payload implies.
fn plan_builder() -> EventBuilder {
    Event::builder()
        .source_event_id("evt-1")
        .source_seq(1)
        .source_instance_id("runner-a")
        .source_kind(EventSourceKind::Runner)
        .run_id("run-1")
        .priority(EventPriority::V1)
        .emitted_at("2026-12-01T09:00:00Z")
        .payload(plan())
}

#[test]
fn a_plan_updated_event_built_from_scratch() {
    let event = plan_builder().turn_id("turn-1").build().unwrap();
    assert_eq!(event.event_type, EventType::PlanUpdated);
    assert_eq!(event.validate(), Ok(()));
    let bytes = encode(&event).unwrap();
    let back: Event = decode(&bytes).unwrap();
    assert_eq!(back, event);
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(v["schema"], "paperclip.prp.event.v1");
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["priority"], 1);
    assert_eq!(v["eventType"], "plan.updated");
    assert_eq!(v["payload"]["schema"], "paperclip.plan.updated.v1");
    assert!(
        v.get("observedAt").is_none(),
        "an optional member left unset is absent"
    );
    // A built value is written in schema order.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(&keys[..3], ["schema", "sourceEventId", "sourceSeq"]);
}

#[test]
fn a_builder_refuses_what_the_schema_refuses() {
    // A required member left unset.
    let err = Event::builder().source_seq(1).build().unwrap_err();
    assert_eq!(err.code, "required");
    assert!(err.message.contains("sourceEventId"), "{err}");
    // A member whose rule the value breaks, at its pointer; the first one wins.
    let err = plan_builder()
        .emitted_at("yesterday")
        .run_id("")
        .build()
        .unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.rel.as_str()),
        ("format", "/emittedAt")
    );
    // An event type set by hand must agree with the payload.
    let err = plan_builder()
        .event_type(EventType::RunTerminal)
        .build()
        .unwrap_err();
    assert!(err.rel.starts_with("/payload"), "{err}");
    // A rule on the whole value: the builder checks it as validate does.
    let err = plan_builder().source_seq(0).build().unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.rel.as_str()),
        ("minimum", "/sourceSeq")
    );
}

/// Every object's member names, in order, with their pointers.
fn key_order(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk_containers(v, &mut |pointer, node| {
        if let Value::Object(m) = node {
            let keys: Vec<&str> = m.keys().map(String::as_str).collect();
            out.push(format!("{pointer}: {}", keys.join(",")));
        }
    });
    out
}

/// The same value with every object's members in reverse order.
fn reversed(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .rev()
                .map(|(k, x)| (k.clone(), reversed(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

#[test]
fn member_order_survives_a_round_trip() {
    let mut docs: Vec<Value> = json_files(&project_dir().join("fixtures"))
        .iter()
        .map(|p| read_json(p))
        .collect();
    if let Some(corpus) = corpus_dir() {
        docs.extend(
            json_files(&reference_fixture_dir(&corpus))
                .iter()
                .map(|p| read_json(p)),
        );
    }
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for doc in &docs {
        walk_containers(doc, &mut |pointer, node| {
            for variant in [node.clone(), reversed(node)] {
                let bytes = serde_json::to_vec(&variant).unwrap();
                for (key, reencode) in prp_types::decode::REENCODERS {
                    let Ok(again) = reencode(&bytes) else {
                        continue;
                    };
                    checked += 1;
                    if key_order(&again) != key_order(&variant) {
                        failures.push(format!(
                            "{pointer} as {key}:\n  in:  {variant}\n  out: {again}"
                        ));
                    }
                }
            }
        });
    }
    println!("{checked} accepted values re-encoded with their member order");
    assert!(checked > 600, "too few accepted values: {checked}");
    assert!(
        failures.is_empty(),
        "{} reordered:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn decoded_in_schema_order_records_nothing() {
    // The sample has its members in schema order, its unknown member last.
    assert!(!plan_event().member_order().is_recorded());
    let reversed_text = serde_json::to_string(&reversed(
        &serde_json::from_str(&sample("event-plan-updated.json")).unwrap(),
    ))
    .unwrap();
    let e: Event = decode_str(&reversed_text).unwrap();
    assert!(e.member_order().is_recorded());
    // Order is not part of a value's identity, as for JSON objects.
    assert_eq!(e, plan_event());
    // Members set after decoding follow the recorded ones.
    let mut e = e;
    e.turn_id = Some("turn-9".try_into().unwrap());
    let v: Value = serde_json::from_slice(&encode(&e).unwrap()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.first(), Some(&"laterAddition"));
    assert_eq!(keys.last(), Some(&"turnId"));
}

fn duplicate_at(text: &str) -> Issue {
    let err = decode_str::<prp_types::Document>(text).expect_err("a repeated member is refused");
    assert_eq!(err.code, "duplicate_key", "{err}");
    err
}

#[test]
fn repeated_member_names_are_refused_where_they_occur() {
    let text = sample("event-plan-updated.json");
    let doc: Value = serde_json::from_str(&text).unwrap();
    let compact = serde_json::to_string(&doc).unwrap();
    // At the root: a second runId after the first.
    let t = compact.replacen(
        r#""runId":"run-42""#,
        r#""runId":"run-42","runId":"run-43""#,
        1,
    );
    assert_eq!(duplicate_at(&t).pointer, "/runId");
    // The discriminator that picks the payload's schema, repeated after the payload.
    let t = compact.replacen(
        r#","laterAddition""#,
        r#","eventType":"turn.started","laterAddition""#,
        1,
    );
    assert_eq!(duplicate_at(&t).pointer, "/eventType");
    // The document's own `schema` member, which picks its type.
    let t = compact.replacen(
        r#""sourceEventId""#,
        r#""schema":"paperclip.prp.event.v1","sourceEventId""#,
        1,
    );
    assert_eq!(duplicate_at(&t).pointer, "/schema");
    // Inside the payload.
    let t = compact.replacen(
        r#""planId":"plan-1""#,
        r#""planId":"plan-1","planId":"plan-2""#,
        1,
    );
    assert_eq!(duplicate_at(&t).pointer, "/payload/planId");
    // An unknown member of an open object, repeated.
    let t = compact.replacen(
        r#""laterAddition":{"kept":true}"#,
        r#""laterAddition":{"kept":true},"laterAddition":1"#,
        1,
    );
    assert_eq!(duplicate_at(&t).pointer, "/laterAddition");
    // Inside a value kept as plain JSON.
    let t = compact.replacen(r#"{"kept":true}"#, r#"{"kept":true,"kept":false}"#, 1);
    assert_eq!(duplicate_at(&t).pointer, "/laterAddition/kept");
    // Typed decoding of one schema, too.
    let t = compact.replacen(
        r#""runId":"run-42""#,
        r#""runId":"run-42","runId":"run-42""#,
        1,
    );
    assert_eq!(decode_str::<Event>(&t).unwrap_err().code, "duplicate_key");
}

#[test]
fn member_order_costs_one_pointer_per_object() {
    // A recorded order is boxed; an object in schema order pays only the empty pointer.
    assert_eq!(std::mem::size_of::<prp_codegen_runtime::Order>(), 16);
    println!("size_of::<Event>() = {}", std::mem::size_of::<Event>());
}
