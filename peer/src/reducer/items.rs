//! `items` (PROTOCOL §2.5): each item's kind, status and text, in first-seen order.

use std::hash::BuildHasher;
use std::ops::Range;

use hashbrown::{DefaultHashBuilder, HashTable};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::Str;

/// `items[].status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemStatus {
    /// Started or updated by a delta, not yet ended.
    Running,
    /// Ended by `item.completed`.
    Completed,
    /// Ended by `item.failed`.
    Failed,
}

impl ItemStatus {
    /// The golden spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Running => "running",
            ItemStatus::Completed => "completed",
            ItemStatus::Failed => "failed",
        }
    }
}

/// One item of the snapshot, read from [`Items`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item<'a> {
    /// `itemId`.
    pub id: &'a str,
    /// `kind`: the last string `payload.kind`, `diagnostic` if none was ever given.
    pub kind: &'a str,
    /// `status`.
    pub status: ItemStatus,
    /// `text`: deltas appended, replaced by a non-empty text of a start, completion or failure.
    pub text: &'a str,
}

impl Serialize for Item<'_> {
    /// The golden form.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("itemId", self.id)?;
        m.serialize_entry("kind", self.kind)?;
        m.serialize_entry("status", self.status.as_str())?;
        m.serialize_entry("text", self.text)?;
        m.end()
    }
}

/// `items` (PROTOCOL §2.5), in first-seen order.
///
/// Ids and texts live in one text buffer, as the timeline's strings do, so that a long session
/// does not leave a few small heap blocks per item, reallocated by every delta, across the heap.
/// A text has room reserved after it (NUL padding, never read); a delta that does not fit moves
/// the text to the end of the buffer with twice the room, so appending stays amortised O(1)
/// while deltas interleave across items. What a move leaves behind is unused bytes, about as many
/// as the live text; a replaced text leaves its old bytes too, so the buffer stays within a small
/// multiple of the item text the session received.
#[derive(Debug, Clone, Default)]
pub struct Items {
    records: Vec<ItemRecord>,
    /// Positions in `records`, by id.
    index: HashTable<usize>,
    hasher: DefaultHashBuilder,
    text: String,
    /// The item whose text (with its room) ends `text`, and may grow or shrink there; every other
    /// item's bytes come before that text's start.
    last: Option<usize>,
    /// The items touched last, most recent first: deltas stream into a few items at a time, and
    /// finding those here spares a probe of `index`, which in a long session no longer fits the
    /// CPU caches. Positions are stable because items are never removed.
    recent: [Option<usize>; RECENT_ITEMS],
}

/// How many recently touched items [`Items`] remembers.
const RECENT_ITEMS: usize = 4;

#[derive(Debug, Clone)]
struct ItemRecord {
    hash: u64,
    /// The id's bytes in `text`.
    id: Range<usize>,
    kind: Str,
    status: ItemStatus,
    /// Where the text starts in `text`, its length, and the room reserved for it.
    start: usize,
    len: usize,
    room: usize,
}

impl Items {
    /// The number of items.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there is no item.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The item whose `itemId` is `id`.
    pub fn get(&self, id: &str) -> Option<Item<'_>> {
        let hash = self.hasher.hash_one(id);
        let position = *self.index.find(hash, |&i| self.has_id(i, id))?;
        Some(self.view(self.records.get(position)?))
    }

    /// The items, in first-seen order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Item<'_>> + ExactSizeIterator + Clone {
        self.records.iter().map(|r| self.view(r))
    }

    fn view<'a>(&'a self, r: &'a ItemRecord) -> Item<'a> {
        Item {
            id: self.text.get(r.id.clone()).unwrap_or_default(),
            kind: &r.kind,
            status: r.status,
            text: self.text.get(r.start..r.start + r.len).unwrap_or_default(),
        }
    }

    /// Whether the item at `position` is `id` (compared as bytes: both are whole strings).
    fn has_id(&self, position: usize, id: &str) -> bool {
        self.records
            .get(position)
            .and_then(|r| self.text.as_bytes().get(r.id.clone()))
            .is_some_and(|bytes| bytes == id.as_bytes())
    }

    /// The position of the item `id`, which is then the most recently touched.
    pub(super) fn position(&mut self, id: &str) -> Option<usize> {
        let hit = self
            .recent
            .iter()
            .flatten()
            .find(|&&i| self.has_id(i, id))
            .copied();
        let position = match hit {
            Some(position) => position,
            None => {
                let hash = self.hasher.hash_one(id);
                *self.index.find(hash, |&i| self.has_id(i, id))?
            }
        };
        self.touch(position);
        Some(position)
    }

    /// Makes the item at `position` the most recent.
    pub(super) fn touch(&mut self, position: usize) {
        let slot = self
            .recent
            .iter()
            .position(|slot| *slot == Some(position))
            .unwrap_or(RECENT_ITEMS - 1);
        self.recent.copy_within(0..slot, 1);
        self.recent[0] = Some(position);
    }

    /// Adds a running item with an empty text; the caller has checked that `id` is new.
    pub(super) fn insert(&mut self, id: &str, kind: &str) -> usize {
        let hash = self.hasher.hash_one(id);
        let start = self.text.len();
        self.text.push_str(id);
        let end = self.text.len();
        let position = self.records.len();
        self.records.push(ItemRecord {
            hash,
            id: start..end,
            kind: Str::from(kind),
            status: ItemStatus::Running,
            start: end,
            len: 0,
            room: 0,
        });
        let records = &self.records;
        self.index
            .insert_unique(hash, position, |&i| records.get(i).map_or(0, |r| r.hash));
        self.last = Some(position);
        self.touch(position);
        position
    }

    pub(super) fn set_kind(&mut self, position: usize, kind: &str) {
        if let Some(r) = self.records.get_mut(position)
            && r.kind != kind
        {
            r.kind = Str::from(kind);
        }
    }

    pub(super) fn set_status(&mut self, position: usize, status: ItemStatus) {
        if let Some(r) = self.records.get_mut(position) {
            r.status = status;
        }
    }

    /// Appends `more` to the text of the item at `position`.
    pub(super) fn append_text(&mut self, position: usize, more: &str) {
        let Some(r) = self.records.get_mut(position) else {
            return;
        };
        let end = r.start + r.len;
        if self.last == Some(position) {
            // The text is the buffer's last: drop its padding and grow in place.
            self.text.truncate(end);
            self.text.push_str(more);
            r.len += more.len();
            r.room = r.len;
        } else if r.len + more.len() <= r.room {
            // Over the padding, byte for byte: nothing after it moves.
            self.text.replace_range(end..end + more.len(), more);
            r.len += more.len();
        } else {
            let room = (r.len + more.len()).max(2 * r.room).max(16);
            let start = self.text.len();
            self.text.extend_from_within(r.start..end);
            self.text.push_str(more);
            pad(&mut self.text, start + room);
            r.start = start;
            r.len += more.len();
            r.room = room;
            self.last = Some(position);
        }
    }

    /// Replaces the text of the item at `position` with `text`, written at the end of the buffer.
    pub(super) fn replace_text(&mut self, position: usize, text: &str) {
        let Some(r) = self.records.get_mut(position) else {
            return;
        };
        if self.last == Some(position) {
            self.text.truncate(r.start);
        }
        r.start = self.text.len();
        self.text.push_str(text);
        r.len = text.len();
        r.room = text.len();
        self.last = Some(position);
    }
}

/// NUL padding up to `len` bytes.
fn pad(text: &mut String, len: usize) {
    const NULS: &str = "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
    while text.len() < len {
        let missing = len - text.len();
        text.push_str(&NULS[..missing.min(NULS.len())]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `Items` must hold: each item's text as a plain string, in first-seen order.
    #[derive(Default)]
    struct Model(Vec<(String, String)>);

    impl Model {
        fn text(&mut self, id: &str) -> &mut String {
            let at = match self.0.iter().position(|(i, _)| i == id) {
                Some(at) => at,
                None => {
                    self.0.push((id.to_owned(), String::new()));
                    self.0.len() - 1
                }
            };
            &mut self.0[at].1
        }
    }

    /// Applies (item, append?, text) steps to both and compares every item after each step.
    fn check(steps: &[(usize, bool, String)]) {
        let ids = ["", "a", "item-2", "ü-3", "a-much-longer-item-identifier-4"];
        let (mut items, mut model) = (Items::default(), Model::default());
        for (n, (which, append, text)) in steps.iter().enumerate() {
            let id = ids[which % ids.len()];
            let position = match items.position(id) {
                Some(p) => p,
                None => items.insert(id, "k"),
            };
            let expected = model.text(id);
            if *append {
                items.append_text(position, text);
                expected.push_str(text);
            } else {
                items.replace_text(position, text);
                text.clone_into(expected);
            }
            let got: Vec<(&str, &str)> = items.iter().map(|i| (i.id, i.text)).collect();
            let want: Vec<(&str, &str)> = model.0.iter().map(|(i, t)| (&**i, &**t)).collect();
            assert_eq!(got, want, "after step {n}");
            for (id, text) in want {
                assert_eq!(items.get(id).map(|i| i.text), Some(text));
            }
        }
    }

    #[test]
    fn interleaved_deltas_move_texts_and_keep_them_whole() {
        let mut steps = Vec::new();
        for round in 0..40 {
            for item in 0..5 {
                steps.push((item, true, format!("{round}é{item}")));
            }
        }
        steps.push((1, false, "replaced".to_owned()));
        steps.push((1, true, " and more".to_owned()));
        steps.push((0, true, String::new()));
        check(&steps);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn items_hold_what_a_map_of_strings_holds(
            steps in prop::collection::vec((0..5usize, prop::bool::weighted(0.85), "[a-zé😀 ]{0,20}"), 0..200)
        ) {
            check(&steps);
        }
    }
}
