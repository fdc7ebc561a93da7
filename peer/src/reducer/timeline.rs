//! Timeline entries and their summary strings (PROTOCOL §2.4).

use std::borrow::Cow;
use std::ops::Range;

use hashbrown::DefaultHashBuilder;
use indexmap::{IndexMap, IndexSet};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::event::{EventView, non_empty, runtime_request, str_or, string};
use super::js;
use super::state::Request;
use crate::Str;
use prp_codegen_runtime::Fields;

/// The timeline (PROTOCOL §2.4): one entry per applied event, in application order; an entry's
/// `position` is its index + 1.
///
/// Entries are fixed-size records over one append-only text buffer, and event types are interned,
/// so appending an entry allocates nothing of its own, however long its strings. A long session
/// then grows two arrays instead of leaving millions of small blocks across the heap, which would
/// slow down every later allocation of the process (the caller's too) and cost page after page of
/// fresh memory.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    records: Vec<Record>,
    /// Every entry's strings, back to back: `sourceEventId`, `emittedAt`, `itemId`, summary.
    text: String,
    /// Event types, in first-seen order; a record holds an index.
    types: IndexSet<Str, DefaultHashBuilder>,
}

/// One entry of [`Timeline`]; 48 bytes.
#[derive(Debug, Clone, Copy)]
struct Record {
    /// `sourceSeq` (at most 2^53 − 1) in the low bits, and [`HAS_ITEM`] and [`HAS_SUMMARY`].
    seq_and_flags: u64,
    /// Where the entry's id, emission time, item id and summary end in `text`. The id starts where
    /// the previous entry's summary ends.
    ends: [usize; 4],
    /// Index of the event type in `types`.
    event_type: u32,
}

/// The event had an `itemId`.
const HAS_ITEM: u64 = 1 << 62;
/// The summary is stored; without it, it is the default rule (the event type, `.` as spaces).
const HAS_SUMMARY: u64 = 1 << 63;

impl Timeline {
    /// Appends the entry of `event`, about to be projected onto a snapshot whose requests are
    /// `requests`.
    pub(super) fn push(&mut self, event: &EventView<'_>, requests: &IndexMap<String, Request>) {
        let text = &mut self.text;
        text.push_str(event.source_event_id);
        let id_end = text.len();
        text.push_str(event.emitted_at);
        let emitted_end = text.len();
        let mut flags = 0;
        if let Some(item_id) = event.item_id {
            text.push_str(item_id);
            flags |= HAS_ITEM;
        }
        let item_end = text.len();
        if write_summary(text, event, requests) {
            flags |= HAS_SUMMARY;
        }
        let summary_end = text.len();
        let event_type = match self.types.get_index_of(event.event_type) {
            Some(index) => index,
            None => self.types.insert_full(Str::from(event.event_type)).0,
        };
        self.records.push(Record {
            // `EventView` keeps `sourceSeq` within 2^53 − 1, clear of the flag bits.
            seq_and_flags: event.source_seq | flags,
            ends: [id_end, emitted_end, item_end, summary_end],
            // Each event adds at most one type, and 2^32 events do not fit in memory.
            event_type: u32::try_from(event_type).unwrap_or(u32::MAX),
        });
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no event was applied yet.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The entry at `index` (its `position` is `index + 1`).
    pub fn get(&self, index: usize) -> Option<TimelineEntry<'_>> {
        let record = self.records.get(index)?;
        let start = self.start(index);
        let [id_end, emitted_end, item_end, summary_end] = record.ends;
        let flags = record.seq_and_flags;
        let text = |from: usize, to: usize| self.text.get(from..to).unwrap_or_default();
        Some(TimelineEntry {
            source_event_id: text(start, id_end),
            source_seq: flags & !(HAS_ITEM | HAS_SUMMARY),
            event_type: self
                .types
                .get_index(record.event_type as usize)
                .map_or("", |t| t),
            emitted_at: text(id_end, emitted_end),
            item_id: (flags & HAS_ITEM != 0).then(|| text(emitted_end, item_end)),
            summary: (flags & HAS_SUMMARY != 0).then(|| text(item_end, summary_end)),
        })
    }

    /// The `sourceEventId` of the entry at `index`.
    pub(super) fn source_event_id(&self, index: usize) -> Option<&str> {
        self.text
            .get(self.start(index)..self.records.get(index)?.ends[0])
    }

    /// Where the strings of the entry at `index` start: where the previous entry's summary ends.
    fn start(&self, index: usize) -> usize {
        index
            .checked_sub(1)
            .and_then(|i| self.records.get(i))
            .map_or(0, |r| r.ends[3])
    }

    /// The entries, oldest first.
    pub fn iter(&self) -> Entries<'_> {
        Entries {
            timeline: self,
            indexes: 0..self.len(),
        }
    }
}

impl<'a> IntoIterator for &'a Timeline {
    type Item = TimelineEntry<'a>;
    type IntoIter = Entries<'a>;

    fn into_iter(self) -> Entries<'a> {
        self.iter()
    }
}

/// The entries of a [`Timeline`], from [`Timeline::iter`].
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    timeline: &'a Timeline,
    indexes: Range<usize>,
}

impl<'a> Iterator for Entries<'a> {
    type Item = TimelineEntry<'a>;

    fn next(&mut self) -> Option<TimelineEntry<'a>> {
        self.timeline.get(self.indexes.next()?)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.indexes.size_hint()
    }
}

impl DoubleEndedIterator for Entries<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.timeline.get(self.indexes.next_back()?)
    }
}

impl ExactSizeIterator for Entries<'_> {}

/// One applied event on the timeline, read from a [`Timeline`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimelineEntry<'a> {
    source_event_id: &'a str,
    source_seq: u64,
    event_type: &'a str,
    emitted_at: &'a str,
    item_id: Option<&'a str>,
    /// `None` when the summary is the default rule, derived from the event type on demand.
    summary: Option<&'a str>,
}

impl<'a> TimelineEntry<'a> {
    /// `sourceEventId`.
    pub fn source_event_id(&self) -> &'a str {
        self.source_event_id
    }

    /// `sourceSeq`.
    pub fn source_seq(&self) -> u64 {
        self.source_seq
    }

    /// `eventType`.
    pub fn event_type(&self) -> &'a str {
        self.event_type
    }

    /// `emittedAt`.
    pub fn emitted_at(&self) -> &'a str {
        self.emitted_at
    }

    /// `itemId`, when the event had one.
    pub fn item_id(&self) -> Option<&'a str> {
        self.item_id
    }

    /// `summary`.
    pub fn summary(&self) -> Cow<'a, str> {
        match self.summary {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(self.event_type.replace('.', " ")),
        }
    }

    /// The golden form of the entry at `index` (its `position` is `index + 1`).
    pub(super) fn golden(self, index: usize) -> GoldenEntry<'a> {
        GoldenEntry { entry: self, index }
    }
}

/// A timeline entry in golden key order.
pub(super) struct GoldenEntry<'a> {
    entry: TimelineEntry<'a>,
    index: usize,
}

impl Serialize for GoldenEntry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = &self.entry;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("position", &(self.index + 1))?;
        m.serialize_entry("sourceEventId", e.source_event_id)?;
        m.serialize_entry("sourceSeq", &e.source_seq)?;
        m.serialize_entry("eventType", e.event_type)?;
        m.serialize_entry("emittedAt", e.emitted_at)?;
        if let Some(item_id) = e.item_id {
            m.serialize_entry("itemId", item_id)?;
        }
        m.serialize_entry("summary", e.summary().as_ref())?;
        m.end()
    }
}

/// Appends to `out` the summary of `event`, computed before its projection; `false`, with nothing
/// written, for the default rule (the event type with every `.` replaced by a space).
fn write_summary(
    out: &mut String,
    event: &EventView<'_>,
    requests: &IndexMap<String, Request>,
) -> bool {
    let p = Some(event.payload);
    match event.event_type {
        "runtime.phase.changed" => {
            // The whole sentence has `_` replaced; the fixed part has none.
            out.push_str("Phase changed to ");
            out.extend(str_or(p, "phase", "unknown").chars().map(|c| match c {
                '_' => ' ',
                c => c,
            }));
        }
        "item.started" => push_all(out, &["Started ", str_or(p, "kind", "item")]),
        "item.delta" => out.push_str(str_or(p, "text", "Item updated")),
        "item.completed" => push_all(out, &["Completed ", str_or(p, "kind", "item")]),
        "item.failed" => out.push_str(str_or(p, "message", "Item failed")),
        "run.result.proposed" => out.push_str(str_or(p, "summary", "Structured result proposed")),
        "run.terminal" => push_all(out, &["Run ", str_or(p, "runTerminalState", "terminal")]),
        "runner.diagnostic" | "harness.diagnostic" => {
            if let Some(message) = non_empty(p, "message") {
                out.push_str(message);
            } else if let Some(code) = non_empty(p, "code") {
                out.push_str(&js::upper_first(&code.replace('_', " ")));
            } else {
                return false;
            }
        }
        "runtime_request.created" => {
            let r = runtime_request(event);
            let kind = str_or(r, "type", "runtime");
            match str_or(r, "prompt", "") {
                "" => push_all(out, &[kind, " request"]),
                prompt => push_all(out, &[kind, ": ", prompt]),
            }
        }
        "runtime_request.resolved" => settled(out, "Resolved", p, requests),
        "runtime_request.expired" => settled(out, "Expired", p, requests),
        "runtime_request.cancelled" => settled(out, "Cancelled", p, requests),
        _ => return false,
    }
    true
}

fn push_all(out: &mut String, parts: &[&str]) {
    for part in parts {
        out.push_str(part);
    }
}

/// Appends the summary of a request's resolution, expiry or cancellation.
fn settled(
    out: &mut String,
    action: &str,
    p: Option<&dyn Fields>,
    requests: &IndexMap<String, Request>,
) {
    let id = p.and_then(|p| string(p, "requestId"));
    match id.and_then(|id| requests.get(id)) {
        Some(req) if req.prompt.is_empty() => {
            push_all(out, &[action, " ", &req.request_type, " request"]);
        }
        Some(req) => push_all(out, &[action, " ", &req.request_type, ": ", &req.prompt]),
        None => {
            // JavaScript's trim of the whole sentence: only its end can hold white space.
            let start = out.len();
            push_all(out, &[action, " runtime request ", id.unwrap_or("")]);
            let kept = js::trim(&out[start..]).len();
            out.truncate(start + kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    /// An event's members, with a JSON payload: ids and types a schema would refuse (empty ids,
    /// unknown types) still have to print right.
    struct Ev {
        id: &'static str,
        seq: u64,
        event_type: &'static str,
        item: Option<&'static str>,
        payload: Map<String, Value>,
        emitted_at: String,
    }

    fn event(
        id: &'static str,
        seq: u64,
        event_type: &'static str,
        item: Option<&'static str>,
        payload: Value,
    ) -> Ev {
        let Value::Object(payload) = payload else {
            panic!("a payload object")
        };
        Ev {
            id,
            seq,
            event_type,
            item,
            payload,
            emitted_at: format!("2026-01-01T00:00:0{}Z", seq % 10),
        }
    }

    impl Ev {
        fn view(&self) -> EventView<'_> {
            EventView {
                source_event_id: self.id,
                source_seq: self.seq,
                source_kind: "runner",
                source_instance_id: "r",
                event_type: self.event_type,
                emitted_at: &self.emitted_at,
                turn_id: None,
                item_id: self.item,
                payload: &self.payload,
                kept: None,
                plan: None,
            }
        }
    }

    #[test]
    fn entries_read_back_what_was_pushed() {
        let events = [
            event("", 1, "item.delta", Some(""), json!({"text": ""})),
            event("é-2", 2, "future.kind", None, json!({})),
            event(
                "e3",
                9_007_199_254_740_991,
                "item.delta",
                Some("i😀"),
                json!({"text": "ß"}),
            ),
            event("e4", 4, "future.kind", Some("i"), json!({})),
            event(
                "e5",
                5,
                "runtime_request.resolved",
                None,
                json!({"requestId": " \u{feff}"}),
            ),
        ];
        let mut timeline = Timeline::default();
        for e in &events {
            timeline.push(&e.view(), &IndexMap::new());
        }
        let got: Vec<_> = timeline
            .iter()
            .map(|e| {
                let summary = e.summary().into_owned();
                let (id, seq, ty, at, item) = (
                    e.source_event_id(),
                    e.source_seq(),
                    e.event_type(),
                    e.emitted_at(),
                    e.item_id(),
                );
                (id, seq, ty, at, item, summary)
            })
            .collect();
        let at = |n: u64| format!("2026-01-01T00:00:0{n}Z");
        assert_eq!(
            got,
            [
                ("", 1, "item.delta", &*at(1), Some(""), String::new()),
                (
                    "é-2",
                    2,
                    "future.kind",
                    &*at(2),
                    None,
                    "future kind".to_owned()
                ),
                (
                    "e3",
                    9_007_199_254_740_991,
                    "item.delta",
                    &*at(1),
                    Some("i😀"),
                    "ß".to_owned()
                ),
                (
                    "e4",
                    4,
                    "future.kind",
                    &*at(4),
                    Some("i"),
                    "future kind".to_owned()
                ),
                (
                    "e5",
                    5,
                    "runtime_request.resolved",
                    &*at(5),
                    None,
                    "Resolved runtime request".to_owned()
                ),
            ]
        );
        assert_eq!(timeline.types.len(), 3, "event types are stored once");
        assert_eq!(timeline.source_event_id(1), Some("é-2"));
        assert_eq!(timeline.source_event_id(5), None);
        assert_eq!(timeline.iter().next_back().map(|e| e.source_seq()), Some(5));
    }
}
