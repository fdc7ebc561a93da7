//! Stage 3: binding checks on a schema-valid fixture (PROTOCOL §1.7, rules 1–11).
//!
//! Ids and numbers come from the typed fixture; everything compared "in canonical JSON" comes from
//! the parsed value, which is the document as written. A `payload.semantic_tool` object is read from
//! the value as well: only v1 `semantic_tool.*`/`mcp_app.tool_*` events give it a schema, yet the
//! correlation rule applies to every event that carries one. An envelope without a string `callId`
//! or with a `phase` other than `input`/`result`/`reconciled` cannot be paired, so rules 5–8 skip it.

use super::{Code, Issue};
use crate::json::canonical;
use crate::types::{Fixture, FixtureEvent};
use indexmap::IndexMap;
use prp_codegen_runtime::{Fields as _, Probe};
use serde_json::Value;
use std::collections::HashMap;

/// The correlation ids an envelope shares with its event.
const CORRELATION_IDS: [&str; 4] = ["runId", "normalizedSessionId", "turnId", "itemId"];

fn mismatch(path: String, message: String) -> Issue {
    Issue::new(Code::BindingMismatch, path, message)
}

/// Typed views of the members the rules read.
struct EventIds<'a> {
    source_event_id: &'a str,
    run_id: &'a str,
    normalized_session_id: Option<&'a str>,
    event_type: &'a str,
}

impl<'a> EventIds<'a> {
    /// Read by name, as every version of the envelope has these members: a version the schemas
    /// add is read too, with no list of versions here to keep.
    fn of(event: &'a FixtureEvent) -> Self {
        let text = |key| match event.field(key) {
            Probe::Str(s) => Some(s),
            _ => None,
        };
        EventIds {
            source_event_id: text("sourceEventId").unwrap_or_default(),
            run_id: text("runId").unwrap_or_default(),
            normalized_session_id: text("normalizedSessionId"),
            event_type: text("eventType").unwrap_or_default(),
        }
    }
}

/// The envelopes of one semantic call, by phase: the index of the event that carries each.
#[derive(Default)]
struct Call {
    input: Option<usize>,
    result: Option<usize>,
    reconciled: Option<usize>,
}

impl Call {
    fn slot(&mut self, phase: &str) -> Option<&mut Option<usize>> {
        match phase {
            "input" => Some(&mut self.input),
            "result" => Some(&mut self.result),
            "reconciled" => Some(&mut self.reconciled),
            _ => None,
        }
    }
}

fn envelope(event: &Value) -> Option<&serde_json::Map<String, Value>> {
    event.pointer("/payload/semantic_tool")?.as_object()
}

fn correlation<'a>(envelope: &'a serde_json::Map<String, Value>, id: &str) -> Option<&'a Value> {
    envelope.get("correlation")?.as_object()?.get(id)
}

/// Every binding issue of a schema-valid fixture, in rule order.
pub(super) fn issues(fixture: &Fixture, value: &Value) -> Vec<Issue> {
    let mut issues = Vec::new();
    let no_events = Vec::new();
    let events = value
        .get("events")
        .and_then(Value::as_array)
        .unwrap_or(&no_events);
    let identity = &fixture.identity;

    // The first delivery of each sourceEventId, with its canonical JSON once a repeat needs it.
    let mut first: HashMap<&str, (usize, Option<String>)> = HashMap::new();
    let mut distinct: Vec<usize> = Vec::new();
    let mut calls: IndexMap<&str, Call> = IndexMap::new();

    for (i, (typed, raw)) in fixture.events.iter().zip(events).enumerate() {
        let ids = EventIds::of(typed);
        // 1
        if ids.run_id != identity.run_id {
            issues.push(mismatch(
                format!("/events/{i}/runId"),
                "event runId must match identity.runId".into(),
            ));
        }
        // 2
        if let Some(session) = ids.normalized_session_id
            && session != identity.normalized_session_id
        {
            issues.push(mismatch(
                format!("/events/{i}/normalizedSessionId"),
                "event normalizedSessionId must match identity.normalizedSessionId".into(),
            ));
        }
        // 3: a repeated delivery is at-least-once transport, not a second invocation.
        if let Some((k, cached)) = first.get_mut(ids.source_event_id) {
            let original = cached.get_or_insert_with(|| canonical(&events[*k]));
            if canonical(raw) != *original {
                issues.push(mismatch(
                    format!("/events/{i}/sourceEventId"),
                    "duplicate sourceEventId deliveries must be byte-equivalent".into(),
                ));
            }
            continue;
        }
        first.insert(ids.source_event_id, (i, None));
        distinct.push(i);

        let Some(env) = envelope(raw) else { continue };
        // 4
        for id in CORRELATION_IDS {
            if correlation(env, id) != raw.get(id) {
                issues.push(mismatch(
                    format!("/events/{i}/payload/semantic_tool/correlation/{id}"),
                    format!("semantic_tool correlation {id} must match the containing event"),
                ));
            }
        }
        // 5
        let (Some(call_id), Some(phase)) = (
            env.get("callId").and_then(Value::as_str),
            env.get("phase").and_then(Value::as_str),
        ) else {
            continue;
        };
        let Some(slot) = calls.entry(call_id).or_default().slot(phase) else {
            continue;
        };
        if slot.is_some() {
            issues.push(mismatch(
                format!("/events/{i}/payload/semantic_tool/callId"),
                format!("semantic_tool call {call_id} must contain exactly one {phase} envelope"),
            ));
        } else {
            *slot = Some(i);
        }
    }

    for (call_id, call) in &calls {
        pairing_issues(call_id, call, events, &mut issues);
    }

    order_and_outcome_issues(fixture, value, events, &distinct, &mut issues);
    issues
}

/// Rules 9–11: commands numbered from 1, and exactly one (distinct) proposed result, equal to the
/// fixture's result, and one terminal. `distinct`: each sourceEventId's first delivery.
fn order_and_outcome_issues(
    fixture: &Fixture,
    value: &Value,
    events: &[Value],
    distinct: &[usize],
    issues: &mut Vec<Issue>,
) {
    // 9
    for (i, command) in fixture.commands.iter().enumerate() {
        let want = i as i64 + 1;
        if !command.field("controllerSeq").equals(&Probe::Int(want)) {
            issues.push(mismatch(
                format!("/commands/{i}/controllerSeq"),
                format!("controllerSeq must be {want} in a scripted fixture"),
            ));
        }
    }

    let of_type = |t: &str| -> Vec<usize> {
        distinct
            .iter()
            .copied()
            .filter(|&i| EventIds::of(&fixture.events[i]).event_type == t)
            .collect()
    };
    // 10
    let proposed = of_type("run.result.proposed");
    if let [only] = proposed[..] {
        let payload = events[only].get("payload").unwrap_or(&Value::Null);
        let result = value.get("result").unwrap_or(&Value::Null);
        if canonical(payload) != canonical(result) {
            issues.push(mismatch(
                "/result".into(),
                "fixture result must match the run.result.proposed event payload".into(),
            ));
        }
    } else {
        issues.push(mismatch(
            "/events".into(),
            "scripted fixtures must contain exactly one unique run.result.proposed event".into(),
        ));
    }
    // 11
    if of_type("run.terminal").len() != 1 {
        issues.push(mismatch(
            "/events".into(),
            "scripted fixtures must contain exactly one unique run.terminal event".into(),
        ));
    }
}

/// Rules 6–8 for one call: one input, exactly one outcome envelope, and the outcome agreeing with
/// the input on what was called.
fn pairing_issues(call_id: &str, call: &Call, events: &[Value], issues: &mut Vec<Issue>) {
    let complete = call.input.is_some() && (call.result.is_some() != call.reconciled.is_some());
    let Some(input) = call.input.filter(|_| complete) else {
        // 6: point at the input, else the result, else the reconciled envelope.
        if let Some(k) = call.input.or(call.result).or(call.reconciled) {
            issues.push(mismatch(
                format!("/events/{k}/payload/semantic_tool/callId"),
                format!(
                    "semantic_tool call {call_id} must contain one input and exactly one result or reconciled envelope"
                ),
            ));
        }
        return;
    };
    let Some(inp) = envelope(&events[input]) else {
        return;
    };
    let (phase, r) = match (call.result, call.reconciled) {
        (Some(r), None) => ("result", r),
        (None, Some(r)) => ("reconciled", r),
        _ => return,
    };
    let Some(out) = envelope(&events[r]) else {
        return;
    };
    let base = format!("/events/{r}/payload/semantic_tool");
    // 7 and 8: the same operation under the same idempotency key.
    for field in ["operationId", "idempotencyKey"] {
        if out.get(field) != inp.get(field) {
            issues.push(mismatch(
                format!("{base}/{field}"),
                format!("semantic_tool {phase} {field} must match its input envelope"),
            ));
        }
    }
    if phase == "result" {
        // 7: a result answers the very same correlation.
        let canon = |e: &serde_json::Map<String, Value>| e.get("correlation").map(canonical);
        if canon(out) != canon(inp) {
            issues.push(mismatch(
                format!("{base}/correlation"),
                "semantic_tool result correlation must match its input envelope".into(),
            ));
        }
    } else {
        // 8: a replacement runner may reconcile, so only the four ids must agree.
        for id in CORRELATION_IDS {
            if correlation(out, id) != correlation(inp, id) {
                issues.push(mismatch(
                    format!("{base}/correlation/{id}"),
                    format!(
                        "semantic_tool reconciled correlation {id} must match its input envelope"
                    ),
                ));
            }
        }
    }
}
