//! Timeline entries and their summary strings (PROTOCOL §2.4).

use std::borrow::Cow;

use compact_str::format_compact;
use indexmap::IndexMap;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use super::event::EventView;
use super::js;
use super::projection::Request;
use crate::Str;
use crate::types::{EventEventType, EventV2EventType};

/// One applied event on the timeline.
///
/// Its strings are [`Str`]s: ids, timestamps and short summaries up to 24 bytes live inside the
/// entry, so a typical event costs the timeline one 128-byte slot and no allocation of its own.
/// A session of a million events then stays one contiguous array instead of millions of small
/// heap blocks, and applying the next event costs the same as applying the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineEntry {
    pub(super) source_event_id: Str,
    pub(super) source_seq: u64,
    pub(super) event_type: Str,
    pub(super) emitted_at: Str,
    pub(super) item_id: Option<Str>,
    /// `None` when the summary is the default rule, derived from the event type on demand.
    pub(super) summary: Option<Str>,
}

impl TimelineEntry {
    /// The entry of an event about to be projected onto a snapshot whose requests are `requests`.
    pub(super) fn new(event: &EventView<'_>, requests: &IndexMap<String, Request>) -> Self {
        TimelineEntry {
            source_event_id: Str::from(event.source_event_id),
            source_seq: event.source_seq,
            event_type: intern_event_type(event.event_type),
            emitted_at: Str::from(event.emitted_at),
            item_id: event.item_id.map(Str::from),
            summary: summary(event, requests),
        }
    }

    /// `sourceEventId`.
    pub fn source_event_id(&self) -> &str {
        &self.source_event_id
    }

    /// `sourceSeq`.
    pub fn source_seq(&self) -> u64 {
        self.source_seq
    }

    /// `eventType`.
    pub fn event_type(&self) -> &str {
        &self.event_type
    }

    /// `emittedAt`.
    pub fn emitted_at(&self) -> &str {
        &self.emitted_at
    }

    /// `itemId`, when the event had one.
    pub fn item_id(&self) -> Option<&str> {
        self.item_id.as_deref()
    }

    /// `summary`.
    pub fn summary(&self) -> Cow<'_, str> {
        match &self.summary {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(self.event_type.replace('.', " ")),
        }
    }

    /// The golden form of the entry at `index` (its `position` is `index + 1`).
    pub(super) fn golden(&self, index: usize) -> GoldenEntry<'_> {
        GoldenEntry { entry: self, index }
    }
}

/// A timeline entry in golden key order.
pub(super) struct GoldenEntry<'a> {
    entry: &'a TimelineEntry,
    index: usize,
}

impl Serialize for GoldenEntry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.entry;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("position", &(self.index + 1))?;
        m.serialize_entry("sourceEventId", &*e.source_event_id)?;
        m.serialize_entry("sourceSeq", &e.source_seq)?;
        m.serialize_entry("eventType", &*e.event_type)?;
        m.serialize_entry("emittedAt", &*e.emitted_at)?;
        if let Some(item_id) = &e.item_id {
            m.serialize_entry("itemId", &**item_id)?;
        }
        m.serialize_entry("summary", e.summary().as_ref())?;
        m.end()
    }
}

/// A known event type refers to its `&'static str`, so that storing it never allocates.
fn intern_event_type(event_type: &str) -> Str {
    if let Ok(t) = event_type.parse::<EventEventType>() {
        Str::const_new(t.as_str())
    } else if let Ok(t) = event_type.parse::<EventV2EventType>() {
        Str::const_new(t.as_str())
    } else {
        Str::from(event_type)
    }
}

/// "`x` or D": `x` if it is a string, else the default.
fn str_or<'a>(object: Option<&'a Map<String, Value>>, name: &str, default: &'a str) -> &'a str {
    object
        .and_then(|o| o.get(name))
        .and_then(Value::as_str)
        .unwrap_or(default)
}

/// A non-empty string member.
fn non_empty<'a>(object: Option<&'a Map<String, Value>>, name: &str) -> Option<&'a str> {
    object
        .and_then(|o| o.get(name))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The runtime request an event describes: `payload.request` unless absent or null, else the
/// payload itself. `None` reads as an object with no members.
pub(super) fn runtime_request<'a>(event: &EventView<'a>) -> Option<&'a Map<String, Value>> {
    let p = event.object?;
    match p.get("request") {
        None | Some(Value::Null) => Some(p),
        Some(r) => r.as_object(),
    }
}

/// The summary of `event`, computed before its projection; `None` for the default rule
/// (the event type with every `.` replaced by a space).
pub(super) fn summary(event: &EventView<'_>, requests: &IndexMap<String, Request>) -> Option<Str> {
    let p = event.object;
    let text = match event.event_type {
        "runtime.phase.changed" => Str::from(
            format!("Phase changed to {}", str_or(p, "phase", "unknown")).replace('_', " "),
        ),
        "item.started" => format_compact!("Started {}", str_or(p, "kind", "item")),
        "item.delta" => Str::from(str_or(p, "text", "Item updated")),
        "item.completed" => format_compact!("Completed {}", str_or(p, "kind", "item")),
        "item.failed" => Str::from(str_or(p, "message", "Item failed")),
        "run.result.proposed" => Str::from(str_or(p, "summary", "Structured result proposed")),
        "run.terminal" => format_compact!("Run {}", str_or(p, "runTerminalState", "terminal")),
        "runner.diagnostic" | "harness.diagnostic" => {
            if let Some(message) = non_empty(p, "message") {
                Str::from(message)
            } else {
                Str::from(js::upper_first(&non_empty(p, "code")?.replace('_', " ")))
            }
        }
        "runtime_request.created" => {
            let r = runtime_request(event);
            let kind = str_or(r, "type", "runtime");
            match str_or(r, "prompt", "") {
                "" => format_compact!("{kind} request"),
                prompt => format_compact!("{kind}: {prompt}"),
            }
        }
        "runtime_request.resolved" => settled("Resolved", p, requests),
        "runtime_request.expired" => settled("Expired", p, requests),
        "runtime_request.cancelled" => settled("Cancelled", p, requests),
        _ => return None,
    };
    Some(text)
}

/// The summary of a request's resolution, expiry or cancellation.
fn settled(
    action: &str,
    p: Option<&Map<String, Value>>,
    requests: &IndexMap<String, Request>,
) -> Str {
    let id = p.and_then(|p| p.get("requestId")).and_then(Value::as_str);
    match id.and_then(|id| requests.get(id)) {
        Some(req) if req.prompt.is_empty() => {
            format_compact!("{action} {} request", req.request_type)
        }
        Some(req) => format_compact!("{action} {}: {}", req.request_type, req.prompt),
        None => Str::from(js::trim(&format!(
            "{action} runtime request {}",
            id.unwrap_or("")
        ))),
    }
}
