//! Reduction (PROTOCOL §2.2) and applying one event (§2.3): per-source cursors, duplicate
//! deliveries, stale and out-of-order events, gaps and integrity.
//!
//! Every step is a hash lookup or an append, so an event costs the same at the millionth position
//! as at the first.

use std::sync::Arc;

use indexmap::IndexSet;
use serde::Serialize;
use serde_json::Value;

use super::error::ReduceError;
use super::event::EventView;
use super::js::Utf16Ordered;
use super::projection::project;
use super::snapshot::{Integrity, Snapshot};
use super::timeline::TimelineEntry;

/// The most missing sequence numbers a gap lists.
pub const MAX_GAP_MISSING: u64 = 256;

/// A hole in one source stream: `expected` was next, `received` arrived.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gap {
    /// `sourceKind:sourceInstanceId`.
    pub source_key: String,
    /// The cursor + 1.
    pub expected: u64,
    /// The `sourceSeq` that arrived instead.
    pub received: u64,
    /// `received − expected`.
    pub missing_count: u64,
    /// `expected, expected + 1, …`, at most [`MAX_GAP_MISSING`] numbers.
    pub missing: Vec<u64>,
    /// Whether `missing` lists fewer than `missing_count` numbers.
    pub truncated: bool,
}

/// What [`Snapshot::apply`] did with one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The event was applied: a timeline entry, its projection, its cursor.
    Applied,
    /// Its `sourceEventId` was already applied: nothing changed.
    AlreadyProcessed,
    /// Its `sourceSeq` is not past its source's cursor: listed as out of order, not applied.
    OutOfOrder,
}

/// Counts of what [`Snapshot::reduce`] did with a batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BatchOutcome {
    /// Events applied.
    pub applied: usize,
    /// Events skipped because their `sourceEventId` was already applied.
    pub already_processed: usize,
    /// Events skipped as stale or out of order.
    pub out_of_order: usize,
}

impl Snapshot {
    /// `reduce(snapshot, events)`: lists the ids delivered more than once within this batch, then
    /// applies each event in order.
    ///
    /// All-or-nothing on shape: if any event lacks a member the reducer reads, the snapshot is
    /// left unchanged and the error points at `/<index>/<member>`. Reducing an applied batch again
    /// changes nothing. A duplicate split across two calls is dropped but not listed, as the spec
    /// says (rule 1 counts within one call).
    pub fn reduce(&mut self, events: &[Value]) -> Result<BatchOutcome, ReduceError> {
        // Pass 1: check every event and count deliveries per id within the batch.
        let mut seen: IndexSet<&str> = IndexSet::new();
        let mut repeated: Vec<&str> = Vec::new();
        for (index, event) in events.iter().enumerate() {
            let view = EventView::from_value(event).map_err(|e| e.under(&format!("/{index}")))?;
            if events.len() > 1 && !seen.insert(view.source_event_id) {
                repeated.push(view.source_event_id);
            }
        }
        drop(seen);
        for id in repeated {
            // A set: an id already listed, by this batch or an earlier one, is listed once.
            self.duplicates.insert(Utf16Ordered(id.to_owned()));
        }
        // Pass 2: apply. Re-reading the members is cheaper than keeping a view per event.
        let mut outcome = BatchOutcome::default();
        for (index, event) in events.iter().enumerate() {
            let view = EventView::from_value(event).map_err(|e| e.under(&format!("/{index}")))?;
            match self.apply_view(&view) {
                Outcome::Applied => outcome.applied += 1,
                Outcome::AlreadyProcessed => outcome.already_processed += 1,
                Outcome::OutOfOrder => outcome.out_of_order += 1,
            }
        }
        Ok(outcome)
    }

    /// Applies one event (PROTOCOL §2.3), without the batch duplicate listing of
    /// [`Snapshot::reduce`].
    pub fn apply(&mut self, event: &Value) -> Result<Outcome, ReduceError> {
        Ok(self.apply_view(&EventView::from_value(event)?))
    }

    /// Applies one already-read event.
    pub fn apply_view(&mut self, event: &EventView<'_>) -> Outcome {
        // 1. A repeated delivery changes nothing. Inserting first costs one hash on the common
        // path; the rare stale event below takes its id out again.
        let id: Arc<str> = Arc::from(event.source_event_id);
        if !self.processed.insert(Arc::clone(&id)) {
            return Outcome::AlreadyProcessed;
        }
        // 2. The source's cursor.
        self.key_buffer.clear();
        self.key_buffer.push_str(event.source_kind);
        self.key_buffer.push(':');
        self.key_buffer.push_str(event.source_instance_id);
        let slot = self.source_cursors.get_index_of(self.key_buffer.as_str());
        let cursor = slot.map_or(0, |i| self.source_cursors[i]);
        // 3. Stale or out of order: listed, never applied.
        if event.source_seq <= cursor {
            // It was inserted last, so popping takes exactly it out, in O(1).
            self.processed.pop();
            if !self.out_of_order.contains(event.source_event_id) {
                self.out_of_order.insert(event.source_event_id.to_owned());
            }
            self.integrity = Integrity::GapDetected;
            return Outcome::OutOfOrder;
        }
        // 4. A gap is recorded, and the event applied anyway.
        let expected = cursor + 1;
        if event.source_seq > expected {
            self.record_gap(expected, event.source_seq);
        }
        // 5. The cursor (the id is already among the processed).
        match slot {
            Some(i) => self.source_cursors[i] = event.source_seq,
            None => {
                self.source_cursors
                    .insert(self.key_buffer.clone(), event.source_seq);
            }
        }
        // 6. The timeline entry, summarised before the projection.
        let entry = TimelineEntry::new(event, id, &self.requests);
        self.timeline.push(entry);
        // 7. The projection.
        project(self, event);
        // 8. Integrity.
        self.integrity = if self.gaps.is_empty() && self.out_of_order.is_empty() {
            Integrity::Complete
        } else {
            Integrity::GapDetected
        };
        Outcome::Applied
    }

    /// Appends a gap for the source in `key_buffer`, unless the same one is already listed.
    fn record_gap(&mut self, expected: u64, received: u64) {
        let dedupe = (self.key_buffer.clone(), expected, received);
        if self.gap_keys.contains(&dedupe) {
            return;
        }
        let missing_count = received - expected;
        let listed = missing_count.min(MAX_GAP_MISSING);
        let missing: Vec<u64> = (expected..expected + listed).collect();
        self.gaps.push(Gap {
            source_key: self.key_buffer.clone(),
            expected,
            received,
            missing_count,
            truncated: (missing.len() as u64) < missing_count,
            missing,
        });
        self.gap_keys.insert(dedupe);
    }
}
