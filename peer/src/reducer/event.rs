//! The events the reducer folds: the generated v1, v2 and v3 events, read in place (PROTOCOL §1.4;
//! a v3 event folds as any other, PROTOCOL-V3 §5).
//!
//! The reducer reads nine envelope members and, for a few event types, payload members by JSON
//! name (`payload.kind`, `payload.request.prompt`). Typed payloads answer those through
//! [`Fields`], so a decoded event is reduced without being encoded or parsed again; only the two
//! payloads the snapshot keeps whole (`run.result.proposed`, `run.terminal`) are written out as
//! JSON, in their recorded member order.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;

use crate::issue::{Code, Issue};
use crate::types::{
    Event, EventPayload, EventPayloadV2, EventPayloadV3, EventType, EventTypeV2, EventTypeV3,
    EventV2, EventV3, FixtureEvent, Plan,
};
use prp_codegen_runtime::{Fields, Probe};

/// The largest `sourceSeq` (2^53 − 1, the largest exact JSON integer).
pub const MAX_SOURCE_SEQ: u64 = 9_007_199_254_740_991;

/// An event the reducer can fold: [`Event`] (v1), [`EventV2`], [`EventV3`], or a replay fixture's
/// [`FixtureEvent`] (any of them).
pub trait ReplayEvent {
    /// What the reducer reads of this event. A decoded event always has a view; a value changed in
    /// code may not (a `sourceSeq` outside `0..=MAX_SOURCE_SEQ`, a kept payload holding a number
    /// JSON cannot write).
    fn view(&self) -> Result<EventView<'_>, Issue>;
}

/// One event as the reducer sees it, borrowed from the typed event.
#[derive(Clone)]
pub struct EventView<'a> {
    /// `sourceEventId`: the delivery-independent identity of the event.
    pub source_event_id: &'a str,
    /// `sourceSeq`: the position of the event in its source stream, `0..=MAX_SOURCE_SEQ`.
    pub source_seq: u64,
    /// `sourceKind`.
    pub source_kind: &'a str,
    /// `sourceInstanceId`.
    pub source_instance_id: &'a str,
    /// `eventType`.
    pub event_type: &'a str,
    /// `emittedAt`.
    pub emitted_at: &'a str,
    /// `turnId`, when present.
    pub turn_id: Option<&'a str>,
    /// `itemId`, when present.
    pub item_id: Option<&'a str>,
    /// The payload's members, by JSON name.
    pub(crate) payload: &'a dyn Fields,
    /// The payload as JSON, for the event types whose payload the snapshot keeps.
    pub(crate) kept: Option<Value>,
    /// The checklist of a `plan.updated` event, when its payload is one.
    pub(crate) plan: Option<Cow<'a, Plan>>,
}

impl std::fmt::Debug for EventView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventView")
            .field("source_event_id", &self.source_event_id)
            .field("source_seq", &self.source_seq)
            .field("event_type", &self.event_type)
            .finish_non_exhaustive()
    }
}

impl<'a> EventView<'a> {
    /// A string member of the payload.
    pub(crate) fn payload_str(&self, name: &str) -> Option<&'a str> {
        string(self.payload, name)
    }
}

/// The string member `name` of `object`, if it is a string.
pub(crate) fn string<'a>(object: &'a dyn Fields, name: &str) -> Option<&'a str> {
    match object.field(name) {
        Probe::Str(s) => Some(s),
        _ => None,
    }
}

/// Whether the snapshot keeps this event type's payload whole.
fn keeps_payload(event_type: &str) -> bool {
    matches!(event_type, "run.result.proposed" | "run.terminal")
}

fn kept(event_type: &str, payload: &impl serde::Serialize) -> Result<Option<Value>, Issue> {
    if !keeps_payload(event_type) {
        return Ok(None);
    }
    prp_codegen_runtime::to_json(payload)
        .map(Some)
        .map_err(|e| {
            Issue::new(
                Code::InvalidMember,
                "/payload",
                format!("the payload cannot be written as JSON: {e}"),
            )
        })
}

fn source_seq(seq: i64) -> Result<u64, Issue> {
    u64::try_from(seq)
        .ok()
        .filter(|&s| s <= MAX_SOURCE_SEQ)
        .ok_or_else(|| {
            Issue::new(
                Code::InvalidMember,
                "/sourceSeq",
                format!("`sourceSeq` must be an integer in 0..={MAX_SOURCE_SEQ}, not {seq}"),
            )
        })
}

impl ReplayEvent for Event {
    fn view(&self) -> Result<EventView<'_>, Issue> {
        let event_type = self.event_type.as_str();
        let plan = match (&self.payload, self.event_type) {
            (EventPayload::Plan(p), EventType::PlanUpdated) => Some(Cow::Borrowed(&**p)),
            _ => None,
        };
        Ok(EventView {
            source_event_id: &self.source_event_id,
            source_seq: source_seq(self.source_seq)?,
            source_kind: self.source_kind.as_str(),
            source_instance_id: &self.source_instance_id,
            event_type,
            emitted_at: &self.emitted_at,
            turn_id: self.turn_id.as_deref(),
            item_id: self.item_id.as_deref(),
            payload: &self.payload,
            kept: kept(event_type, &self.payload)?,
            plan,
        })
    }
}

impl ReplayEvent for EventV2 {
    fn view(&self) -> Result<EventView<'_>, Issue> {
        let event_type = self.event_type.as_str();
        // A v2 payload is only checked to be an object: it holds a plan only if it decodes as one.
        let plan = match (&self.payload, self.event_type) {
            (EventPayloadV2::Other(m), EventTypeV2::PlanUpdated) => {
                Plan::deserialize(Value::Object((**m).clone()))
                    .ok()
                    .map(Cow::Owned)
            }
            _ => None,
        };
        Ok(EventView {
            source_event_id: &self.source_event_id,
            source_seq: source_seq(self.source_seq)?,
            source_kind: self.source_kind.as_str(),
            source_instance_id: &self.source_instance_id,
            event_type,
            emitted_at: &self.emitted_at,
            turn_id: self.turn_id.as_deref(),
            item_id: self.item_id.as_deref(),
            payload: &self.payload,
            kept: kept(event_type, &self.payload)?,
            plan,
        })
    }
}

impl ReplayEvent for EventV3 {
    fn view(&self) -> Result<EventView<'_>, Issue> {
        let event_type = self.event_type.as_str();
        // As in v2, a v3 `plan.updated` payload is only checked to be an object.
        let plan = match (&self.payload, self.event_type) {
            (EventPayloadV3::Other(m), EventTypeV3::PlanUpdated) => {
                Plan::deserialize(Value::Object((**m).clone()))
                    .ok()
                    .map(Cow::Owned)
            }
            _ => None,
        };
        Ok(EventView {
            source_event_id: &self.source_event_id,
            source_seq: source_seq(self.source_seq)?,
            source_kind: self.source_kind.as_str(),
            source_instance_id: &self.source_instance_id,
            event_type,
            emitted_at: &self.emitted_at,
            turn_id: self.turn_id.as_deref(),
            item_id: self.item_id.as_deref(),
            payload: &self.payload,
            kept: kept(event_type, &self.payload)?,
            plan,
        })
    }
}

// The last arm is unreachable until a version's schema joins the fixture's event union.
#[allow(unreachable_patterns)]
impl ReplayEvent for FixtureEvent {
    fn view(&self) -> Result<EventView<'_>, Issue> {
        match self {
            FixtureEvent::Event(e) => e.view(),
            FixtureEvent::EventV2(e) => e.view(),
            FixtureEvent::EventV3(e) => e.view(),
            other => Err(crate::versions::unread_version(other.tag())),
        }
    }
}

impl<T: ReplayEvent> ReplayEvent for &T {
    fn view(&self) -> Result<EventView<'_>, Issue> {
        (**self).view()
    }
}

/// "`x` or D": `x` if it is a string, else the default. `None` reads as an object with no members.
pub(super) fn str_or<'a>(object: Option<&'a dyn Fields>, name: &str, default: &'a str) -> &'a str {
    object.and_then(|o| string(o, name)).unwrap_or(default)
}

/// A non-empty string member.
pub(super) fn non_empty<'a>(object: Option<&'a dyn Fields>, name: &str) -> Option<&'a str> {
    object
        .and_then(|o| string(o, name))
        .filter(|s| !s.is_empty())
}

/// The runtime request an event describes: `payload.request` unless absent or null, else the
/// payload itself. `None` reads as an object with no members (a `request` that is not an object).
pub(super) fn runtime_request<'a>(event: &EventView<'a>) -> Option<&'a dyn Fields> {
    let p = event.payload;
    match p.field("request") {
        Probe::Absent | Probe::Null => Some(p),
        _ => p.json_object("request").map(|r| r as &dyn Fields),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;

    #[test]
    fn reads_the_envelope_in_place() {
        let e: FixtureEvent = decode(br#"{"schema": "paperclip.prp.event.v2", "sourceEventId": "e1", "sourceSeq": 3, "sourceKind": "runner", "sourceInstanceId": "r", "runId": "run", "itemId": "i", "eventType": "item.started", "schemaVersion": 2, "priority": 1, "emittedAt": "2026-01-01T00:00:00Z", "payload": {"kind": "tool", "zz": {"a": "b"}}}"#).unwrap();
        let v = e.view().unwrap();
        assert_eq!(
            (v.source_event_id, v.source_seq, v.item_id, v.event_type),
            ("e1", 3, Some("i"), "item.started")
        );
        assert_eq!(v.payload_str("kind"), Some("tool"));
        assert_eq!(v.payload_str("zz"), None);
        assert_eq!(string(v.payload.json_object("zz").unwrap(), "a"), Some("b"));
        assert!(v.kept.is_none() && v.plan.is_none());
    }

    #[test]
    fn a_sequence_set_out_of_range_in_code_is_located() {
        let text = r#"{"schema": "paperclip.prp.event.v1", "sourceEventId": "evt-term-7790",
          "sourceSeq": 88, "sourceInstanceId": "runner-d1", "sourceKind": "runner",
          "runId": "run-7790", "eventType": "run.terminal", "schemaVersion": 1, "priority": 2,
          "emittedAt": "2026-05-19T02:00:00Z", "payload": {"schema": "paperclip.prp.terminal.v1",
          "turnTerminalState": "failed", "runTerminalState": "failed",
          "reportedWorkDisposition": "blocked"}}"#;
        let mut e: Event = decode(text.as_bytes()).unwrap();
        assert!(
            e.view().unwrap().kept.is_some(),
            "a terminal payload is kept"
        );
        e.source_seq = -1;
        assert_eq!(e.view().unwrap_err().pointer, "/sourceSeq");
        e.source_seq = MAX_SOURCE_SEQ as i64 + 1;
        assert_eq!(e.view().unwrap_err().pointer, "/sourceSeq");
    }
}
