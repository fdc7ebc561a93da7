//! [`Order`]: the order an object's members arrived in, so that encoding writes them back there.

use crate::__private::*;
use std::fmt;

/// The slot an unknown member takes in an [`Order`]: "the next member of `extra`".
pub const EXTRA: u16 = u16::MAX;

/// The order an object's members arrived in, so that encoding a decoded value writes them back where
/// they stood. Each entry is a declared member's index, or [`EXTRA`]. Nothing is stored (and nothing
/// allocated) when the input already had the order a built value is written in: declared members in
/// schema order, then unknown ones. Members set in code after decoding follow the recorded ones.
///
/// Two values that differ only in member order are equal, as JSON objects are.
#[derive(Clone, Default)]
pub struct Order(Option<Box<[u16]>>);

impl Order {
    /// The recorded slots; empty when the order is the schema's.
    pub fn slots(&self) -> &[u16] {
        self.0.as_deref().unwrap_or(&[])
    }
    /// Whether a recorded order is kept (the input's order was not the schema's).
    pub fn is_recorded(&self) -> bool {
        self.0.is_some()
    }
}

impl PartialEq for Order {
    fn eq(&self, _: &Order) -> bool {
        true
    }
}

impl fmt::Debug for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("Order(schema)"),
            Some(slots) => write!(f, "Order({slots:?})"),
        }
    }
}

/// Records the member order while an object decodes: a push per member into a small inline buffer.
pub struct OrderRecorder {
    inline: [u16; 24],
    len: usize,
    spill: Vec<u16>,
    canonical: bool,
    next: u16,
    extras: bool,
}

impl OrderRecorder {
    /// Nothing seen yet.
    #[inline]
    pub fn new() -> Self {
        OrderRecorder {
            inline: [0; 24],
            len: 0,
            spill: Vec::new(),
            canonical: true,
            next: 0,
            extras: false,
        }
    }

    /// A member seen, by its slot in schema order.
    #[inline]
    pub fn push(&mut self, slot: u16) {
        if self.canonical {
            if slot == EXTRA {
                self.extras = true;
            } else if self.extras || slot < self.next {
                self.canonical = false;
            } else {
                self.next = slot + 1;
            }
        }
        if self.len < self.inline.len() {
            self.inline[self.len] = slot;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(slot);
        }
        self.len += 1;
    }

    /// The order to keep: empty when it was schema order.
    pub fn finish(self) -> Order {
        if self.canonical {
            return Order(None);
        }
        let slots: Box<[u16]> = if self.spill.is_empty() {
            self.inline[..self.len].into()
        } else {
            self.spill.into_boxed_slice()
        };
        Order(Some(slots))
    }
}

impl Default for OrderRecorder {
    fn default() -> Self {
        Self::new()
    }
}

/// Writes an object's members: first in the recorded order, then every member not yet written in
/// schema order, then the remaining unknown members. `field(i, map)` writes declared member `i` if
/// it is present.
pub fn serialize_members<M, K, V, F>(
    map: &mut M,
    order: &Order,
    declared: u16,
    mut extras: impl Iterator<Item = (K, V)>,
    mut field: F,
) -> Result<(), M::Error>
where
    M: serde::ser::SerializeMap,
    K: serde::Serialize,
    V: serde::Serialize,
    F: FnMut(u16, &mut M) -> Result<(), M::Error>,
{
    let slots = order.slots();
    if slots.is_empty() {
        for i in 0..declared {
            field(i, map)?;
        }
    } else {
        let mut done = vec![false; usize::from(declared)];
        for &slot in slots {
            if slot == EXTRA {
                if let Some((k, v)) = extras.next() {
                    map.serialize_entry(&k, &v)?;
                }
            } else if let Some(d) = done.get_mut(usize::from(slot))
                && !*d
            {
                *d = true;
                field(slot, map)?;
            }
        }
        for (i, d) in done.iter().enumerate() {
            if !*d {
                field(i as u16, map)?;
            }
        }
    }
    for (k, v) in extras {
        map.serialize_entry(&k, &v)?;
    }
    Ok(())
}
