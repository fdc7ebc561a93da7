//! Reduction (PROTOCOL §2.2) and applying one event (§2.3): per-source cursors, duplicate
//! deliveries, stale and out-of-order events, gaps and integrity.
//!
//! Every step is a lookup in a table that stays small (see `processed` for the one that would not)
//! or an append, so the work per event does not grow with the session.

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use super::event::{EventView, ReplayEvent};
use super::js::Utf16Ordered;
use super::projection::project;
use super::snapshot::Snapshot;
use super::state::{Gap, Integrity, MAX_GAP_MISSING};
use crate::issue::Issue;

/// Events [`Snapshot::reduce`] probes and records together: enough for the probes' cache misses
/// to overlap, few enough for the chunk's bookkeeping to stay in the L1 cache.
const CHUNK: usize = 256;

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
    /// All-or-nothing: if any event has no view (see [`ReplayEvent::view`]), the snapshot is left
    /// unchanged and the error points at `/<index>/<member>`. Reducing an applied batch again
    /// changes nothing. A duplicate split across two calls is dropped but not listed, as the spec
    /// says (rule 1 counts within one call).
    pub fn reduce<E: ReplayEvent>(&mut self, events: &[E]) -> Result<BatchOutcome, Issue> {
        // Pass 1: view every event, hash its id, and find each id's first delivery in the batch.
        let mut views: Vec<EventView<'_>> = Vec::with_capacity(events.len());
        let mut hashes: Vec<u64> = Vec::with_capacity(events.len());
        let mut first: Vec<usize> = Vec::with_capacity(events.len());
        let mut seen: HashTable<usize> = HashTable::with_capacity(events.len());
        let mut repeated: Vec<&str> = Vec::new();
        for (index, event) in events.iter().enumerate() {
            let view = event.view().map_err(|e| e.under(&format!("/{index}")))?;
            let id = view.source_event_id;
            let hash = self.processed.hash(id);
            let earlier = seen.entry(hash, |&j| views[j].source_event_id == id, |&j| hashes[j]);
            match earlier {
                Entry::Occupied(o) => {
                    repeated.push(id);
                    first.push(*o.get());
                }
                Entry::Vacant(v) => {
                    v.insert(index);
                    first.push(index);
                }
            }
            views.push(view);
            hashes.push(hash);
        }
        drop(seen);
        for id in repeated {
            // A set: an id already listed, by this batch or an earlier one, is listed once.
            self.duplicates.insert(Utf16Ordered(id.to_owned()));
        }
        // Pass 2: apply, a chunk at a time. `applied[first[i]]`: an earlier delivery of event
        // i's id in this batch was applied.
        let mut applied = vec![false; events.len()];
        let mut known: Vec<bool> = Vec::with_capacity(CHUNK);
        let mut recorded: Vec<(u64, usize)> = Vec::with_capacity(CHUNK);
        let mut outcome = BatchOutcome::default();
        for start in (0..events.len()).step_by(CHUNK) {
            let chunk = start..events.len().min(start + CHUNK);
            // Which ids were applied before this chunk, probed together (see `processed`).
            let chunk_ids = chunk.clone().map(|i| (hashes[i], views[i].source_event_id));
            self.processed
                .contains_each(&self.timeline, chunk_ids, &mut known);
            recorded.clear();
            for (i, &was_known) in chunk.clone().zip(&known) {
                if was_known || applied[first[i]] {
                    outcome.already_processed += 1;
                    continue;
                }
                match self.apply_unprocessed(&views[i]) {
                    Outcome::Applied => {
                        applied[first[i]] = true;
                        recorded.push((hashes[i], self.timeline.len() - 1));
                        outcome.applied += 1;
                    }
                    Outcome::OutOfOrder => outcome.out_of_order += 1,
                    Outcome::AlreadyProcessed => outcome.already_processed += 1,
                }
            }
            for &(hash, index) in &recorded {
                self.processed.insert(hash, index);
            }
        }
        Ok(outcome)
    }

    /// Applies one event (PROTOCOL §2.3), without the batch duplicate listing of
    /// [`Snapshot::reduce`].
    pub fn apply<E: ReplayEvent>(&mut self, event: &E) -> Result<Outcome, Issue> {
        Ok(self.apply_view(&event.view()?))
    }

    fn apply_view(&mut self, event: &EventView<'_>) -> Outcome {
        // 1. A repeated delivery changes nothing.
        let hash = self.processed.hash(event.source_event_id);
        if self
            .processed
            .contains(&self.timeline, hash, event.source_event_id)
        {
            return Outcome::AlreadyProcessed;
        }
        let outcome = self.apply_unprocessed(event);
        if outcome == Outcome::Applied {
            self.processed.insert(hash, self.timeline.len() - 1);
        }
        outcome
    }

    /// Steps 2 to 8 of applying an event whose id is not among the processed; the caller records
    /// the id if the event is applied (it is then the last timeline entry).
    fn apply_unprocessed(&mut self, event: &EventView<'_>) -> Outcome {
        // 2. The source's cursor.
        self.key_buffer.clear();
        self.key_buffer.push_str(event.source_kind);
        self.key_buffer.push(':');
        self.key_buffer.push_str(event.source_instance_id);
        let slot = self.source_cursors.get_index_of(self.key_buffer.as_str());
        let cursor = slot.map_or(0, |i| self.source_cursors[i]);
        // 3. Stale or out of order: listed, never applied.
        if event.source_seq <= cursor {
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
        // 5. The cursor.
        match slot {
            Some(i) => self.source_cursors[i] = event.source_seq,
            None => {
                self.source_cursors
                    .insert(self.key_buffer.clone(), event.source_seq);
            }
        }
        // 6. The timeline entry, summarised before the projection.
        self.timeline.push(event, &self.requests);
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
