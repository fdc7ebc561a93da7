//! A crate that depends on `prp-types` alone, as `cargo add prp-types` gives it: it decodes an
//! event and matches on its payload, builds and encodes one, and lets a document's `schema` member
//! choose its type. CI runs it, checks what it pulls in (`.ci/consumer-check`) and times its cold
//! build beside a serde_json-only crate (`benches/build-cost.sh`).

use prp_types::types::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Decode: every schema constraint is checked, and the payload is typed by `eventType`.
    let bytes = br#"{"schema": "paperclip.prp.event.v1", "sourceEventId": "evt-1", "sourceSeq": 1,
      "sourceInstanceId": "runner-a", "sourceKind": "runner", "runId": "run-1",
      "eventType": "plan.updated", "schemaVersion": 1, "priority": 1,
      "emittedAt": "2026-12-01T09:00:00Z", "payload": {"schema": "paperclip.plan.updated.v1",
      "planId": "plan-1", "revision": 1,
      "steps": [{"stepId": "read", "body": "Read the failing test", "status": "pending"}],
      "complete": false, "syncStatus": "not_applicable"}}"#;
    let event: Event = prp_types::decode(bytes)?;
    let EventPayload::Plan(plan) = &event.payload else {
        return Err("plan.updated carries a plan".into());
    };
    println!(
        "decoded {} with {} step(s)",
        event.event_type.as_str(),
        plan.steps.len()
    );

    // Build and encode: the event type follows from the payload.
    let plan = Plan::builder()
        .plan_id("plan-1")
        .revision(2)
        .steps(vec![
            PlanStep::builder()
                .step_id("read")
                .body("Read the failing test")
                .status(PlanStepStatus::Completed)
                .build()?,
        ])
        .complete(true)
        .sync_status(PlanSyncStatus::NotApplicable)
        .build()?;
    let next = Event::builder()
        .source_event_id("evt-2")
        .source_seq(2)
        .source_instance_id("runner-a")
        .source_kind(EventSourceKind::Runner)
        .run_id("run-1")
        .priority(EventPriority::V1)
        .emitted_at("2026-12-01T09:00:01Z")
        .payload(plan)
        .build()?;
    let encoded = prp_types::encode(&next)?;
    let again: Event = prp_types::decode(&encoded)?;
    assert_eq!(again, next, "an encoded event decodes to itself");
    println!(
        "encoded {} ({} bytes)",
        next.event_type.as_str(),
        encoded.len()
    );

    // Choose a document's type by its own `schema` member.
    let command = br#"{"schema": "paperclip.prp.command.v2", "commandId": "cmd-1",
      "controllerSeq": 27, "type": "session.goal.clear", "issuedAt": "2026-03-04T10:05:11Z",
      "precondition": {"sessionState": ["open"]}, "payload": {"requestId": "goalreq-57"}}"#;
    match prp_types::decode_document(command)? {
        Document::CommandV2(command) => println!("a v2 command: {}", command.type_.as_str()),
        other => return Err(format!("expected a v2 command, got {other:?}").into()),
    }
    Ok(())
}
