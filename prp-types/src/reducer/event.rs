//! The envelope members the reducer reads, borrowed from a JSON event (PROTOCOL §1.4).
//!
//! The reducer takes events as `serde_json::Value`s rather than typed [`crate::types::Event`]s:
//! it reads nine members, and its copies of `run.result.proposed` and `run.terminal` payloads must
//! keep the input's key order and unknown members, which only the original value has (a typed
//! struct writes its declared members first and its `extra` after). Borrowing avoids copying
//! anything that is not kept.

use serde_json::{Map, Value};

use super::error::{ReduceError, ReduceErrorCode};

/// The largest `sourceSeq` (2^53 − 1, the largest exact JSON integer).
pub const MAX_SOURCE_SEQ: u64 = 9_007_199_254_740_991;

/// One event as the reducer sees it.
#[derive(Debug, Clone, Copy)]
pub struct EventView<'a> {
    /// `sourceEventId`: the delivery-independent identity of the event.
    pub source_event_id: &'a str,
    /// `sourceSeq`: the position of the event in its source stream, `0..=MAX_SOURCE_SEQ`.
    pub source_seq: u64,
    /// `sourceKind`: `runner` or `control_plane` (any string is accepted).
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
    /// `payload`, exactly as delivered.
    pub payload: &'a Value,
    /// `payload` when it is an object; the spec reads any other payload as `{}`.
    pub object: Option<&'a Map<String, Value>>,
}

impl<'a> EventView<'a> {
    /// Reads the members the reducer needs; pointers in the error are relative to the event.
    ///
    /// One walk over the event's members, rather than a hashed lookup per member: this is the
    /// reducer's hottest path, and an event has only a dozen members.
    pub fn from_value(event: &'a Value) -> Result<Self, ReduceError> {
        let Some(map) = event.as_object() else {
            return Err(ReduceError::new(
                ReduceErrorCode::NotAnObject,
                "",
                "an event must be a JSON object",
            ));
        };
        let mut m = Members::default();
        for (key, value) in map {
            let slot = match key.as_str() {
                "sourceEventId" => &mut m.source_event_id,
                "sourceSeq" => &mut m.source_seq,
                "sourceKind" => &mut m.source_kind,
                "sourceInstanceId" => &mut m.source_instance_id,
                "eventType" => &mut m.event_type,
                "emittedAt" => &mut m.emitted_at,
                "turnId" => &mut m.turn_id,
                "itemId" => &mut m.item_id,
                "payload" => &mut m.payload,
                _ => continue,
            };
            *slot = Some(value);
        }
        // Checked in envelope order, so the first error reported is the first in the schema.
        let payload = m.payload;
        Ok(EventView {
            source_event_id: string(m.source_event_id, "sourceEventId")?,
            source_seq: source_seq(m.source_seq)?,
            source_kind: string(m.source_kind, "sourceKind")?,
            source_instance_id: string(m.source_instance_id, "sourceInstanceId")?,
            event_type: string(m.event_type, "eventType")?,
            emitted_at: string(m.emitted_at, "emittedAt")?,
            turn_id: optional_string(m.turn_id, "turnId")?,
            item_id: optional_string(m.item_id, "itemId")?,
            payload: required(payload, "payload")?,
            object: payload.and_then(Value::as_object),
        })
    }

    /// A string member of the payload, if the payload is an object and the member a string.
    pub(crate) fn payload_str(&self, name: &str) -> Option<&'a str> {
        member(self.object?, name)?.as_str()
    }
}

/// Objects up to this many members are searched key by key.
const SCANNED_MEMBERS: usize = 8;

/// The member `name` of `object`. Payloads are small, and comparing a few keys costs less than
/// hashing the name (serde_json's ordered maps hash with SipHash).
pub(crate) fn member<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    if object.len() <= SCANNED_MEMBERS {
        object
            .iter()
            .find_map(|(key, value)| (key == name).then_some(value))
    } else {
        object.get(name)
    }
}

/// The members found by the walk.
#[derive(Default)]
struct Members<'a> {
    source_event_id: Option<&'a Value>,
    source_seq: Option<&'a Value>,
    source_kind: Option<&'a Value>,
    source_instance_id: Option<&'a Value>,
    event_type: Option<&'a Value>,
    emitted_at: Option<&'a Value>,
    turn_id: Option<&'a Value>,
    item_id: Option<&'a Value>,
    payload: Option<&'a Value>,
}

fn required<'a>(value: Option<&'a Value>, name: &str) -> Result<&'a Value, ReduceError> {
    value.ok_or_else(|| {
        ReduceError::new(
            ReduceErrorCode::MissingMember,
            format!("/{name}"),
            format!("the event has no `{name}`"),
        )
    })
}

fn string<'a>(value: Option<&'a Value>, name: &str) -> Result<&'a str, ReduceError> {
    required(value, name)?
        .as_str()
        .ok_or_else(|| not_a_string(name))
}

fn optional_string<'a>(
    value: Option<&'a Value>,
    name: &str,
) -> Result<Option<&'a str>, ReduceError> {
    match value {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(not_a_string(name)),
    }
}

fn not_a_string(name: &str) -> ReduceError {
    ReduceError::new(
        ReduceErrorCode::InvalidMember,
        format!("/{name}"),
        format!("`{name}` must be a string"),
    )
}

/// `sourceSeq` as an exact integer. A float with no fraction (`3.0`) is the same JSON number as
/// `3`, as it is in JavaScript.
fn source_seq(value: Option<&Value>) -> Result<u64, ReduceError> {
    let value = required(value, "sourceSeq")?;
    let seq = value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= MAX_SOURCE_SEQ as f64)
            .map(|f| f as u64)
    });
    match seq {
        Some(seq) if seq <= MAX_SOURCE_SEQ => Ok(seq),
        _ => Err(ReduceError::new(
            ReduceErrorCode::InvalidMember,
            "/sourceSeq",
            format!("`sourceSeq` must be an integer in 0..={MAX_SOURCE_SEQ}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event() -> Value {
        json!({
            "sourceEventId": "e1", "sourceSeq": 1, "sourceKind": "runner",
            "sourceInstanceId": "r", "eventType": "session.started",
            "emittedAt": "2026-01-01T00:00:00Z", "payload": {}
        })
    }

    #[test]
    fn reads_the_envelope() {
        let e = event();
        let v = EventView::from_value(&e).unwrap();
        assert_eq!(
            (v.source_event_id, v.source_seq, v.item_id),
            ("e1", 1, None)
        );
        assert!(v.object.is_some());
    }

    #[test]
    fn bad_members_are_located() {
        let mut e = event();
        e["sourceSeq"] = json!(-1);
        assert_eq!(EventView::from_value(&e).unwrap_err().pointer, "/sourceSeq");
        e["sourceSeq"] = json!(9_007_199_254_740_992_u64);
        assert_eq!(EventView::from_value(&e).unwrap_err().pointer, "/sourceSeq");
        e["sourceSeq"] = json!(4.0);
        assert_eq!(EventView::from_value(&e).unwrap().source_seq, 4);
        e["itemId"] = json!(7);
        let err = EventView::from_value(&e).unwrap_err();
        assert_eq!(
            (err.code, err.pointer.as_str()),
            (ReduceErrorCode::InvalidMember, "/itemId")
        );
        // Members are checked in envelope order: `itemId` before `payload`.
        e.as_object_mut().unwrap().remove("payload");
        assert_eq!(EventView::from_value(&e).unwrap_err().pointer, "/itemId");
        e["itemId"] = json!("item");
        assert_eq!(
            EventView::from_value(&e).unwrap_err().code,
            ReduceErrorCode::MissingMember
        );
        assert_eq!(
            EventView::from_value(&json!([])).unwrap_err().code,
            ReduceErrorCode::NotAnObject
        );
    }
}
