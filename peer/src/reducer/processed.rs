//! `processedEventIds` (PROTOCOL §2.3 rule 1) as a hash index over the timeline.
//!
//! Every applied event has exactly one timeline entry, in application order, so the ids already
//! live there and the index maps an id's hash to its entry's position. A slot keeps the full hash:
//! a probe reads the entry only when the hashes agree, and growing a table never goes back to the
//! entries.
//!
//! One table for the whole session would outgrow the CPU caches and the TLB's reach (32 MiB at a
//! million events), and every event would pay for a random write into it. So the ids are kept in
//! generations: the latest [`GENERATION`] ids in a table of about 1 MiB, which stays in cache, and
//! full generations frozen behind a Bloom filter of about 2 bytes per id. A new id is looked up in
//! the current table and the filter only; the frozen tables are probed when the filter cannot rule
//! the id out (a small fraction of new ids, and true repeats).

use hashbrown::DefaultHashBuilder;
use hashbrown::HashTable;
use std::hash::BuildHasher;

use super::timeline::Timeline;

/// Ids per generation: what a table of 65,536 buckets holds before it would grow (7/8 full).
const GENERATION: usize = 57_344;

#[derive(Debug, Clone, Copy)]
struct Slot {
    hash: u64,
    /// Position of the entry in the timeline.
    index: usize,
}

/// The ids of the applied events.
#[derive(Debug, Clone, Default)]
pub(super) struct ProcessedIds {
    hasher: DefaultHashBuilder,
    /// The latest ids, at most [`GENERATION`].
    current: HashTable<Slot>,
    /// Full generations, oldest first.
    frozen: Vec<HashTable<Slot>>,
    /// Every id of `frozen`.
    filter: Filter,
}

impl ProcessedIds {
    /// The hash [`ProcessedIds::contains`] and [`ProcessedIds::insert`] take.
    pub(super) fn hash(&self, id: &str) -> u64 {
        self.hasher.hash_one(id)
    }

    /// Whether `id`, whose hash is `hash`, is the `sourceEventId` of an entry of `timeline`.
    pub(super) fn contains(&self, timeline: &Timeline, hash: u64, id: &str) -> bool {
        self.in_tables(timeline, hash, id, self.filter.may_contain(hash))
    }

    /// [`ProcessedIds::contains`] for many ids at once, into `known`: the filter is read for all of
    /// them first, in a loop whose cache misses overlap, then the tables.
    pub(super) fn contains_each<'a>(
        &self,
        timeline: &Timeline,
        ids: impl Iterator<Item = (u64, &'a str)> + Clone,
        known: &mut Vec<bool>,
    ) {
        known.clear();
        known.extend(ids.clone().map(|(hash, _)| self.filter.may_contain(hash)));
        for ((hash, id), known) in ids.zip(known.iter_mut()) {
            *known = self.in_tables(timeline, hash, id, *known);
        }
    }

    /// Whether the current table has `id`, or, if the filter allows (`maybe_frozen`), a frozen one.
    fn in_tables(&self, timeline: &Timeline, hash: u64, id: &str, maybe_frozen: bool) -> bool {
        let same = |s: &Slot| s.hash == hash && timeline.source_event_id(s.index) == Some(id);
        // Repeats are usually recent: newest generation first.
        self.current.find(hash, same).is_some()
            || (maybe_frozen
                && self
                    .frozen
                    .iter()
                    .rev()
                    .any(|t| t.find(hash, same).is_some()))
    }

    /// Records the id hashed as `hash` as the `sourceEventId` of the entry at `index`; the caller
    /// has checked that it is not there yet.
    pub(super) fn insert(&mut self, hash: u64, index: usize) {
        if self.current.len() == GENERATION {
            self.freeze();
        }
        self.current
            .insert_unique(hash, Slot { hash, index }, |s| s.hash);
    }

    /// Moves the full current generation behind the filter.
    fn freeze(&mut self) {
        // The session has outgrown one generation, so the next ones are allocated at full size at
        // once instead of growing by doubling.
        let full = std::mem::replace(&mut self.current, HashTable::with_capacity(GENERATION));
        let ids = (self.frozen.len() + 1) * GENERATION;
        if ids > self.filter.capacity() {
            // Rebuilt from the hashes in the slots; its size doubles at least, so rebuilding costs
            // a constant per id overall.
            self.filter = Filter::with_capacity(ids);
            for table in &self.frozen {
                table.iter().for_each(|s| self.filter.insert(s.hash));
            }
        }
        full.iter().for_each(|s| self.filter.insert(s.hash));
        self.frozen.push(full);
    }
}

/// A split-block Bloom filter: an id sets one bit in each of the eight 32-bit words of one 256-bit
/// block, so a lookup reads a single cache line.
#[derive(Debug, Clone, Default)]
struct Filter {
    blocks: Vec<[u32; 8]>,
}

/// Odd multipliers that spread one 32-bit key over the eight words' bit positions.
const SALT: [u32; 8] = [
    0x47b6_137b,
    0x4497_4d91,
    0x8824_ad5b,
    0xa2b7_289d,
    0x7054_95c7,
    0x2df1_424b,
    0x9efc_4947,
    0x5c6b_fb31,
];

/// Bits of filter per id it is sized for (at least; the block count is rounded up).
const BITS_PER_ID: usize = 16;

impl Filter {
    /// A filter for `ids` ids (a power of two of blocks).
    fn with_capacity(ids: usize) -> Self {
        let blocks = (ids * BITS_PER_ID / 256).next_power_of_two();
        Filter {
            blocks: vec![[0; 8]; blocks],
        }
    }

    /// The ids this filter is sized for.
    fn capacity(&self) -> usize {
        self.blocks.len() * 256 / BITS_PER_ID
    }

    /// The block of `hash` (high half) and the bit in each word (low half).
    fn locate(&self, hash: u64) -> (usize, [u32; 8]) {
        // The block count is a power of two; a filter with no blocks is never consulted.
        let block = (hash >> 32) as usize & self.blocks.len().wrapping_sub(1);
        let key = hash as u32;
        (block, SALT.map(|salt| 1 << (key.wrapping_mul(salt) >> 27)))
    }

    fn insert(&mut self, hash: u64) {
        let (block, bits) = self.locate(hash);
        for (word, bit) in self.blocks[block].iter_mut().zip(bits) {
            *word |= bit;
        }
    }

    fn may_contain(&self, hash: u64) -> bool {
        if self.blocks.is_empty() {
            return false;
        }
        let (block, bits) = self.locate(hash);
        self.blocks[block]
            .iter()
            .zip(bits)
            .all(|(word, bit)| word & bit != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_never_forgets_and_rarely_guesses() {
        let hasher = DefaultHashBuilder::default();
        let mut filter = Filter::with_capacity(100_000);
        for i in 0..100_000u32 {
            filter.insert(hasher.hash_one(i));
        }
        assert!((0..100_000u32).all(|i| filter.may_contain(hasher.hash_one(i))));
        let false_positives = (100_000..1_100_000u32)
            .filter(|i| filter.may_contain(hasher.hash_one(i)))
            .count();
        // At 16 bits per id or more, well under 1% (about 0.1%).
        assert!(false_positives < 5_000, "{false_positives} in 1,000,000");
    }
}
