//! `processedEventIds` (PROTOCOL §2.3 rule 1) as a hash index over the timeline.
//!
//! Every applied event has exactly one timeline entry, in application order, so the ids already
//! live there and this table maps an id's hash to its entry's position. A slot keeps the full
//! hash: a probe reads the entry only when the hashes agree, and growing the table never goes back
//! to the entries, whose order is unrelated to the table's.
//!
//! Past a few hundred thousand ids the table outgrows the CPU caches and every probe is a miss.
//! [`Snapshot::reduce`](super::Snapshot::reduce) therefore probes and records a chunk of events
//! at a time, in loops whose iterations do not depend on each other, so that the misses overlap
//! instead of being paid one after another.

use hashbrown::DefaultHashBuilder;
use hashbrown::HashTable;
use std::hash::BuildHasher;

use super::timeline::TimelineEntry;

#[derive(Debug, Clone, Copy)]
struct Slot {
    hash: u64,
    /// Position of the entry in the timeline.
    index: usize,
}

/// The ids of the applied events.
#[derive(Debug, Clone, Default)]
pub(super) struct ProcessedIds {
    table: HashTable<Slot>,
    hasher: DefaultHashBuilder,
}

impl ProcessedIds {
    /// The hash [`ProcessedIds::contains`] and [`ProcessedIds::insert`] take.
    pub(super) fn hash(&self, id: &str) -> u64 {
        self.hasher.hash_one(id)
    }

    /// Whether `id`, whose hash is `hash`, is the `sourceEventId` of an entry of `timeline`.
    pub(super) fn contains(&self, timeline: &[TimelineEntry], hash: u64, id: &str) -> bool {
        self.table
            .find(hash, |s| {
                s.hash == hash
                    && timeline
                        .get(s.index)
                        .is_some_and(|e| *e.source_event_id == *id)
            })
            .is_some()
    }

    /// Makes room for `additional` ids, so that recording them never grows the table midway.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.table.reserve(additional, |s| s.hash);
    }

    /// Records the id hashed as `hash` as the `sourceEventId` of the entry at `index`; the caller
    /// has checked that it is not there yet.
    pub(super) fn insert(&mut self, hash: u64, index: usize) {
        self.table
            .insert_unique(hash, Slot { hash, index }, |s| s.hash);
    }
}
